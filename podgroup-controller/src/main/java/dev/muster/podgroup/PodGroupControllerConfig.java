package dev.muster.podgroup;

import java.time.Duration;
import java.util.Objects;

/**
 * Settings of the {@link PodGroupController}.
 *
 * @param replacementGracePeriod how long a Running gang may stay below {@code minMember} after members
 *                               left (deleted, not replaced yet) before it is declared Unknown with
 *                               reason {@code PodDeleted}; a workload controller usually replaces a
 *                               deleted pod within seconds, a bare-pod gang never does
 * @param counterWriteInterval   least time between two status writes of one group that change only its
 *                               counters ({@code running}, {@code succeeded}, {@code failed}), so that a
 *                               large gang starting or finishing pod by pod costs a few writes, not one
 *                               per pod; phase and condition changes are written at once
 * @param workers                groups reconciled in parallel (a group is never reconciled by two at once)
 */
public record PodGroupControllerConfig(Duration replacementGracePeriod, Duration counterWriteInterval, int workers) {
    /** Default {@link #replacementGracePeriod()}. */
    public static final Duration DEFAULT_REPLACEMENT_GRACE_PERIOD = Duration.ofSeconds(30);
    /** Default {@link #counterWriteInterval()}; the Job controller's default is the same. */
    public static final Duration DEFAULT_COUNTER_WRITE_INTERVAL = Duration.ofSeconds(1);
    /** Default {@link #workers()}: reconciles are short and API-bound. */
    public static final int DEFAULT_WORKERS = 4;

    public PodGroupControllerConfig {
        requireNonNegative(replacementGracePeriod, "replacementGracePeriod");
        requireNonNegative(counterWriteInterval, "counterWriteInterval");
        if (workers < 1) {
            throw new IllegalArgumentException("workers must be at least 1, got " + workers);
        }
    }

    /** The production defaults: a 30 s grace period, counters written at most once a second, four workers. */
    public static PodGroupControllerConfig defaults() {
        return new PodGroupControllerConfig(DEFAULT_REPLACEMENT_GRACE_PERIOD, DEFAULT_COUNTER_WRITE_INTERVAL,
                DEFAULT_WORKERS);
    }

    /** This config with another replacement grace period. */
    public PodGroupControllerConfig withReplacementGracePeriod(Duration gracePeriod) {
        return new PodGroupControllerConfig(gracePeriod, counterWriteInterval, workers);
    }

    private static void requireNonNegative(Duration duration, String name) {
        if (Objects.requireNonNull(duration, name).isNegative()) {
            throw new IllegalArgumentException(name + " must not be negative, got " + duration);
        }
    }
}
