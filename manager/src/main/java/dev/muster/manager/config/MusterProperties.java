package dev.muster.manager.config;

import dev.muster.job.JobControllerConfig;
import dev.muster.job.decision.NetworkTopologyTiers;
import dev.muster.podgroup.PodGroupControllerConfig;
import dev.muster.rendering.VolcanoPodLabels;
import dev.muster.scheduler.GangSchedulerConfig;
import dev.muster.scheduler.autoscaling.AutoscalingConfig;
import dev.muster.scheduler.autoscaling.AutoscalingMode;
import dev.muster.scheduler.autoscaling.ProvisioningRequestApi;
import dev.muster.scheduler.core.cycle.CoschedulingArgs;
import dev.muster.scheduler.core.placement.NodeScoring;
import dev.muster.gang.JobAdmissionRule;
import org.springframework.boot.context.properties.ConfigurationProperties;

import java.time.Duration;
import java.util.List;
import java.util.UUID;

/**
 * The manager's settings, as {@code muster.*} properties (Helm values map onto them). A setting left out takes
 * the component's own default ({@link JobControllerConfig#defaults()}, {@link PodGroupControllerConfig#defaults()},
 * {@link GangSchedulerConfig#defaults()}), so a default has one home; {@code docs/configuration.md} lists every
 * setting with its default, generated from this class. An unknown {@code muster.*} key fails the start with its
 * name rather than being ignored.
 *
 * @param kubernetes     how to reach the API server
 * @param controllers    the Job and PodGroup controllers
 * @param scheduler      the gang scheduler
 * @param podgroup       the PodGroup controller's gang rules
 * @param leaderElection which replica runs the components (docs/operations.md)
 * @param security       who may read the dashboard and the data endpoints (docs/security.md)
 */
@ConfigurationProperties(prefix = "muster", ignoreUnknownFields = false)
public record MusterProperties(Kubernetes kubernetes, Controllers controllers, Scheduler scheduler, PodGroup podgroup,
                               LeaderElection leaderElection, Security security) {

    public MusterProperties {
        kubernetes = kubernetes == null ? new Kubernetes(null, null, null, null) : kubernetes;
        controllers = controllers == null ? new Controllers(null, null, null, null, null) : controllers;
        scheduler = scheduler == null ? new Scheduler(null, null, null, null, null, null, null, null, null, null,
                null, null, null) : scheduler;
        podgroup = podgroup == null ? new PodGroup(null) : podgroup;
        leaderElection = leaderElection == null ? new LeaderElection(null, null, null, null, null, null, null)
                : leaderElection;
        security = security == null ? new Security(null, null) : security;
    }

    /** Which Jobs wait for their gang's admission; the Job controller and the gang scheduler get the same rule. */
    public JobAdmissionRule jobAdmission() {
        return new JobAdmissionRule(controllers.jobsWaitForAdmission());
    }

    /** The Job controller's settings. */
    public JobControllerConfig jobController() {
        return new JobControllerConfig(controllers.jobWorkers(), controllers.counterWriteInterval(), jobAdmission(),
                controllers.volcanoPodLabels(), new NetworkTopologyTiers(scheduler.networkTopologyTiers()));
    }

    /** The PodGroup controller's settings. */
    public PodGroupControllerConfig podGroupController() {
        return new PodGroupControllerConfig(podgroup.replacementGracePeriod(), controllers.counterWriteInterval(),
                controllers.podGroupWorkers());
    }

    /** The gang scheduler's settings. */
    public GangSchedulerConfig gangScheduler() {
        return new GangSchedulerConfig(scheduler.cyclePeriod(), scheduler.bindConcurrency(),
                new CoschedulingArgs(scheduler.permitWaitingTime(), scheduler.podGroupBackoff(),
                        scheduler.podGroupRejectPercentage(), scheduler.nodeScoring(), scheduler.localityTopologyKey(),
                        scheduler.admissionTimeout()),
                jobAdmission(), controllers.counterWriteInterval(), controllers.volcanoPodLabels(),
                new AutoscalingConfig(scheduler.autoscaling(), scheduler.provisioningClass(),
                        scheduler.provisioningRetryBackoff(), scheduler.provisioningMaxRetryBackoff()));
    }

    /**
     * @param masterUrl             API server URL; empty means in-cluster or ~/.kube/config
     * @param maxConcurrentRequests API requests in flight at once
     * @param qps                   API requests per second the client sends at most, over time (client-go's QPS);
     *                              0 for no limit
     * @param burst                 API requests the client may send at once above qps after a quiet spell
     *                              (client-go's burst)
     */
    public record Kubernetes(String masterUrl, Integer maxConcurrentRequests, Double qps, Integer burst) {
        /** Default {@link #maxConcurrentRequests()}. */
        public static final int DEFAULT_MAX_CONCURRENT_REQUESTS = 64;
        /** Default {@link #qps()}. */
        public static final double DEFAULT_QPS = 500;
        /** Default {@link #burst()}. */
        public static final int DEFAULT_BURST = 1000;

        public Kubernetes {
            maxConcurrentRequests = maxConcurrentRequests == null ? DEFAULT_MAX_CONCURRENT_REQUESTS : maxConcurrentRequests;
            qps = qps == null ? DEFAULT_QPS : qps;
            burst = burst == null ? DEFAULT_BURST : burst;
            if (qps < 0 || qps.isNaN()) {
                throw new IllegalArgumentException("muster.kubernetes.qps must be 0 (no limit) or more, got " + qps);
            }
            if (qps > 0 && burst < 1) {
                throw new IllegalArgumentException("muster.kubernetes.burst must be at least 1 when "
                        + "muster.kubernetes.qps limits requests, got " + burst);
            }
        }
    }

    /**
     * @param jobWorkers           Jobs reconciled in parallel
     * @param podGroupWorkers      PodGroups reconciled in parallel
     * @param jobsWaitForAdmission whether a Job of the in-process scheduler creates its pods only once the scheduler
     *                             has admitted its PodGroup (Inqueue), as with Volcano and Kueue; off, pods are
     *                             created at once and the scheduler admits nothing ahead of them
     * @param counterWriteInterval least time between two status writes of one Job or PodGroup that only move its
     *                             pod counts, and of one Queue that only move its amounts and gang counts; phase
     *                             and condition changes are written at once
     * @param volcanoPodLabels     whether a Job's pods also carry Volcano's labels ({@code volcano.sh/job-name},
     *                             {@code task-spec}, {@code task-index}, {@code job-namespace}, {@code queue-name}),
     *                             so that selectors and scripts written for Volcano keep working; the scheduler
     *                             admits a waiting Job from pods rendered the same way, so affinity and spread
     *                             terms on those labels are judged on the pods that will exist
     */
    public record Controllers(Integer jobWorkers, Integer podGroupWorkers, Boolean jobsWaitForAdmission,
                              Duration counterWriteInterval, Boolean volcanoPodLabels) {
        public Controllers {
            jobWorkers = jobWorkers == null ? JobControllerConfig.DEFAULT_WORKERS : jobWorkers;
            podGroupWorkers = podGroupWorkers == null ? PodGroupControllerConfig.DEFAULT_WORKERS : podGroupWorkers;
            jobsWaitForAdmission = jobsWaitForAdmission == null ? JobAdmissionRule.ON.enabled() : jobsWaitForAdmission;
            counterWriteInterval = counterWriteInterval == null ? JobControllerConfig.DEFAULT_COUNTER_WRITE_INTERVAL
                    : counterWriteInterval;
            volcanoPodLabels = volcanoPodLabels == null ? VolcanoPodLabels.DEFAULT : volcanoPodLabels;
        }
    }

    /**
     * Gang scheduler settings; the three coscheduling arguments keep the scheduler-plugins meaning
     * (see docs/scheduling.md).
     *
     * @param cyclePeriod              longest time between two scheduling cycles when nothing happens
     * @param bindConcurrency          bindings and pod condition writes in flight at once
     * @param permitWaitingTime        how long the head gang may hold a partial placement (coscheduling
     *                                 {@code permitWaitingTimeSeconds})
     * @param podGroupBackoff          how long a gang that failed far from its quorum is not tried again
     *                                 (coscheduling {@code podGroupBackoffSeconds}); 0s for no backoff
     * @param podGroupRejectPercentage unplaced share of the quorum up to which a failed gang counts as near its
     *                                 quorum and may reserve instead of backing off (coscheduling
     *                                 {@code podGroupRejectPercentage})
     * @param nodeScoring              {@code most-allocated} (bin-packing) or {@code least-allocated} (spreading)
     * @param localityTopologyKey      node label whose domains gangs are packed into, e.g.
     *                                 {@code topology.kubernetes.io/zone}; empty for none
     * @param admissionTimeout         how long an admitted (Inqueue) gang keeps the room held for it while its job
     *                                 creates its pods; not placed by then, it goes back to Pending
     * @param networkTopologyTiers     node label keys of the cluster's network tiers, tier 1 (tightest) first,
     *                                 onto which a Job's Volcano {@code networkTopology} is mapped as gang
     *                                 topology; empty, {@code networkTopology} is not honoured (the Job says so)
     * @param autoscaling              {@code auto}, {@code provisioning-request}, {@code pending-pods} or {@code off}:
     *                                 how gangs that wait for capacity are shown to the cluster autoscaler; {@code auto}
     *                                 uses ProvisioningRequests where served, else pending pods where Karpenter's
     *                                 NodePools are served, else nothing
     * @param provisioningClass        the ProvisioningRequest class for gangs whose Job and Queue name none
     * @param provisioningRetryBackoff how long after a gang's first ProvisioningRequest failed it gets a new one;
     *                                 doubled per attempt
     * @param provisioningMaxRetryBackoff the longest wait for a new ProvisioningRequest
     */
    public record Scheduler(Duration cyclePeriod, Integer bindConcurrency, Duration permitWaitingTime,
                            Duration podGroupBackoff, Integer podGroupRejectPercentage, NodeScoring nodeScoring,
                            String localityTopologyKey, Duration admissionTimeout, List<String> networkTopologyTiers,
                            AutoscalingMode autoscaling, String provisioningClass, Duration provisioningRetryBackoff,
                            Duration provisioningMaxRetryBackoff) {
        public Scheduler {
            cyclePeriod = cyclePeriod == null ? GangSchedulerConfig.DEFAULT_CYCLE_PERIOD : cyclePeriod;
            bindConcurrency = bindConcurrency == null ? GangSchedulerConfig.DEFAULT_BIND_CONCURRENCY : bindConcurrency;
            permitWaitingTime = permitWaitingTime == null ? CoschedulingArgs.DEFAULT_PERMIT_WAITING_TIME : permitWaitingTime;
            podGroupBackoff = podGroupBackoff == null ? CoschedulingArgs.DEFAULT_POD_GROUP_BACKOFF : podGroupBackoff;
            podGroupRejectPercentage = podGroupRejectPercentage == null
                    ? CoschedulingArgs.DEFAULT_POD_GROUP_REJECT_PERCENTAGE : podGroupRejectPercentage;
            nodeScoring = nodeScoring == null ? CoschedulingArgs.DEFAULT_SCORING : nodeScoring;
            localityTopologyKey = localityTopologyKey == null || localityTopologyKey.isBlank() ? null : localityTopologyKey;
            admissionTimeout = admissionTimeout == null ? CoschedulingArgs.DEFAULT_ADMISSION_TIMEOUT : admissionTimeout;
            networkTopologyTiers = networkTopologyTiers == null ? NetworkTopologyTiers.NONE.keys()
                    : List.copyOf(networkTopologyTiers);
            autoscaling = autoscaling == null ? AutoscalingMode.AUTO : autoscaling;
            provisioningClass = provisioningClass == null || provisioningClass.isBlank()
                    ? ProvisioningRequestApi.BEST_EFFORT_ATOMIC : provisioningClass;
            provisioningRetryBackoff = provisioningRetryBackoff == null ? AutoscalingConfig.DEFAULT_RETRY_BACKOFF
                    : provisioningRetryBackoff;
            provisioningMaxRetryBackoff = provisioningMaxRetryBackoff == null
                    ? AutoscalingConfig.DEFAULT_MAX_RETRY_BACKOFF : provisioningMaxRetryBackoff;
        }
    }

    /**
     * @param replacementGracePeriod how long a running gang may stay below minMember, with nothing waiting to
     *                               replace the lost members, before it turns Unknown
     */
    public record PodGroup(Duration replacementGracePeriod) {
        public PodGroup {
            replacementGracePeriod = replacementGracePeriod == null
                    ? PodGroupControllerConfig.DEFAULT_REPLACEMENT_GRACE_PERIOD : replacementGracePeriod;
        }
    }

    /**
     * One Lease for the whole manager: only the replica that holds it runs the Job controller, the PodGroup
     * controller and the gang scheduler; the others keep their informers warm and wait. application.yaml fills
     * the namespace from {@code POD_NAMESPACE} and the identity from {@code HOSTNAME}.
     *
     * @param enabled       false runs the components at once, for a single replica (as {@code ./muster local} does)
     * @param leaseName     the Lease's name
     * @param namespace     the Lease's namespace
     * @param identity      this replica's name in the Lease, unique per replica; empty for a random UUID
     * @param leaseDuration how long a lease that is not renewed keeps standbys out
     * @param renewDeadline how long the leader keeps trying to renew before it gives up and exits
     * @param retryPeriod   time between two attempts to acquire or renew
     */
    public record LeaderElection(Boolean enabled, String leaseName, String namespace, String identity,
                                 Duration leaseDuration, Duration renewDeadline, Duration retryPeriod) {
        /** fabric8 waits up to this factor of the retry period more between two tries (jitter). */
        private static final double RETRY_JITTER = 1.2;

        public LeaderElection {
            enabled = enabled == null || enabled;
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

    /**
     * Authentication of the dashboard's data ({@code /dashboard/api/*}) and of every Actuator endpoint but
     * health: bearer tokens reviewed by the API server (TokenReview), rights by SubjectAccessReview, as
     * kube-rbac-proxy does.
     *
     * @param enabled        false serves everything to anyone who can reach the port (a trusted network only)
     * @param reviewCacheTtl how long a token's review and an access decision are reused, so that a page that polls
     *                       does not cost the API server reviews; also how long a revoked right may still be honoured
     */
    public record Security(Boolean enabled, Duration reviewCacheTtl) {
        /** Default {@link #reviewCacheTtl()}. */
        public static final Duration DEFAULT_REVIEW_CACHE_TTL = Duration.ofSeconds(30);

        public Security {
            enabled = enabled == null || enabled;
            reviewCacheTtl = reviewCacheTtl == null ? DEFAULT_REVIEW_CACHE_TTL : reviewCacheTtl;
            if (reviewCacheTtl.isNegative()) {
                throw new IllegalArgumentException("muster.security.review-cache-ttl must not be negative, got "
                        + reviewCacheTtl);
            }
        }
    }
}
