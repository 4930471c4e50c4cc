package dev.muster.scheduler.core.model;

/**
 * A pod toleration, matched against taints as the Kubernetes API defines it.
 *
 * @param key      taint key; empty with operator {@code Exists} tolerates every taint
 * @param operator {@code Equal} (the default when empty) or {@code Exists}
 * @param value    taint value for {@code Equal}
 * @param effect   taint effect; empty tolerates every effect
 */
public record Toleration(String key, String operator, String value, String effect) {
    public static final String EQUAL = "Equal";
    public static final String EXISTS = "Exists";

    public Toleration {
        key = key == null ? "" : key;
        operator = operator == null || operator.isEmpty() ? EQUAL : operator;
        value = value == null ? "" : value;
        effect = effect == null ? "" : effect;
    }

    /** Whether this toleration tolerates the taint. */
    public boolean tolerates(Taint taint) {
        if (!effect.isEmpty() && !effect.equals(taint.effect())) {
            return false;
        }
        if (!key.isEmpty() && !key.equals(taint.key())) {
            return false;
        }
        return switch (operator) {
            case EXISTS -> true;
            // An empty key is only valid with Exists; anything else the API server would have rejected.
            case EQUAL -> !key.isEmpty() && value.equals(taint.value());
            default -> false;
        };
    }
}
