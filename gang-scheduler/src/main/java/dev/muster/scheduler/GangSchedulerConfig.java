package dev.muster.scheduler;

import java.time.Duration;
import java.util.Objects;

/**
 * Settings of the {@link GangScheduler}.
 *
 * @param cyclePeriod     how often a cycle runs when no event asks for one; catches what events do not
 *                        signal, such as a failed bind or a bound pod completing another gang's quorum
 * @param bindConcurrency API calls (bindings and pod condition writes) in flight at once
 */
public record GangSchedulerConfig(Duration cyclePeriod, int bindConcurrency) {

    public GangSchedulerConfig {
        Objects.requireNonNull(cyclePeriod, "cyclePeriod");
        if (cyclePeriod.isNegative() || cyclePeriod.isZero()) {
            throw new IllegalArgumentException("cyclePeriod must be positive: " + cyclePeriod);
        }
        if (bindConcurrency < 1) {
            throw new IllegalArgumentException("bindConcurrency must be at least 1: " + bindConcurrency);
        }
    }

    /** A cycle every second at the latest, 16 API calls in flight. */
    public static GangSchedulerConfig defaults() {
        return new GangSchedulerConfig(Duration.ofSeconds(1), 16);
    }

    /** This config with another cycle period. */
    public GangSchedulerConfig withCyclePeriod(Duration period) {
        return new GangSchedulerConfig(period, bindConcurrency);
    }

    /** This config with another bound on concurrent API calls. */
    public GangSchedulerConfig withBindConcurrency(int concurrency) {
        return new GangSchedulerConfig(cyclePeriod, concurrency);
    }
}
