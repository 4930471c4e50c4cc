package dev.muster.job.lifecycle;

/**
 * What a transition of the lifecycle does besides changing the phase. Counters are applied by
 * {@code JobStatusDecider}; pod deletions are planned by {@code PodCleanup} and carried out by the reconciler.
 */
public enum Effect {
    NONE("", false, false),
    /** The version changes, so every existing pod is of an older version and is deleted. */
    RESTART_JOB("delete all pods, `version`++, `retryCount`++", true, true),
    RESTART_TASK("delete the task's pods, `retryCount`++", false, true),
    RESTART_POD("delete the pod, `retryCount`++", false, true),
    /** Volcano's: the pods of the partition the event's pod is in; a pod of a task without partitions alone. */
    RESTART_PARTITION("delete the pods of the pod's partition, `retryCount`++", false, true),
    STOP_ACTIVE_PODS("delete unfinished pods (keep Succeeded/Failed)", false, false),
    /** Like a restart of the job, but a resume is the user's decision, so it consumes no retry. */
    RESUME("delete all pods, `version`++ (`retryCount` unchanged)", true, false),
    /**
     * The scheduler is evicting the gang; the pods it left (not yet placed) go too, so that the job waits for
     * admission with no pods, as a new one does. Preemption is not the job's failure: no retry is used.
     */
    PREEMPTED("delete the pods the scheduler is not evicting (`version`, `retryCount` unchanged)", false, false);

    private final String description;
    private final boolean bumpsVersion;
    private final boolean consumesRetry;

    Effect(String description, boolean bumpsVersion, boolean consumesRetry) {
        this.description = description;
        this.bumpsVersion = bumpsVersion;
        this.consumesRetry = consumesRetry;
    }

    /** As shown in {@code docs/job-lifecycle.md}. */
    public String description() {
        return description;
    }

    public boolean bumpsVersion() {
        return bumpsVersion;
    }

    public boolean consumesRetry() {
        return consumesRetry;
    }
}
