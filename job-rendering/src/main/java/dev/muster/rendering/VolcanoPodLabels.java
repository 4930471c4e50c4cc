package dev.muster.rendering;

import dev.muster.api.batch.v1alpha1.Job;
import dev.muster.api.batch.v1alpha1.TaskSpec;
import dev.muster.api.scheduling.v1alpha1.QueueDefaults;

import java.util.Map;

/**
 * The labels and annotations Volcano's job controller puts on a job's pods (its {@code createJobPod}), which
 * scripts, Services, NetworkPolicies and affinities written for Volcano select on. Muster's own labels
 * ({@link dev.muster.api.MusterLabels}) carry the same facts; these are added beside them while the setting
 * {@code muster.controllers.volcano-pod-labels} is on (the default), so such selectors keep working unchanged.
 */
public final class VolcanoPodLabels {
    /** The job's name (label and annotation). */
    public static final String JOB_NAME = "volcano.sh/job-name";
    /** The task's name (label and annotation). */
    public static final String TASK_SPEC = "volcano.sh/task-spec";
    /** The pod's index in its task (label and annotation). */
    public static final String TASK_INDEX = "volcano.sh/task-index";
    /** The pod's partition in its task, on the pods of a task with a {@code partitionPolicy} (label only). */
    public static final String PARTITION_ID = "volcano.sh/partition-id";
    /** The job's namespace (label only, as in Volcano). */
    public static final String JOB_NAMESPACE = "volcano.sh/job-namespace";
    /** The job's queue, {@code default} when it names none (label and annotation). */
    public static final String QUEUE_NAME = "volcano.sh/queue-name";
    /** The production default of the setting: on, so that a ported job's selectors keep matching. */
    public static final boolean DEFAULT = true;

    private VolcanoPodLabels() {
    }

    /**
     * Adds Volcano's labels and annotations for pod {@code index} of {@code task}; like Volcano, over a value the
     * template gives for the same key, since these keys describe the pod's place in the job.
     */
    static void add(Job job, TaskSpec task, int index, Map<String, String> labels, Map<String, String> annotations) {
        String jobName = job.getMetadata().getName();
        String queue = QueueDefaults.queueOf(job.getSpec().getQueue());
        String taskIndex = Integer.toString(index);
        labels.put(TASK_INDEX, taskIndex);
        labels.put(JOB_NAME, jobName);
        labels.put(TASK_SPEC, task.getName());
        labels.put(JOB_NAMESPACE, job.getMetadata().getNamespace());
        labels.put(QUEUE_NAME, queue);
        JobPodRenderer.partitionOf(task, index).ifPresent(partition -> labels.put(PARTITION_ID, partition));
        annotations.put(TASK_INDEX, taskIndex);
        annotations.put(TASK_SPEC, task.getName());
        annotations.put(JOB_NAME, jobName);
        annotations.put(QUEUE_NAME, queue);
    }
}
