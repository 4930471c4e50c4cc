package dev.muster.job;

import dev.muster.api.batch.v1alpha1.Job;
import dev.muster.rendering.JobPodRenderer;
import dev.muster.rendering.VolcanoPodLabels;
import io.fabric8.kubernetes.api.model.Pod;

import java.util.List;
import java.util.Set;

/**
 * The pods a job should have and does not: those {@link JobPodRenderer} renders (the one rendering of a job's
 * pods, which the scheduler admits gangs from too) whose names do not exist yet, of the tasks that may have
 * pods. A pure function of the job.
 */
public final class JobPodPlanner {
    private JobPodPlanner() {
    }

    /**
     * Every pod the job should have, in task order then index order.
     *
     * @param version the job's {@code status.version}, which the pods carry as an annotation
     */
    public static List<Pod> desiredPods(Job job, int version) {
        return JobPodRenderer.pods(job, version);
    }

    /** The desired pods whose names are not in {@code existing}; only those are built. */
    public static List<Pod> missingPods(Job job, int version, Set<String> existing) {
        return JobPodRenderer.pods(job, version, pod -> !existing.contains(pod.name()));
    }

    /**
     * The desired pods of the tasks in {@code openTasks} (those whose {@code dependsOn} is met) whose
     * names are not in {@code existing}.
     */
    public static List<Pod> missingPods(Job job, int version, Set<String> existing, Set<String> openTasks) {
        return missingPods(job, version, existing, openTasks, VolcanoPodLabels.DEFAULT);
    }

    /**
     * As {@link #missingPods(Job, int, Set, Set)}, with Volcano's pod labels as {@code volcanoLabels} says
     * ({@link JobControllerConfig#volcanoPodLabels}).
     */
    public static List<Pod> missingPods(Job job, int version, Set<String> existing, Set<String> openTasks,
                                        boolean volcanoLabels) {
        return JobPodRenderer.pods(job, version,
                pod -> openTasks.contains(pod.task().getName()) && !existing.contains(pod.name()), volcanoLabels);
    }
}
