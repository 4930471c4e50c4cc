package dev.muster.job.decision;

import dev.muster.job.lifecycle.Verdict;
import dev.muster.api.PodPreemption;
import dev.muster.api.MusterLabels;
import dev.muster.api.batch.v1alpha1.Job;
import dev.muster.api.batch.v1alpha1.JobDefaults;
import dev.muster.api.batch.v1alpha1.JobPhase;
import dev.muster.api.batch.v1alpha1.JobState;
import dev.muster.api.scheduling.v1alpha1.Queue;
import dev.muster.api.scheduling.v1alpha1.QueueAccess;
import dev.muster.api.scheduling.v1alpha1.QueueDefaults;
import dev.muster.api.scheduling.v1alpha1.QueueSpec;

import java.util.Map;
import java.util.Optional;

/**
 * Whether a job's queue lets it start: {@link QueueAccess}, the rule the scheduler applies to the job's gang
 * too, for a job of the in-process scheduler (the one that reads queues) that has not started. A running job
 * goes on whatever its queue does. A job Pending because its gang was preempted has started: the scheduler,
 * which admits no gang its queue refuses, holds it, and it keeps its reason {@code Preempted}.
 */
public final class QueueGate {
    private QueueGate() {
    }

    /** The queue the job is in: {@code spec.queue}, or {@link Queue#DEFAULT} when it names none. */
    public static String queueOf(Job job) {
        return QueueDefaults.queueOf(job.getSpec() == null ? null : job.getSpec().getQueue());
    }

    /**
     * Why the job, as the cache holds it, may not start yet because of its queue, if so.
     *
     * @param queues          every queue's spec by name
     * @param namespaceLabels the labels of the job's namespace
     */
    public static Optional<Verdict> hold(Job job, Map<String, QueueSpec> queues, Map<String, String> namespaceLabels) {
        JobState state = job.getStatus() == null ? null : job.getStatus().getState();
        JobPhase phase = state == null || state.getPhase() == null ? JobPhase.Pending : state.getPhase();
        String reason = state == null ? null : state.getReason();
        if (phase != JobPhase.Pending || PodPreemption.PREEMPTED.equals(reason) || job.getSpec() == null
                || !MusterLabels.SCHEDULER_NAME.equals(JobDefaults.schedulerName(job.getSpec()))) {
            return Optional.empty();
        }
        return QueueAccess.refusal(job.getSpec().getQueue(), queues, job.getMetadata().getNamespace(), namespaceLabels)
                .map(refusal -> new Verdict(refusal.reason(), refusal.message()));
    }

    /** Whether a state's reason is a queue's hold, which ends when {@link QueueAccess} takes the job. */
    public static boolean isHold(String reason) {
        return QueueAccess.isRefusal(reason);
    }
}
