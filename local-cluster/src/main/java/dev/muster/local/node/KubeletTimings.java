package dev.muster.local.node;

import java.time.Duration;

/**
 * How long the simulated kubelet's steps take: the kubelet part of the local cluster's configuration.
 *
 * @param podStartDelay  time between a pod's binding to a node and its phase {@code Running}
 * @param defaultRunTime how long a pod runs when it does not say
 * @param podStopDelay   how long a pod's containers take to stop once it is deleted gracefully; never longer than
 *                       the pod's grace period
 */
public record KubeletTimings(Duration podStartDelay, Duration defaultRunTime, Duration podStopDelay) {
}
