package dev.muster.rendering;

import dev.muster.api.MusterLabels;
import dev.muster.api.PodGroupLabel;
import dev.muster.api.batch.v1alpha1.Job;
import dev.muster.api.batch.v1alpha1.JobDefaults;
import dev.muster.api.batch.v1alpha1.JobOwnership;
import dev.muster.api.batch.v1alpha1.PartitionPolicySpec;
import dev.muster.api.batch.v1alpha1.TaskPods;
import dev.muster.api.batch.v1alpha1.TaskSpec;
import dev.muster.api.batch.v1alpha1.validation.FieldError;
import dev.muster.api.batch.v1alpha1.validation.JobValidator;
import dev.muster.rendering.plugin.PodPlugins;
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
import java.util.Optional;
import java.util.function.Predicate;

/**
 * The pods a Job makes: for each task and each index in [0, replicas), pod {@code <job>-<task>-<index>} (as
 * {@link TaskPods} walks them) made from the task's template, with the labels, annotation and owner of a job
 * pod, the job-level defaults for what the template leaves unset ({@code schedulerName},
 * {@code priorityClassName}), {@value #DEFAULT_RESTART_POLICY} where it sets no {@code restartPolicy}, and what the job's plugins ({@link PodPlugins}) add: env, volumes and mounts,
 * ports, hostname and subdomain.
 *
 * <p>This is the one rendering of a Job's pods: the Job controller creates its pods from it, and the gang
 * scheduler admits a waiting Job's gang from it before the pods exist, so the two cannot disagree about
 * what a pod requests, mounts or where it may run. Anything else that must predict a Job's pods (pod
 * templates for an autoscaler, resource claims) should render them here too.
 *
 * <p>A pure function of the job: it never mutates the job, and each call returns new pods the caller may
 * change. Only a job without {@link #errors} can be rendered; the Job controller refuses any other, and it
 * gets no pods.
 */
public final class JobPodRenderer {
    /** The {@code restartPolicy} of the pods of a template that sets none. */
    public static final String DEFAULT_RESTART_POLICY = "OnFailure";

    private JobPodRenderer() {
    }

    /**
     * What keeps the job from having pods: the job validator's errors, else (plugin arguments name tasks,
     * which only an otherwise valid job has for sure) its plugins' argument errors. Empty for a job that
     * can be rendered.
     */
    public static List<FieldError> errors(Job job) {
        List<FieldError> errors = new ArrayList<>(JobValidator.validate(job));
        if (errors.isEmpty() && job.readFailure().isEmpty() && job.getSpec() != null && job.getSpec().getTasks() != null) {
            errors.addAll(PodPlugins.BUILT_IN.validate(job));
        }
        return errors;
    }

    /**
     * Every pod the job makes, in task order then index order.
     *
     * @param version the job's {@code status.version}, which the pods carry as an annotation
     */
    public static List<Pod> pods(Job job, int version) {
        return pods(job, version, pod -> true, VolcanoPodLabels.DEFAULT);
    }

    /**
     * Every pod the job makes, in task order then index order.
     *
     * @param version       the job's {@code status.version}, which the pods carry as an annotation
     * @param volcanoLabels whether the pods carry Volcano's labels too ({@link VolcanoPodLabels})
     */
    public static List<Pod> pods(Job job, int version, boolean volcanoLabels) {
        return pods(job, version, pod -> true, volcanoLabels);
    }

    /**
     * The pods the job makes that {@code wanted} accepts, in task order then index order; only those are
     * rendered.
     *
     * @param version the job's {@code status.version}, which the pods carry as an annotation
     * @param wanted  which pods to render, by task and index (e.g. those not created yet, of open tasks)
     */
    public static List<Pod> pods(Job job, int version, Predicate<TaskPods.TaskPod> wanted) {
        return pods(job, version, wanted, VolcanoPodLabels.DEFAULT);
    }

    /**
     * The pods the job makes that {@code wanted} accepts, in task order then index order; only those are
     * rendered.
     *
     * @param version       the job's {@code status.version}, which the pods carry as an annotation
     * @param wanted        which pods to render, by task and index (e.g. those not created yet, of open tasks)
     * @param volcanoLabels whether the pods carry Volcano's labels too ({@link VolcanoPodLabels})
     */
    public static List<Pod> pods(Job job, int version, Predicate<TaskPods.TaskPod> wanted, boolean volcanoLabels) {
        List<Pod> pods = new ArrayList<>();
        for (TaskPods.TaskPod planned : TaskPods.of(job, task -> true)) {
            if (wanted.test(planned)) {
                pods.add(pod(job, planned.task(), planned.index(), version, volcanoLabels));
            }
        }
        return pods;
    }

    /**
     * The partition of pod {@code index} of a task with a {@code partitionPolicy}, as Volcano's job controller
     * numbers them: {@code index / partitionSize}, from 0; empty for a task without one.
     */
    static Optional<String> partitionOf(TaskSpec task, int index) {
        PartitionPolicySpec partitions = task.getPartitionPolicy();
        if (partitions == null || partitions.getPartitionSize() == null || partitions.getPartitionSize() < 1) {
            return Optional.empty();
        }
        return Optional.of(Integer.toString(index / partitions.getPartitionSize()));
    }

    /**
     * The scheduler of the task's pods, as in Volcano's {@code createJobPod}: the template's own
     * {@code schedulerName} if it names one, else the job's ({@link JobDefaults#schedulerName}, Muster's when
     * the job names none either).
     */
    public static String schedulerName(Job job, TaskSpec task) {
        String own = task.getTemplate() == null || task.getTemplate().getSpec() == null ? null
                : task.getTemplate().getSpec().getSchedulerName();
        return isBlank(own) ? JobDefaults.schedulerName(job.getSpec()) : own;
    }

    /**
     * The PriorityClass of the task's pods, as in Volcano's {@code createJobPod}: the template's own
     * {@code priorityClassName} if it names one, else the job's; {@code null} when neither does.
     */
    public static String priorityClassName(Job job, TaskSpec task) {
        String own = task.getTemplate() == null || task.getTemplate().getSpec() == null ? null
                : task.getTemplate().getSpec().getPriorityClassName();
        String jobs = job.getSpec() == null ? null : job.getSpec().getPriorityClassName();
        return !isBlank(own) ? own : isBlank(jobs) ? null : jobs;
    }

    /**
     * Pod {@code index} of {@code task}: the template with the job pod's labels ({@link MusterLabels#JOB_NAME},
     * {@link MusterLabels#TASK_NAME}, {@link MusterLabels#TASK_INDEX}, {@link MusterLabels#PARTITION_ID} in a task
     * with a {@code partitionPolicy}, the pod group's), the
     * {@link MusterLabels#JOB_VERSION} annotation, the Job as controlling owner, its {@link #schedulerName},
     * the job's {@code priorityClassName} unless the template names a class, and the edits of the job's
     * plugins; with Volcano's labels ({@link VolcanoPodLabels}), the production default.
     *
     * @param version the job's {@code status.version}, which the pod carries as an annotation
     */
    public static Pod pod(Job job, TaskSpec task, int index, int version) {
        return pod(job, task, index, version, VolcanoPodLabels.DEFAULT);
    }

    /**
     * Pod {@code index} of {@code task}, as {@link #pod(Job, TaskSpec, int, int)}, with Volcano's labels and
     * annotations ({@link VolcanoPodLabels}) beside Muster's if {@code volcanoLabels}.
     *
     * @param version       the job's {@code status.version}, which the pod carries as an annotation
     * @param volcanoLabels whether the pod carries Volcano's labels too
     */
    public static Pod pod(Job job, TaskSpec task, int index, int version, boolean volcanoLabels) {
        String jobName = job.getMetadata().getName();
        PodTemplateSpec template = task.getTemplate();
        ObjectMeta templateMeta = template == null || template.getMetadata() == null ? new ObjectMeta() : template.getMetadata();

        Map<String, String> labels = new LinkedHashMap<>(templateMeta.getLabels() == null ? Map.of() : templateMeta.getLabels());
        labels.put(MusterLabels.JOB_NAME, jobName);
        labels.put(MusterLabels.TASK_NAME, task.getName());
        labels.put(MusterLabels.TASK_INDEX, Integer.toString(index));
        partitionOf(task, index).ifPresent(partition -> labels.put(MusterLabels.PARTITION_ID, partition));
        PodGroupLabel.join(labels, JobDefaults.podGroupName(jobName));

        Map<String, String> annotations = new LinkedHashMap<>(
                templateMeta.getAnnotations() == null ? Map.of() : templateMeta.getAnnotations());
        annotations.put(MusterLabels.JOB_VERSION, Integer.toString(version));
        if (volcanoLabels) {
            VolcanoPodLabels.add(job, task, index, labels, annotations);
        }

        PodSpec spec = template == null || template.getSpec() == null
                ? new PodSpec() : new PodSpecBuilder(template.getSpec()).build();
        spec.setSchedulerName(schedulerName(job, task));
        spec.setPriorityClassName(priorityClassName(job, task));
        // Not Kubernetes' default, Always: under it a container that exits 0 is started again, so the pod never
        // succeeds and its task never completes (Volcano's pods keep that default; its users meet it as pods that
        // crash-loop after finishing, volcano-sh/volcano#1075). Kubeflow's training operator defaults to OnFailure
        // too; a template that says Always keeps it.
        if (isBlank(spec.getRestartPolicy())) {
            spec.setRestartPolicy(DEFAULT_RESTART_POLICY);
        }

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
        PodPlugins.BUILT_IN.onPodCreate(job, task, index, pod);
        return pod;
    }

    private static boolean isBlank(String value) {
        return value == null || value.isBlank();
    }
}
