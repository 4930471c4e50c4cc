package dev.muster.job;

import dev.muster.api.MusterLabels;
import dev.muster.api.batch.v1alpha1.Job;
import dev.muster.api.batch.v1alpha1.JobDefaults;
import dev.muster.api.batch.v1alpha1.JobPhase;
import dev.muster.api.batch.v1alpha1.JobState;
import dev.muster.api.scheduling.v1alpha1.Queue;
import dev.muster.api.scheduling.v1alpha1.QueueDefaults;

import java.util.Optional;

/**
 * Whether a job's queue lets it start: a pure function of the job, where it stands and its queue as the cache
 * holds it. Only a job of the in-process scheduler (the one that reads queues) that has not started is held:
 * one naming a queue that does not exist waits with {@code QueueNotFound}, one whose queue is Closed waits with
 * {@code QueueClosed}; a running job goes on whatever its queue does. A job naming no queue is in
 * {@link Queue#DEFAULT}, which the manager creates at start; it is held only if that queue is Closed. A job
 * Pending because its gang was preempted has started: the scheduler, which admits no gang of a Closed queue,
 * holds it, and it keeps its reason {@code Preempted}.
 */
final class QueueGate {
    private QueueGate() {
    }

    /** The queue the job is in: {@code spec.queue}, or {@link Queue#DEFAULT} when it names none. */
    static String queueOf(Job job) {
        return QueueDefaults.queueOf(job.getSpec() == null ? null : job.getSpec().getQueue());
    }

    /**
     * Why the job, as the cache holds it, may not start yet because of its queue, if so.
     *
     * @param queue the queue {@link #queueOf} names, if it exists
     */
    static Optional<Verdict> hold(Job job, Optional<Queue> queue) {
        JobState state = job.getStatus() == null ? null : job.getStatus().getState();
        JobPhase phase = state == null || state.getPhase() == null ? JobPhase.Pending : state.getPhase();
        String reason = state == null ? null : state.getReason();
        if (phase != JobPhase.Pending || JobFacts.PREEMPTED.equals(reason) || job.getSpec() == null
                || !MusterLabels.SCHEDULER_NAME.equals(JobDefaults.schedulerName(job.getSpec()))) {
            return Optional.empty();
        }
        String name = queueOf(job);
        if (queue.isEmpty()) {
            return Queue.DEFAULT.equals(name) ? Optional.empty() : Optional.of(new Verdict(JobFacts.QUEUE_NOT_FOUND,
                    "queue " + name + " does not exist; the job starts once it is created"));
        }
        if (!QueueDefaults.open(queue.get().getSpec())) {
            return Optional.of(new Verdict(JobFacts.QUEUE_CLOSED, "queue " + name
                    + " is Closed: its running jobs go on, new ones wait until it is Open"));
        }
        return Optional.empty();
    }

    /** Whether a state's reason is a queue's hold, which ends when the queue exists and is Open. */
    static boolean isHold(String reason) {
        return JobFacts.QUEUE_NOT_FOUND.equals(reason) || JobFacts.QUEUE_CLOSED.equals(reason);
    }
}
