package dev.muster.scheduler.core.dra;

import dev.muster.scheduler.core.model.Taint;
import dev.muster.scheduler.core.model.Toleration;

/**
 * A request's toleration of device taints ({@code exactly.tolerations}, {@code firstAvailable[].tolerations}),
 * matched as Kubernetes matches a toleration to a taint: the effect is the taint's or empty (every effect); the
 * key is the taint's, or empty with {@code Exists} (every key); {@code Exists} matches any value, {@code Equal}
 * (the default) the taint's value only, and only with a key.
 *
 * @param key               the taint key; empty for every key
 * @param operator          {@code Exists} or {@code Equal}; empty means {@code Equal}
 * @param value             the value {@code Equal} matches
 * @param effect            the taint effect matched; empty for every effect
 * @param tolerationSeconds for {@code NoExecute}, how long the pod may keep the device once tainted; kept so that
 *                          the allocation can carry it to the eviction controller, not used in allocating
 */
public record DeviceToleration(String key, String operator, String value, String effect, Long tolerationSeconds) {
    public DeviceToleration {
        key = key == null ? "" : key;
        operator = operator == null || operator.isEmpty() ? "Equal" : operator;
        value = value == null ? "" : value;
        effect = effect == null ? "" : effect;
    }

    /**
     * Whether this toleration tolerates the taint. Device taints and tolerations have the fields and the matching
     * rules of a node's, so the node's one rule decides.
     */
    public boolean tolerates(DeviceTaint taint) {
        return new Toleration(key, operator, value, effect).tolerates(new Taint(taint.key(), taint.value(), taint.effect()));
    }
}
