package dev.muster.job;

import dev.muster.job.decision.NetworkTopologyTiers;
import dev.muster.rendering.VolcanoPodLabels;
import dev.muster.gang.JobAdmissionRule;

import java.time.Duration;
import java.util.Objects;

/**
 * Settings of the {@link JobController}; {@link #defaults()} are the production defaults, which the manager's
 * {@code muster.controllers.*} properties start from.
 *
 * @param workers              jobs reconciled in parallel (a job is never reconciled by two at once)
 * @param counterWriteInterval least time between two status writes of one job that change only its pod
 *                             counts: a 16-pod gang's pods start and finish one by one, and the counts need not
 *                             be written sixteen times a second; phase changes are written at once
 * @param admission            which jobs create their pods only once the scheduler has admitted their
 *                             PodGroup; the gang scheduler must be given the same rule
 * @param volcanoPodLabels     whether pods carry Volcano's labels ({@code volcano.sh/job-name}, ...) beside
 *                             Muster's, so that selectors written for Volcano keep working ({@link VolcanoPodLabels})
 * @param networkTopologyTiers the cluster's network tiers as node label keys, tightest first, onto which a
 *                             job's {@code networkTopology} is mapped; none by default
 */
public record JobControllerConfig(int workers, Duration counterWriteInterval, JobAdmissionRule admission,
                                  boolean volcanoPodLabels, NetworkTopologyTiers networkTopologyTiers) {
    /** Default {@link #workers()}: reconciles are short and API-bound. */
    public static final int DEFAULT_WORKERS = 4;
    /** Default {@link #counterWriteInterval()}; the PodGroup controller's default is the same. */
    public static final Duration DEFAULT_COUNTER_WRITE_INTERVAL = Duration.ofSeconds(1);

    public JobControllerConfig {
        if (workers < 1) {
            throw new IllegalArgumentException("workers must be at least 1, got " + workers);
        }
        if (Objects.requireNonNull(counterWriteInterval, "counterWriteInterval").isNegative()) {
            throw new IllegalArgumentException("counterWriteInterval must not be negative, got " + counterWriteInterval);
        }
        Objects.requireNonNull(admission, "admission");
        Objects.requireNonNull(networkTopologyTiers, "networkTopologyTiers");
    }

    /**
     * The production defaults: four workers, counts written at most once a second, jobs wait for admission,
     * pods carry Volcano's labels, no network tiers.
     */
    public static JobControllerConfig defaults() {
        return new JobControllerConfig(DEFAULT_WORKERS, DEFAULT_COUNTER_WRITE_INTERVAL, JobAdmissionRule.ON,
                VolcanoPodLabels.DEFAULT, NetworkTopologyTiers.NONE);
    }

    /** This config with another admission rule. */
    public JobControllerConfig withAdmission(JobAdmissionRule rule) {
        return new JobControllerConfig(workers, counterWriteInterval, rule, volcanoPodLabels, networkTopologyTiers);
    }

    /** This config with the cluster's network tiers, tightest first. */
    public JobControllerConfig withNetworkTopologyTiers(NetworkTopologyTiers tiers) {
        return new JobControllerConfig(workers, counterWriteInterval, admission, volcanoPodLabels, tiers);
    }
}
