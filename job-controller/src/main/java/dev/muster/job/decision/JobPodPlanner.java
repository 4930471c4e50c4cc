package dev.muster.job.decision;

import dev.muster.api.batch.v1alpha1.Job;
import dev.muster.rendering.JobPodRenderer;
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
     * The pods {@link JobPodRenderer} renders of the tasks in {@code openTasks} (those whose {@code dependsOn} is
     * met) whose names are not in {@code existing}, with Volcano's pod labels as {@code volcanoLabels} says
     * (the controller's {@code volcanoPodLabels} setting); only those are built.
     */
    public static List<Pod> missingPods(Job job, int version, Set<String> existing, Set<String> openTasks,
                                        boolean volcanoLabels) {
        return JobPodRenderer.pods(job, version,
                pod -> openTasks.contains(pod.task().getName()) && !existing.contains(pod.name()), volcanoLabels);
    }
}
