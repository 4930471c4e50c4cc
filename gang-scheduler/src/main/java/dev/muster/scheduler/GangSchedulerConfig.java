package dev.muster.scheduler;

import dev.muster.scheduler.autoscaling.AutoscalingConfig;
import dev.muster.scheduler.core.cycle.CoschedulingArgs;
import dev.muster.gang.JobAdmissionRule;
import dev.muster.scheduler.core.placement.NodeScoring;
import dev.muster.rendering.VolcanoPodLabels;

import java.time.Duration;
import java.util.Objects;

/**
 * Settings of the {@link GangScheduler}.
 *
 * @param cyclePeriod     how often a cycle runs when no event asks for one; catches what events do not
 *                        signal, such as a failed bind, a bound pod completing another gang's quorum, or
 *                        a backoff or reservation running out
 * @param bindConcurrency API calls (bindings and pod condition writes) in flight at once
 * @param coscheduling    the coscheduling plugin's arguments and the node scoring
 * @param jobAdmission    which Jobs wait for their gang's admission before they create pods; the scheduler
 *                        admits exactly those, from their task templates, as the Job controller holds them
 * @param queueStatusInterval least time between two writes of a Queue's status that change only its amounts
 *                        and counts (the controllers' counter-write interval); a change of its conditions is
 *                        written at once
 * @param volcanoPodLabels whether a Job's pods carry Volcano's labels too, as the Job controller renders them
 *                        ({@code muster.controllers.volcano-pod-labels}); admission renders the pods it admits
 *                        the same way, so that affinity and spread terms selecting those labels are judged on
 *                        the pods that will exist
 * @param autoscaling     how gangs that wait for capacity are shown to the cluster autoscaler
 *                        ({@code docs/autoscaling.md})
 */
public record GangSchedulerConfig(Duration cyclePeriod, int bindConcurrency, CoschedulingArgs coscheduling,
                                  JobAdmissionRule jobAdmission, Duration queueStatusInterval,
                                  boolean volcanoPodLabels, AutoscalingConfig autoscaling) {
    /** Default {@link #cyclePeriod()}. */
    public static final Duration DEFAULT_CYCLE_PERIOD = Duration.ofSeconds(1);
    /** Default {@link #bindConcurrency()}. */
    public static final int DEFAULT_BIND_CONCURRENCY = 16;
    /** Default {@link #queueStatusInterval()}, the controllers' default counter-write interval. */
    public static final Duration DEFAULT_QUEUE_STATUS_INTERVAL = Duration.ofSeconds(1);

    public GangSchedulerConfig {
        Objects.requireNonNull(cyclePeriod, "cyclePeriod");
        if (cyclePeriod.isNegative() || cyclePeriod.isZero()) {
            throw new IllegalArgumentException("cyclePeriod must be positive: " + cyclePeriod);
        }
        if (bindConcurrency < 1) {
            throw new IllegalArgumentException("bindConcurrency must be at least 1: " + bindConcurrency);
        }
        Objects.requireNonNull(coscheduling, "coscheduling");
        Objects.requireNonNull(jobAdmission, "jobAdmission");
        Objects.requireNonNull(queueStatusInterval, "queueStatusInterval");
        if (queueStatusInterval.isNegative()) {
            throw new IllegalArgumentException("queueStatusInterval must not be negative: " + queueStatusInterval);
        }
        Objects.requireNonNull(autoscaling, "autoscaling");
    }

    /**
     * The production defaults: a cycle every second at the latest, 16 API calls in flight, the coscheduling
     * plugin's defaults, Jobs waiting for admission, Queue status amounts written at most every second, and
     * autoscaling by ProvisioningRequest where the API server serves them, else by pending pods.
     */
    public static GangSchedulerConfig defaults() {
        return new GangSchedulerConfig(DEFAULT_CYCLE_PERIOD, DEFAULT_BIND_CONCURRENCY, CoschedulingArgs.defaults(),
                JobAdmissionRule.ON, DEFAULT_QUEUE_STATUS_INTERVAL,
                VolcanoPodLabels.DEFAULT, AutoscalingConfig.defaults());
    }

    /** This config with another cycle period. */
    public GangSchedulerConfig withCyclePeriod(Duration period) {
        return new GangSchedulerConfig(period, bindConcurrency, coscheduling, jobAdmission,
                queueStatusInterval, volcanoPodLabels, autoscaling);
    }

    /** This config with another bound on concurrent API calls. */
    public GangSchedulerConfig withBindConcurrency(int concurrency) {
        return new GangSchedulerConfig(cyclePeriod, concurrency, coscheduling, jobAdmission,
                queueStatusInterval, volcanoPodLabels, autoscaling);
    }

    /** This config with other coscheduling arguments. */
    public GangSchedulerConfig withCoscheduling(CoschedulingArgs args) {
        return new GangSchedulerConfig(cyclePeriod, bindConcurrency, args, jobAdmission,
                queueStatusInterval, volcanoPodLabels, autoscaling);
    }

    /** This config with another rule for which Jobs wait for admission. */
    public GangSchedulerConfig withJobAdmission(JobAdmissionRule rule) {
        return new GangSchedulerConfig(cyclePeriod, bindConcurrency, coscheduling, rule,
                queueStatusInterval, volcanoPodLabels, autoscaling);
    }

    /** This config with pods rendered for admission with or without Volcano's labels. */
    public GangSchedulerConfig withVolcanoPodLabels(boolean labels) {
        return new GangSchedulerConfig(cyclePeriod, bindConcurrency, coscheduling, jobAdmission, queueStatusInterval,
                labels, autoscaling);
    }

    /** This config with other autoscaling settings. */
    public GangSchedulerConfig withAutoscaling(AutoscalingConfig other) {
        return new GangSchedulerConfig(cyclePeriod, bindConcurrency, coscheduling, jobAdmission, queueStatusInterval,
                volcanoPodLabels, other);
    }

    /** {@code permitWaitingTimeSeconds}: how long a near gang may hold its reservation. */
    public GangSchedulerConfig withPermitWaitingTime(Duration waitingTime) {
        return withCoscheduling(coscheduling.withPermitWaitingTime(waitingTime));
    }

    /** {@code podGroupBackoffSeconds}: how long a gang that failed far from its quorum is not tried. */
    public GangSchedulerConfig withPodGroupBackoff(Duration backoff) {
        return withCoscheduling(coscheduling.withPodGroupBackoff(backoff));
    }

    /** {@code podGroupRejectPercentage}: how much of minMember may be unplaced for a gang to count as near. */
    public GangSchedulerConfig withPodGroupRejectPercentage(int percentage) {
        return withCoscheduling(coscheduling.withPodGroupRejectPercentage(percentage));
    }

    /** Bin-packing ({@link NodeScoring#MOST_ALLOCATED}, the default) or spreading. */
    public GangSchedulerConfig withNodeScoring(NodeScoring scoring) {
        return withCoscheduling(coscheduling.withScoring(scoring));
    }

    /**
     * Gang locality: a node label naming topology domains (e.g. {@code topology.kubernetes.io/zone});
     * each gang's quorum is first tried within one domain. {@code null} turns locality off (the default).
     */
    public GangSchedulerConfig withLocalityTopologyKey(String topologyKey) {
        return withCoscheduling(coscheduling.withLocalityTopologyKey(topologyKey));
    }

    /**
     * How long an admitted gang keeps the room promised to it while its workload creates its pods
     * (default 60 s); a gang not placed by then goes back to Pending.
     */
    public GangSchedulerConfig withAdmissionTimeout(Duration timeout) {
        return withCoscheduling(coscheduling.withAdmissionTimeout(timeout));
    }
}
