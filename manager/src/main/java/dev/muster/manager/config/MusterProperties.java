package dev.muster.manager.config;

import org.springframework.boot.context.properties.ConfigurationProperties;

import java.time.Duration;

/**
 * The manager's settings, as {@code muster.*} properties (Helm values map onto them).
 *
 * @param kubernetes how to reach the API server
 * @param controllers worker threads of the controllers
 * @param scheduler  gang scheduler settings
 */
@ConfigurationProperties("muster")
public record MusterProperties(Kubernetes kubernetes, Controllers controllers, Scheduler scheduler) {

    public MusterProperties {
        kubernetes = kubernetes == null ? new Kubernetes(null, 64) : kubernetes;
        controllers = controllers == null ? new Controllers(4, 4) : controllers;
        scheduler = scheduler == null ? new Scheduler(Duration.ofSeconds(1), 16) : scheduler;
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
}
