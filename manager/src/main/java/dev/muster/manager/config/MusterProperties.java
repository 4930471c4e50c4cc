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
        controllers = controllers == null ? new Controllers(4, 4, true) : controllers;
        scheduler = scheduler == null
                ? new Scheduler(Duration.ofSeconds(1), 16, Duration.ofSeconds(60), Duration.ZERO, 10, "most-allocated", null,
                        Duration.ofSeconds(60))
                : scheduler;
        podgroup = podgroup == null ? new PodGroup(Duration.ofSeconds(30), Duration.ofSeconds(1)) : podgroup;
    }

    /**
     * @param masterUrl              API server URL; empty means in-cluster or ~/.kube/config
     * @param maxConcurrentRequests  concurrent requests to the API server
     */
    public record Kubernetes(String masterUrl, int maxConcurrentRequests) {
    }

    /**
     * @param jobWorkers             Jobs reconciled in parallel
     * @param podGroupWorkers        PodGroups reconciled in parallel
     * @param jobsWaitForAdmission   whether a Job of the in-process scheduler creates its pods only once the
     *                               scheduler has admitted its PodGroup (Inqueue), as with Volcano and Kueue
     */
    public record Controllers(int jobWorkers, int podGroupWorkers, boolean jobsWaitForAdmission) {
    }

    /**
     * Gang scheduler settings; the three coscheduling arguments keep the scheduler-plugins meaning
     * (see docs/scheduling.md).
     *
     * @param cyclePeriod              longest time between two scheduling cycles when nothing happens
     * @param bindConcurrency          bindings in flight at once
     * @param permitWaitingTime        how long the head gang may hold a partial placement (Permit wait)
     * @param podGroupBackoff          how long a gang that failed far from its quorum is not tried again
     * @param podGroupRejectPercentage unplaced share of the quorum up to which a failed gang counts as
     *                                 near quorum and may reserve instead of backing off
     * @param nodeScoring              {@code most-allocated} (bin-packing) or {@code least-allocated} (spreading)
     * @param localityTopologyKey      node label whose domains gangs are packed into, e.g.
     *                                 {@code topology.kubernetes.io/zone}; empty for none
     * @param admissionTimeout         how long an admitted (Inqueue) gang keeps the room held for it while
     *                                 its job creates its pods; not placed by then, it goes back to Pending
     */
    public record Scheduler(Duration cyclePeriod, int bindConcurrency, Duration permitWaitingTime,
                            Duration podGroupBackoff, int podGroupRejectPercentage, String nodeScoring,
                            String localityTopologyKey, Duration admissionTimeout) {
    }

    /**
     * @param replacementGracePeriod how long a running gang may stay below minMember, with nothing
     *                               waiting to replace the lost members, before it turns Unknown
     * @param counterWriteInterval   least time between two status writes that only move the counters
     */
    public record PodGroup(Duration replacementGracePeriod, Duration counterWriteInterval) {
    }
}
