package dev.muster.scheduler.core.dra;

import java.util.Objects;

/**
 * A taint a driver (or an administrator) puts on a device in its ResourceSlice ({@code devices[].taints}).
 *
 * @param key    the taint's key
 * @param value  its value; empty if none
 * @param effect {@code NoSchedule}, {@code NoExecute}, or another (e.g. {@code None}), which does not keep the
 *               device from being allocated
 */
public record DeviceTaint(String key, String value, String effect) {
    /** The effect that keeps untolerating claims from getting the device. */
    public static final String NO_SCHEDULE = "NoSchedule";
    /** The effect that also evicts the pods of claims holding the device (the eviction is not the scheduler's). */
    public static final String NO_EXECUTE = "NoExecute";

    public DeviceTaint {
        Objects.requireNonNull(key, "key");
        value = value == null ? "" : value;
        effect = effect == null ? "" : effect;
    }

    /**
     * Whether the taint keeps a request that does not tolerate it from getting the device: only the effects
     * kube-scheduler's allocator knows do, others are ignored, as there.
     */
    public boolean blocksAllocation() {
        return NO_SCHEDULE.equals(effect) || NO_EXECUTE.equals(effect);
    }

    @Override
    public String toString() {
        return key + (value.isEmpty() ? "" : "=" + value) + ":" + effect;
    }
}
