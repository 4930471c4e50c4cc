package dev.muster.scheduler;

import dev.muster.api.MusterLabels;
import dev.muster.api.batch.v1alpha1.Job;
import dev.muster.api.batch.v1alpha1.JobDefaults;
import dev.muster.api.batch.v1alpha1.JobPhase;
import dev.muster.api.batch.v1alpha1.TaskSpec;
import dev.muster.api.scheduling.v1alpha1.PodGroup;
import dev.muster.scheduler.core.GroupKey;
import dev.muster.scheduler.core.PlacementConstraints;
import dev.muster.scheduler.core.PodInfo;
import dev.muster.scheduler.core.ResourceVector;
import io.fabric8.kubernetes.api.model.OwnerReference;
import io.fabric8.kubernetes.api.model.PodSpec;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.function.BiFunction;
import java.util.function.Predicate;

/**
 * What the scheduler knows of a Muster Job for admission: whether the job waits for its PodGroup to be
 * admitted before it creates pods, and the pods it will then create, per task, as their templates
 * describe them. This is how a gang can be admitted node by node before its pods exist, as Kueue admits
 * a workload from its pod sets; a PodGroup's {@code minResources} is a sum, which fragmentation defeats.
 *
 * @param name      the job's name
 * @param createdAt when the job was submitted, which orders its gang among gangs of equal priority
 * @param waiting   whether the job may create pods once admitted: ours (scheduler {@code muster}), not
 *                suspended, not being deleted, and Pending (which it is until its gang runs, and again
 *                after a restart)
 * @param tasks     the job's tasks, in spec order
 */
record JobPodTemplates(String name, Instant createdAt, boolean waiting, List<TaskTemplate> tasks) {

    static JobPodTemplates of(Job job) {
        var spec = job.getSpec();
        var state = job.getStatus() == null ? null : job.getStatus().getState();
        JobPhase phase = state == null ? null : state.getPhase();
        boolean waiting = spec != null && MusterLabels.SCHEDULER_NAME.equals(JobDefaults.schedulerName(spec))
                && !Boolean.TRUE.equals(spec.getSuspend()) && !KubeObjects.isDeleting(job)
                && (phase == null || phase == JobPhase.Pending);
        List<TaskTemplate> tasks = new ArrayList<>();
        if (spec != null) {
            for (TaskSpec task : JobDefaults.tasksOf(spec)) {
                PodSpec pod = task.getTemplate() == null || task.getTemplate().getSpec() == null ? new PodSpec()
                        : task.getTemplate().getSpec();
                tasks.add(new TaskTemplate(task.getName(), JobDefaults.replicas(task), PodRequests.of(pod),
                        KubeObjects.constraints(pod), pod.getPriority(), pod.getPriorityClassName()));
            }
        }
        return new JobPodTemplates(job.getMetadata().getName(), KubeObjects.createdAt(job), waiting,
                List.copyOf(tasks));
    }

    /** The name of the Job controlling the PodGroup, or {@code null} if a Job does not own it. */
    static String owningJob(PodGroup podGroup) {
        var owners = podGroup.getMetadata().getOwnerReferences();
        if (owners == null) {
            return null;
        }
        return owners.stream()
                .filter(o -> Job.KIND.equals(o.getKind()) && Job.API_VERSION.equals(o.getApiVersion()))
                .map(OwnerReference::getName)
                .findFirst().orElse(null);
    }

    /**
     * The pods the job will create for the gang and that do not exist yet: those of the tasks the gang
     * counts ({@code dependsOn} leaves some out until they may start), named as the job names them.
     *
     * @param group    the gang
     * @param tasks    the tasks the PodGroup counts (its minTaskMember keys)
     * @param exists   whether a pod of the gang by this name exists, in any state
     * @param priority a template's priority from its {@code spec.priority} and class name
     */
    List<PodInfo> expectedPods(GroupKey group, Set<String> tasks, Predicate<String> exists,
                               BiFunction<Integer, String, Integer> priority) {
        List<PodInfo> expected = new ArrayList<>();
        for (TaskTemplate task : this.tasks) {
            if (!tasks.contains(task.name())) {
                continue;
            }
            int taskPriority = priority.apply(task.priority(), task.priorityClassName());
            for (int index = 0; index < task.replicas(); index++) {
                String pod = JobDefaults.podName(name, task.name(), index);
                if (!exists.test(pod)) {
                    expected.add(new PodInfo(group.namespace(), pod, group, task.name(), taskPriority, task.requests(),
                            task.constraints()));
                }
            }
        }
        return expected;
    }

    /** One task's pods as its template describes them. */
    record TaskTemplate(String name, int replicas, ResourceVector requests, PlacementConstraints constraints,
                        Integer priority, String priorityClassName) {
    }
}
