package dev.muster.job.decision;

/**
 * How a job stands with the scheduler that admits gangs, as {@link AdmissionGate} found it: whether its
 * pods may be created now and what to tell the user about it.
 *
 * @param stage         whether the job is gated and, if it is, whether it has been admitted
 * @param scheduler     the admitting scheduler; null when not gated
 * @param podGroup      the name of the job's PodGroup; null when not gated
 * @param unschedulable while waiting (or waiting with pods for the autoscaler), the message of the PodGroup's {@code Unschedulable} condition with
 *                      status {@code True}, if it has one; otherwise null
 */
public record Admission(Stage stage, String scheduler, String podGroup, String unschedulable) {

    /** Where a job is on its way to admission. */
    public enum Stage {
        /** The job's scheduler does not admit gangs, or no admitting scheduler is configured: pods at once. */
        NOT_GATED,
        /** The PodGroup is missing, has no phase yet or is Pending: no pods are created. */
        WAITING,
        /** The PodGroup's phase is set and not Pending: pods are created. */
        ADMITTED,
        /**
         * Not admitted, but the scheduler marked the PodGroup for the cluster autoscaler (pending-pods mode): pods are
         * created and wait unbound, for the autoscaler to see.
         */
        FOR_AUTOSCALER
    }

    /** A job that is not gated. */
    public static final Admission NOT_GATED = new Admission(Stage.NOT_GATED, null, null, null);

    static Admission waiting(String scheduler, String podGroup, String unschedulable) {
        return new Admission(Stage.WAITING, scheduler, podGroup, unschedulable);
    }

    static Admission forAutoscaler(String scheduler, String podGroup, String unschedulable) {
        return new Admission(Stage.FOR_AUTOSCALER, scheduler, podGroup, unschedulable);
    }

    static Admission admitted(String scheduler, String podGroup) {
        return new Admission(Stage.ADMITTED, scheduler, podGroup, null);
    }

    /** Whether the job's pods may be created now. */
    public boolean allowsPods() {
        return stage != Stage.WAITING;
    }

    /** Whether the job's pods wait for the scheduler's admission of its PodGroup. */
    public boolean gated() {
        return stage != Stage.NOT_GATED;
    }

    /**
     * The admission in words, for {@code status.state.message} and the log, e.g.
     * {@code waiting for scheduler muster to admit PodGroup train: 0/3 nodes are available: 3 Insufficient nvidia.com/gpu.}
     * or {@code PodGroup train admitted by scheduler muster}; empty when not gated.
     */
    public String describe() {
        return switch (stage) {
            case NOT_GATED -> "";
            case WAITING -> "waiting for scheduler " + scheduler + " to admit PodGroup " + podGroup
                    + (unschedulable == null ? "" : ": " + unschedulable);
            case ADMITTED -> "PodGroup " + podGroup + " admitted by scheduler " + scheduler;
            case FOR_AUTOSCALER -> "pods created pending for the cluster autoscaler, waiting for scheduler " + scheduler
                    + " to place PodGroup " + podGroup + " all at once" + (unschedulable == null ? "" : ": " + unschedulable);
        };
    }
}
