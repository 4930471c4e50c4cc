package dev.muster.job;

import dev.muster.api.batch.v1alpha1.JobOwnership;
import dev.muster.api.MusterLabels;
import dev.muster.api.PodGroupLabel;
import dev.muster.api.batch.v1alpha1.Job;
import dev.muster.api.batch.v1alpha1.JobDefaults;
import dev.muster.api.batch.v1alpha1.TaskPods;
import dev.muster.api.batch.v1alpha1.TaskSpec;
import dev.muster.job.plugin.JobPlugins;
import io.fabric8.kubernetes.api.model.ObjectMeta;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.PodSpec;
import io.fabric8.kubernetes.api.model.PodSpecBuilder;
import io.fabric8.kubernetes.api.model.PodTemplateSpec;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Predicate;

/**
 * The pods a job should have: for each task and each index in [0, replicas), pod
 * {@code <job>-<task>-<index>} (as {@link TaskPods} walks them) made from the task's template, with what the job's plugins add. A pure
 * function of the job.
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
        return missingPods(job, version, Set.of());
    }

    /** The desired pods whose names are not in {@code existing}; only those are built. */
    public static List<Pod> missingPods(Job job, int version, Set<String> existing) {
        return missingPods(job, version, existing, task -> true);
    }

    /**
     * The desired pods of the tasks in {@code openTasks} (those whose {@code dependsOn} is met) whose
     * names are not in {@code existing}.
     */
    public static List<Pod> missingPods(Job job, int version, Set<String> existing, Set<String> openTasks) {
        return missingPods(job, version, existing, (Predicate<String>) openTasks::contains);
    }

    private static List<Pod> missingPods(Job job, int version, Set<String> existing, Predicate<String> openTasks) {
        List<Pod> pods = new ArrayList<>();
        for (TaskPods.TaskPod planned : TaskPods.of(job, openTasks)) {
            if (!existing.contains(planned.name())) {
                pods.add(pod(job, planned.task(), planned.index(), version));
            }
        }
        return pods;
    }

    /** Pod {@code index} of {@code task}: the template plus the labels, annotation and owner of a job pod. */
    public static Pod pod(Job job, TaskSpec task, int index, int version) {
        String jobName = job.getMetadata().getName();
        PodTemplateSpec template = task.getTemplate();
        ObjectMeta templateMeta = template == null || template.getMetadata() == null ? new ObjectMeta() : template.getMetadata();

        Map<String, String> labels = new LinkedHashMap<>(templateMeta.getLabels() == null ? Map.of() : templateMeta.getLabels());
        labels.put(MusterLabels.JOB_NAME, jobName);
        labels.put(MusterLabels.TASK_NAME, task.getName());
        labels.put(MusterLabels.TASK_INDEX, Integer.toString(index));
        PodGroupLabel.join(labels, JobDefaults.podGroupName(jobName));

        Map<String, String> annotations = new LinkedHashMap<>(
                templateMeta.getAnnotations() == null ? Map.of() : templateMeta.getAnnotations());
        annotations.put(MusterLabels.JOB_VERSION, Integer.toString(version));

        PodSpec spec = template == null || template.getSpec() == null
                ? new PodSpec() : new PodSpecBuilder(template.getSpec()).build();
        spec.setSchedulerName(JobDefaults.schedulerName(job.getSpec()));

        Pod pod = new PodBuilder()
                .withNewMetadata()
                .withName(JobDefaults.podName(jobName, task.getName(), index))
                .withNamespace(job.getMetadata().getNamespace())
                .withLabels(labels)
                .withAnnotations(annotations)
                .withOwnerReferences(JobOwnership.ownerReference(job))
                .endMetadata()
                .withSpec(spec)
                .build();
        JobPlugins.BUILT_IN.onPodCreate(job, task, index, pod);
        return pod;
    }
}
