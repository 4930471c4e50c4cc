package dev.muster.job;

import dev.muster.api.batch.v1alpha1.JobOwnership;
import dev.muster.api.MusterLabels;
import dev.muster.api.batch.v1alpha1.Job;
import dev.muster.api.batch.v1alpha1.PartitionPolicySpec;
import dev.muster.api.batch.v1alpha1.JobFixtures;
import dev.muster.api.batch.v1alpha1.TaskSpec;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.PodTemplateSpecBuilder;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/** Jobs and pods for unit tests of the pure core (in {@code decision}) and for the tests of the controller. */
public final class TestJobs {
    /** The namespace every job and pod here is in. */
    public static final String NAMESPACE = "default";

    private TestJobs() {
    }

    /** A job of the given tasks, with a uid, as the informer cache would hold it. */
    public static Job job(String name, TaskSpec... tasks) {
        return JobFixtures.job(NAMESPACE, name, tasks);
    }

    /** A task running {@code busybox}; {@code minAvailable} null leaves the default. */
    public static TaskSpec task(String name, int replicas, Integer minAvailable) {
        TaskSpec task = new TaskSpec();
        task.setName(name);
        task.setReplicas(replicas);
        task.setMinAvailable(minAvailable);
        task.setTemplate(new PodTemplateSpecBuilder()
                .withNewMetadata().withLabels(Map.of("app", name)).withAnnotations(Map.of("note", "kept")).endMetadata()
                .withNewSpec().addNewContainer().withName("main").withImage("busybox").endContainer()
                .withRestartPolicy("Never").endSpec()
                .build());
        return task;
    }

    /** The job's pod {@code <job>-<task>-<index>} in the given phase (null: no status yet). */
    public static Pod pod(Job job, String task, int index, String phase) {
        String name = job.getMetadata().getName() + "-" + task + "-" + index;
        PodBuilder pod = new PodBuilder().withNewMetadata().withName(name).withNamespace(NAMESPACE).withUid("uid-" + name)
                .withLabels(Map.of(MusterLabels.JOB_NAME, job.getMetadata().getName(), MusterLabels.TASK_NAME, task,
                        MusterLabels.TASK_INDEX, Integer.toString(index)))
                .withAnnotations(Map.of(MusterLabels.JOB_VERSION, "0"))
                .withOwnerReferences(JobOwnership.ownerReference(job))
                .endMetadata();
        if (phase != null) {
            pod.withNewStatus().withPhase(phase).endStatus();
        }
        return pod.build();
    }

    /** {@code count} pods of a task, indexes from {@code from}, all in one phase. */
    public static List<Pod> pods(Job job, String task, int from, int count, String phase) {
        List<Pod> pods = new ArrayList<>();
        for (int i = from; i < from + count; i++) {
            pods.add(pod(job, task, i, phase));
        }
        return pods;
    }

    /** Every pod of a 1 master + 3 workers job in one phase. */
    public static List<Pod> all(Job job, String phase) {
        List<Pod> pods = new ArrayList<>(pods(job, "master", 0, 1, phase));
        pods.addAll(pods(job, "worker", 0, 3, phase));
        return pods;
    }

    /** Volcano's partitions of a task: {@code total} of {@code size} pods each, no minimum, no topology. */
    public static PartitionPolicySpec partitions(int total, int size) {
        PartitionPolicySpec partitions = new PartitionPolicySpec();
        partitions.setTotalPartitions(total);
        partitions.setPartitionSize(size);
        return partitions;
    }

    /** 1 master and 3 workers, minAvailable defaulting to 4. */
    public static Job quickstart() {
        return job("qs", task("master", 1, null), task("worker", 3, null));
    }
}
