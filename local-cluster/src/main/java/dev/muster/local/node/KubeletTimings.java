package dev.muster.local.node;

import java.time.Duration;

/**
 * How long the simulated kubelet's steps take: the kubelet part of the local cluster's configuration.
 *
 * @param podStartDelay  time between a pod's binding to a node and its phase {@code Running}
 * @param defaultRunTime how long a pod runs when it does not say
 * @param podStopDelay   how long a pod's containers take to stop once it is deleted gracefully; never longer than
 *                       the pod's grace period
 * @param restartBackOff the first back-off before a container that keeps exiting is restarted in place (the
 *                       kubelet's 10 s); it doubles with each further exit up to {@link #maxRestartBackOff()}
 */
public record KubeletTimings(Duration podStartDelay, Duration defaultRunTime, Duration podStopDelay,
                             Duration restartBackOff) {
    /** The kubelet caps its back-off at 5 min, 30 times the first one; the same ratio keeps the doubling shape. */
    private static final int MAX_BACK_OFF_FACTOR = 30;

    /** The longest back-off before a restart: 30 times {@code restartBackOff}, as 5 min is to the kubelet's 10 s. */
    public Duration maxRestartBackOff() {
        return restartBackOff.multipliedBy(MAX_BACK_OFF_FACTOR);
    }

    /**
     * How long a container must run between two exits for its back-off to start over: twice
     * {@link #maxRestartBackOff()}, as the kubelet forgets a back-off after twice its cap (10 min).
     */
    public Duration restartBackOffReset() {
        return maxRestartBackOff().multipliedBy(2);
    }
}
