package dev.muster.scheduler.core.model;

import java.util.Objects;

/**
 * A node taint. Only {@link #NO_SCHEDULE} and {@link #NO_EXECUTE} keep pods that do not tolerate them
 * off the node; {@link #PREFER_NO_SCHEDULE} lowers the node's score for them.
 *
 * @param key    taint key
 * @param value  taint value, empty if none
 * @param effect {@code NoSchedule}, {@code PreferNoSchedule} or {@code NoExecute}
 */
public record Taint(String key, String value, String effect) {
    public static final String NO_SCHEDULE = "NoSchedule";
    public static final String PREFER_NO_SCHEDULE = "PreferNoSchedule";
    public static final String NO_EXECUTE = "NoExecute";

    public Taint {
        Objects.requireNonNull(key, "key");
        value = value == null ? "" : value;
        Objects.requireNonNull(effect, "effect");
    }

    /** Whether a pod must tolerate this taint to be placed on the node. */
    public boolean keepsPodsOff() {
        return NO_SCHEDULE.equals(effect) || NO_EXECUTE.equals(effect);
    }

    /** As kube-scheduler prints it in its untolerated-taint reason: {@code {key: value}}. */
    @Override
    public String toString() {
        return "{" + key + ": " + value + "}";
    }
}
