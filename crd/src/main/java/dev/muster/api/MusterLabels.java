package dev.muster.api;

/** Label, annotation and name constants shared by the controllers, the scheduler and the local cluster. */
public final class MusterLabels {
    /** Name of the in-process gang scheduler; pods with this {@code schedulerName} are ours to bind. */
    public static final String SCHEDULER_NAME = "muster";

    /** Pods join a PodGroup of the same namespace by carrying this label with the group's name. */
    public static final String POD_GROUP = "scheduling.muster.dev/pod-group";

    public static final String JOB_NAME = "batch.muster.dev/job-name";
    public static final String TASK_NAME = "batch.muster.dev/task-name";
    public static final String TASK_INDEX = "batch.muster.dev/task-index";
    /**
     * A pod's partition in its task, {@code index / partitionSize}, on the pods of a task with a
     * {@code partitionPolicy}: the sub-group of the PodGroup's {@code subGroupPolicy} it is placed with.
     */
    public static final String PARTITION_ID = "batch.muster.dev/partition-id";
    public static final String JOB_VERSION = "batch.muster.dev/job-version";

    /** Simulated kubelet: seconds a pod runs before it terminates (local cluster only). */
    public static final String LOCAL_RUN_SECONDS = "local.muster.dev/run-seconds";
    /** Simulated kubelet: exit code of every container when the pod terminates (local cluster only). */
    public static final String LOCAL_EXIT_CODE = "local.muster.dev/exit-code";
    /** Simulated kubelet: seconds each init container that is not a sidecar runs (local cluster only). */
    public static final String LOCAL_INIT_SECONDS = "local.muster.dev/init-seconds";
    /** Simulated kubelet: exit code of each init container that is not a sidecar (local cluster only). */
    public static final String LOCAL_INIT_EXIT_CODE = "local.muster.dev/init-exit-code";
    /** Marks Node objects that the local cluster's simulated kubelet runs. */
    public static final String LOCAL_SIMULATED_NODE = "local.muster.dev/simulated";

    private MusterLabels() {
    }
}
