package dev.muster.api.batch.v1alpha1;

import java.util.ArrayList;
import java.util.List;
import java.util.function.Predicate;

/**
 * The pods a Job creates: for each task in spec order and each index in [0, replicas), pod
 * {@code <job>-<task>-<index>}. The one walk over tasks and replicas, shared by the Job controller (which
 * builds the pods) and the scheduler (which admits a gang from the pods still to come).
 */
public final class TaskPods {
    private TaskPods() {
    }

    /**
     * The job's pods of the tasks {@code open} accepts, in task order then index order.
     *
     * @param open which tasks count, by name: all of them, or those whose {@code dependsOn} is met
     */
    public static List<TaskPod> of(Job job, Predicate<String> open) {
        List<TaskPod> pods = new ArrayList<>();
        if (job.getSpec() == null) {
            return pods;
        }
        String jobName = job.getMetadata().getName();
        for (TaskSpec task : JobDefaults.tasksOf(job.getSpec())) {
            if (!open.test(task.getName())) {
                continue;
            }
            int replicas = JobDefaults.replicas(task);
            for (int index = 0; index < replicas; index++) {
                pods.add(new TaskPod(task, index, JobDefaults.podName(jobName, task.getName(), index)));
            }
        }
        return pods;
    }

    /**
     * One pod a job creates.
     *
     * @param task  the task whose template it is made from
     * @param index its index within the task
     * @param name  its name
     */
    public record TaskPod(TaskSpec task, int index, String name) {
    }
}
