package dev.muster.scheduler;

import dev.muster.api.MusterLabels;
import dev.muster.api.PodGroupLabel;
import dev.muster.api.batch.v1alpha1.Job;
import dev.muster.api.batch.v1alpha1.JobDefaults;
import dev.muster.api.batch.v1alpha1.TaskPods;
import dev.muster.api.batch.v1alpha1.TaskSpec;
import dev.muster.scheduler.core.GroupKey;
import dev.muster.scheduler.core.InterPodTerms;
import dev.muster.scheduler.core.PlacementConstraints;
import dev.muster.scheduler.core.PodInfo;
import dev.muster.scheduler.core.ResourceVector;
import dev.muster.support.admission.JobAdmissionRule;
import io.fabric8.kubernetes.api.model.PodSpec;

import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.SortedSet;
import java.util.function.BiFunction;
import java.util.function.Predicate;

/**
 * What the scheduler knows of a Muster Job for admission: whether the job waits for its PodGroup to be
 * admitted before it creates pods, and the pods it will then create, as their templates describe them.
 * This is how a gang can be admitted node by node before its pods exist, as Kueue admits a workload from
 * its pod sets; a PodGroup's {@code minResources} is a sum, which fragmentation defeats.
 *
 * @param name      the job's name
 * @param createdAt when the job was submitted, which orders its gang among gangs of equal priority
 * @param waiting   whether the job's pods wait for admission ({@link JobAdmissionRule}, which the Job
 *                  controller applies too)
 * @param pods      while waiting, every pod the job will create, in the order it creates them; otherwise
 *                  empty (nothing needs them)
 */
record JobPodTemplates(String name, Instant createdAt, boolean waiting, List<PlannedPod> pods) {

    static JobPodTemplates of(Job job, JobAdmissionRule rule) {
        boolean waiting = rule.waitsForAdmission(job);
        List<PlannedPod> pods = new ArrayList<>();
        if (waiting) {
            Map<String, TaskTemplate> templates = new HashMap<>();
            for (TaskPods.TaskPod pod : TaskPods.of(job, task -> true)) {
                pods.add(new PlannedPod(pod.name(), templates.computeIfAbsent(pod.task().getName(),
                        name -> TaskTemplate.of(job, pod.task()))));
            }
        }
        return new JobPodTemplates(job.getMetadata().getName(), KubeObjects.createdAt(job), waiting, List.copyOf(pods));
    }

    /**
     * The pods the job will create for the gang and that do not exist yet: those of the tasks the gang
     * counts ({@code dependsOn} leaves some out until they may start).
     *
     * @param group    the gang
     * @param tasks    the tasks the PodGroup counts (its minTaskMember keys)
     * @param exists   whether a pod of the gang by this name exists, in any state
     * @param priority a template's priority from its {@code spec.priority} and class name
     */
    List<PodInfo> expectedPods(GroupKey group, Set<String> tasks, Predicate<String> exists,
                               BiFunction<Integer, String, Integer> priority) {
        List<PodInfo> expected = new ArrayList<>();
        for (PlannedPod pod : pods) {
            TaskTemplate task = pod.task();
            if (tasks.contains(task.name()) && !exists.test(pod.name())) {
                expected.add(new PodInfo(group.namespace(), pod.name(), group, task.name(),
                        priority.apply(task.priority(), task.priorityClassName()), task.requests(),
                        task.constraints(), task.labels(), task.interPod(), task.notEvaluated()));
            }
        }
        return expected;
    }

    /** A pod the job will create, by name, and the template of its task. */
    record PlannedPod(String name, TaskTemplate task) {
    }

    /**
     * One task's pods as its template describes them.
     *
     * @param labels   the labels every pod of the task gets: the template's, the Job's and the task's name
     *                 and the pod group's (a pod's index label differs from pod to pod and is left out)
     * @param interPod the template's inter-pod terms and host ports
     * @param notEvaluated the template's fields the scheduler does not evaluate
     */
    record TaskTemplate(String name, ResourceVector requests, PlacementConstraints constraints,
                        Integer priority, String priorityClassName, Map<String, String> labels,
                        InterPodTerms interPod, SortedSet<String> notEvaluated) {

        static TaskTemplate of(Job job, TaskSpec task) {
            PodSpec pod = task.getTemplate() == null || task.getTemplate().getSpec() == null ? new PodSpec()
                    : task.getTemplate().getSpec();
            Map<String, String> labels = new HashMap<>();
            if (task.getTemplate() != null && task.getTemplate().getMetadata() != null
                    && task.getTemplate().getMetadata().getLabels() != null) {
                labels.putAll(task.getTemplate().getMetadata().getLabels());
            }
            String jobName = job.getMetadata().getName();
            labels.put(MusterLabels.JOB_NAME, jobName);
            labels.put(MusterLabels.TASK_NAME, task.getName());
            PodGroupLabel.join(labels, JobDefaults.podGroupName(jobName));
            return new TaskTemplate(task.getName(), PodRequests.of(pod), KubeObjects.constraints(pod),
                    pod.getPriority(), pod.getPriorityClassName(), labels,
                    KubeObjects.interPodTerms(pod, job.getMetadata().getNamespace(), labels),
                    KubeObjects.notEvaluatedInTemplate(pod));
        }
    }
}
