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

    public PodGroupControllerConfig {
        requireNonNegative(replacementGracePeriod, "replacementGracePeriod");
        requireNonNegative(counterWriteInterval, "counterWriteInterval");
        if (workers < 1) {
            throw new IllegalArgumentException("workers must be at least 1, got " + workers);
        }
    }

    /** A 30 s replacement grace period; counters written at most once a second per group; two workers. */
    public static PodGroupControllerConfig defaults() {
        return new PodGroupControllerConfig(Duration.ofSeconds(30), Duration.ofSeconds(1), 2);
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
