package dev.muster.manager.config;

import org.springframework.boot.context.properties.ConfigurationProperties;

import java.time.Duration;
import java.util.UUID;

/**
 * The manager's settings, as {@code muster.*} properties (Helm values map onto them).
 *
 * @param kubernetes how to reach the API server
 * @param controllers worker threads of the controllers
 * @param scheduler  gang scheduler settings
 * @param podgroup   PodGroup controller settings
 * @param leaderElection which replica runs the components (docs/operations.md)
 */
@ConfigurationProperties("muster")
public record MusterProperties(Kubernetes kubernetes, Controllers controllers, Scheduler scheduler, PodGroup podgroup,
                               LeaderElection leaderElection) {

    public MusterProperties {
        kubernetes = kubernetes == null ? new Kubernetes(null, 64) : kubernetes;
        controllers = controllers == null ? new Controllers(4, 4, true) : controllers;
        scheduler = scheduler == null
                ? new Scheduler(Duration.ofSeconds(1), 16, Duration.ofSeconds(60), Duration.ZERO, 10, "most-allocated", null,
                        Duration.ofSeconds(60))
                : scheduler;
        podgroup = podgroup == null ? new PodGroup(Duration.ofSeconds(30), Duration.ofSeconds(1)) : podgroup;
        leaderElection = leaderElection == null ? new LeaderElection(true, null, null, null, null, null, null) : leaderElection;
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

    /**
     * One Lease for the whole manager: only the replica that holds it runs the Job controller, the PodGroup
     * controller and the gang scheduler; the others keep their informers warm and wait. Unset values take
     * the defaults below (application.yaml also fills the namespace from {@code POD_NAMESPACE} and the
     * identity from {@code HOSTNAME}).
     *
     * @param enabled       false runs the components at once, for a single replica (as {@code ./muster local} does)
     * @param leaseName     the Lease's name; default {@code muster-manager}
     * @param namespace     the Lease's namespace; default {@code default}
     * @param identity      this replica's name in the Lease, unique per replica; default a random UUID
     * @param leaseDuration how long a lease that is not renewed keeps standbys out; default 15s
     * @param renewDeadline how long the leader keeps trying to renew before it gives up and exits; default 10s
     * @param retryPeriod   time between two attempts to acquire or renew; default 2s
     */
    public record LeaderElection(boolean enabled, String leaseName, String namespace, String identity,
                                 Duration leaseDuration, Duration renewDeadline, Duration retryPeriod) {
        /** fabric8 waits up to this factor of the retry period more between two tries (jitter). */
        private static final double RETRY_JITTER = 1.2;

        public LeaderElection {
            leaseName = blank(leaseName) ? "muster-manager" : leaseName;
            namespace = blank(namespace) ? "default" : namespace;
            identity = blank(identity) ? UUID.randomUUID().toString() : identity;
            leaseDuration = leaseDuration == null ? Duration.ofSeconds(15) : leaseDuration;
            renewDeadline = renewDeadline == null ? Duration.ofSeconds(10) : renewDeadline;
            retryPeriod = retryPeriod == null ? Duration.ofSeconds(2) : retryPeriod;
            // The leader must give up before a standby may take the lease over, and must get more than one
            // try at renewing before it gives up, as client-go's leader election requires.
            if (leaseDuration.compareTo(renewDeadline) <= 0) {
                throw new IllegalArgumentException("muster.leader-election.lease-duration (" + leaseDuration
                        + ") must be longer than renew-deadline (" + renewDeadline + ")");
            }
            if (renewDeadline.toMillis() <= RETRY_JITTER * retryPeriod.toMillis()) {
                throw new IllegalArgumentException("muster.leader-election.renew-deadline (" + renewDeadline
                        + ") must be longer than " + RETRY_JITTER + " x retry-period (" + retryPeriod + ")");
            }
        }

        /** The Lease as {@code namespace/name}, as logs and health name it. */
        public String lease() {
            return namespace + "/" + leaseName;
        }

        private static boolean blank(String value) {
            return value == null || value.isBlank();
        }
    }
}
