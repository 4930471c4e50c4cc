package dev.muster.api.batch.v1alpha1;

import java.util.ArrayList;
import java.util.List;

/** The names a {@link LifecyclePolicy} and {@code spec.plugins} may use, as Volcano's vcjob spells them. */
public final class JobPolicies {
    public static final String POD_FAILED = "PodFailed";
    public static final String POD_EVICTED = "PodEvicted";
    public static final String POD_PENDING = "PodPending";
    /** The job's PodGroup went to phase Unknown: some of its pods run, others cannot be placed. */
    public static final String UNKNOWN = "Unknown";
    public static final String TASK_COMPLETED = "TaskCompleted";
    public static final String TASK_FAILED = "TaskFailed";
    /** Any event except {@link #POD_PENDING}, which only makes sense with a timeout. */
    public static final String ANY_EVENT = "*";

    /** Events a policy may name, in documentation order. */
    public static final List<String> EVENTS =
            List.of(POD_FAILED, POD_EVICTED, POD_PENDING, UNKNOWN, TASK_COMPLETED, TASK_FAILED, ANY_EVENT);

    /**
     * Actions a policy may take, in documentation order. Not {@code ResumeJob}: policies act on a Pending or
     * Running job, which has nothing to resume (Volcano's ResumeJob is a command, not a policy outcome);
     * clearing {@code spec.suspend} resumes a suspended job.
     */
    public static final List<String> ACTIONS = List.of("AbortJob", "RestartJob", "RestartTask", "RestartPod",
            "RestartPartition", "TerminateJob", "CompleteJob");

    /** The one action that exists for jobs but not for policies; refused with its own message. */
    public static final String RESUME_JOB = "ResumeJob";

    /** Why {@link #RESUME_JOB} is refused as a policy action. */
    public static final String RESUME_JOB_MESSAGE = "ResumeJob cannot be a policy action: policies act on a Pending "
            + "or Running job, which has nothing to resume; set spec.suspend to false to resume a suspended job";

    /** Plugins {@code spec.plugins} may name. */
    public static final List<String> PLUGINS = List.of("ssh", "svc", "env", "pytorch", "mpi", "tensorflow", "ray");

    private JobPolicies() {
    }

    /** The events a policy names: {@code event} followed by {@code events}; empty when neither is set. */
    public static List<String> eventsOf(LifecyclePolicy policy) {
        List<String> events = new ArrayList<>();
        if (policy.getEvent() != null) {
            events.add(policy.getEvent());
        }
        if (policy.getEvents() != null) {
            events.addAll(policy.getEvents());
        }
        return events;
    }
}
