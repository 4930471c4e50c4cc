package dev.muster.api.batch.v1alpha1;

import dev.muster.api.MusterLabels;

import java.util.List;
import java.util.Objects;

/** Effective values of optional Job fields: one place for every default, as a pure function of the spec. */
public final class JobDefaults {
    /** Retries a job gets when {@code maxRetry} is not set. */
    public static final int DEFAULT_MAX_RETRY = 3;
    /** Tasks a job may have; bounded so that admission can check task names pairwise within its CEL budget. */
    public static final int MAX_TASKS = 64;
    /** Policies a job or a task may have, for the same reason. */
    public static final int MAX_POLICIES = 32;
    /** Volumes a job may list. */
    public static final int MAX_VOLUMES = 32;

    private JobDefaults() {
    }

    /** Pods of the task; 1 when not set. */
    public static int replicas(TaskSpec task) {
        return task.getReplicas() == null ? 1 : task.getReplicas();
    }

    /**
     * The task's minimum; when not set, its {@code partitionPolicy}'s {@code minPartitions × partitionSize} if
     * it sets {@code minPartitions} above 0 (as Volcano's job webhook defaults it), else its replicas.
     */
    public static int minAvailable(TaskSpec task) {
        if (task.getMinAvailable() != null) {
            return task.getMinAvailable();
        }
        PartitionPolicySpec partitions = task.getPartitionPolicy();
        if (partitions != null && partitions.getMinPartitions() != null && partitions.getMinPartitions() > 0
                && partitions.getPartitionSize() != null) {
            return partitions.getMinPartitions() * partitions.getPartitionSize();
        }
        return replicas(task);
    }

    /** The job's minimum; the sum of its tasks' minimums when not set. */
    public static int minAvailable(JobSpec spec) {
        if (spec.getMinAvailable() != null) {
            return spec.getMinAvailable();
        }
        return tasksOf(spec).stream().mapToInt(JobDefaults::minAvailable).sum();
    }

    /**
     * Whether the job is elastic, as Volcano decides it: its {@code minAvailable} is below the sum of its
     * tasks' minimums (each defaulting as {@link #minAvailable(TaskSpec)} says). An elastic job's gang is any
     * {@code minAvailable} of its pods, and its tasks' minimums bind neither the scheduler nor completion,
     * whether the user wrote them or not (Volcano's webhook fills in every task minimum, so it cannot tell).
     */
    public static boolean elastic(JobSpec spec) {
        return minAvailable(spec) < tasksOf(spec).stream().mapToInt(JobDefaults::minAvailable).sum();
    }

    /** The task's minimum as enforced: its {@code minAvailable}, or 0 in an {@link #elastic} job. */
    public static int enforcedMinAvailable(JobSpec spec, TaskSpec task) {
        return elastic(spec) ? 0 : minAvailable(task);
    }

    /** Pods of all tasks. */
    public static int totalReplicas(JobSpec spec) {
        return tasksOf(spec).stream().mapToInt(JobDefaults::replicas).sum();
    }

    /** Retries allowed; {@value #DEFAULT_MAX_RETRY} when not set, 0 means none. */
    public static int maxRetry(JobSpec spec) {
        return spec.getMaxRetry() == null ? DEFAULT_MAX_RETRY : spec.getMaxRetry();
    }

    /** The scheduler of the job's pods; Muster's own when not set. */
    public static String schedulerName(JobSpec spec) {
        return spec.getSchedulerName() == null || spec.getSchedulerName().isBlank()
                ? MusterLabels.SCHEDULER_NAME : spec.getSchedulerName();
    }

    /** The name of a job's pod: {@code <job>-<task>-<index>}. */
    public static String podName(String job, String task, int index) {
        return job + "-" + task + "-" + index;
    }

    /** The name of the claim a job makes for {@code spec.volumes[index]} from its {@code volumeClaim}. */
    public static String volumeClaimName(String job, int index) {
        return job + "-volume-" + index;
    }

    /** The name of a job's PodGroup, which is the job's own name. */
    public static String podGroupName(String job) {
        return job;
    }

    /** The spec's tasks, skipping null entries. */
    public static List<TaskSpec> tasksOf(JobSpec spec) {
        return spec.getTasks() == null ? List.of() : spec.getTasks().stream().filter(Objects::nonNull).toList();
    }

    /** {@code all} unless {@code any} is given: whether every task depended on must be up, or one. */
    public static boolean dependsOnAll(DependsOn dependsOn) {
        return !"any".equals(dependsOn.getIteration());
    }
}
