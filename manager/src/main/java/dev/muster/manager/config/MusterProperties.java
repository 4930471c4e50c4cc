package dev.muster.manager.config;

import org.springframework.boot.context.properties.ConfigurationProperties;

import java.time.Duration;

/**
 * The manager's settings, as {@code muster.*} properties (Helm values map onto them).
 *
 * @param kubernetes how to reach the API server
 * @param controllers worker threads of the controllers
 * @param scheduler  gang scheduler settings
 * @param podgroup   PodGroup controller settings
 */
@ConfigurationProperties("muster")
public record MusterProperties(Kubernetes kubernetes, Controllers controllers, Scheduler scheduler, PodGroup podgroup) {

    public MusterProperties {
        kubernetes = kubernetes == null ? new Kubernetes(null, 64) : kubernetes;
        controllers = controllers == null ? new Controllers(4, 4) : controllers;
        scheduler = scheduler == null ? new Scheduler(Duration.ofSeconds(1), 16) : scheduler;
        podgroup = podgroup == null ? new PodGroup(Duration.ofSeconds(30), Duration.ofSeconds(1)) : podgroup;
    }

    /**
     * @param masterUrl              API server URL; empty means in-cluster or ~/.kube/config
     * @param maxConcurrentRequests  concurrent requests to the API server
     */
    public record Kubernetes(String masterUrl, int maxConcurrentRequests) {
    }

    /**
     * @param jobWorkers      Jobs reconciled in parallel
     * @param podGroupWorkers PodGroups reconciled in parallel
     */
    public record Controllers(int jobWorkers, int podGroupWorkers) {
    }

    /**
     * @param cyclePeriod     longest time between two scheduling cycles when nothing happens
     * @param bindConcurrency bindings in flight at once
     */
    public record Scheduler(Duration cyclePeriod, int bindConcurrency) {
    }

    /**
     * @param replacementGracePeriod how long a running gang may stay below minMember, with nothing
     *                               waiting to replace the lost members, before it turns Unknown
     * @param counterWriteInterval   least time between two status writes that only move the counters
     */
    public record PodGroup(Duration replacementGracePeriod, Duration counterWriteInterval) {
    }
}
