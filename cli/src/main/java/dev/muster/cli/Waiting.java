package dev.muster.cli;

import dev.muster.api.batch.v1alpha1.Job;
import dev.muster.api.batch.v1alpha1.JobPhase;
import dev.muster.api.scheduling.v1alpha1.PodGroup;
import dev.muster.api.scheduling.v1alpha1.PodGroupCondition;
import dev.muster.api.scheduling.v1alpha1.QueueAccess;
import dev.muster.manager.endpoint.SchedulerQueue;
import dev.muster.scheduler.QueuedGang;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * Why a Job that does not run yet waits: in plain words, for {@code muster describe job}.
 *
 * @param suspended     whether {@code spec.suspend} holds it
 * @param queueHold     why its queue holds it ({@link QueueAccess}), in plain words; null when
 *                      its queue does not hold it
 * @param neverFits     per task and resource, why its pods can never be placed (see {@link NeverFits})
 * @param queuePosition its place in the scheduler's queue, 1 first; null when the manager's queue was not asked
 *                      or does not hold it
 * @param message       the scheduler's word on it: from the queue, else the PodGroup's {@code Unschedulable}
 *                      condition, else the Job's state message; null when there is none yet
 */
record Waiting(boolean suspended, String queueHold, List<String> neverFits, Integer queuePosition, String message) {
    /** Whether a Job in this state waits to run, so that describe says why. */
    static boolean applies(Job job) {
        JobPhase phase = job.getStatus() == null || job.getStatus().getState() == null ? null
                : job.getStatus().getState().getPhase();
        return phase == null || phase == JobPhase.Pending || Boolean.TRUE.equals(job.getSpec().getSuspend());
    }

    /** Puts together what the Job, its PodGroup (may be null) and the scheduler's queue (may be null) say. */
    static Waiting of(Job job, PodGroup group, List<String> neverFits, SchedulerQueue queue) {
        Optional<QueuedGang> queued = queue == null ? Optional.empty() : queue.gangs().stream()
                .filter(g -> g.podGroup() && group != null
                        && g.namespace().equals(group.getMetadata().getNamespace())
                        && g.name().equals(group.getMetadata().getName()))
                .findFirst();
        String message = queued.map(QueuedGang::message)
                .or(() -> unschedulable(group))
                .orElse(job.getStatus() == null || job.getStatus().getState() == null ? null
                        : job.getStatus().getState().getMessage());
        return new Waiting(Boolean.TRUE.equals(job.getSpec().getSuspend()), queueHold(job), neverFits,
                queued.map(QueuedGang::position).orElse(null), message);
    }

    /**
     * The Job controller's hold for the queue, said plainly; while it holds, the scheduler's word on the gang
     * (if it has one) is not why the job waits.
     */
    private static String queueHold(Job job) {
        String reason = job.getStatus() == null || job.getStatus().getState() == null ? null
                : job.getStatus().getState().getReason();
        String queue = JobsCommand.queue(job);
        if (QueueAccess.NOT_FOUND.equals(reason)) {
            return "queue " + queue + " does not exist: the job starts once it is created (muster queues lists the queues)";
        }
        if (QueueAccess.CLOSED.equals(reason)) {
            return "queue " + queue + " is Closed: the job starts once its spec.state is Open (muster describe queue "
                    + queue + ")";
        }
        if (QueueAccess.isRefusal(reason)) {
            // Not a leaf, or not for this namespace: the controller's message names the queue's children or the
            // namespace, which this command has not read.
            return job.getStatus().getState().getMessage() + " (muster describe queue " + queue + ")";
        }
        return null;
    }

    private static Optional<String> unschedulable(PodGroup group) {
        if (group == null || group.getStatus() == null) {
            return Optional.empty();
        }
        return group.getStatus().getConditions().stream()
                .filter(c -> PodGroupCondition.UNSCHEDULABLE.equals(c.getType()) && "True".equals(c.getStatus()))
                .map(PodGroupCondition::getMessage).findFirst();
    }

    /** The lines describe prints, e.g. {@code 2nd in the scheduler's queue; 0/3 nodes are available: ...}. */
    List<String> lines(String jobName) {
        List<String> lines = new ArrayList<>();
        if (suspended) {
            lines.add("suspended: spec.suspend is true; muster resume job " + jobName + " lets it run");
        }
        if (queueHold != null) {
            lines.add(queueHold);
        }
        if (!neverFits.isEmpty()) {
            lines.add("can never run: " + String.join("; ", neverFits));
        }
        if (queueHold != null) {
            return lines;
        }
        String position = queuePosition == null ? null : ordinal(queuePosition) + " in the scheduler's queue";
        if (position != null || message != null) {
            lines.add(position == null ? message : message == null ? position : position + "; " + message);
        }
        if (lines.isEmpty()) {
            lines.add("no reason known yet: the scheduler has not tried it");
        }
        return lines;
    }

    /** 1st, 2nd, 3rd, 4th, ..., 11th, 12th, 13th, ..., 21st. */
    static String ordinal(int n) {
        int lastTwo = n % 100;
        String suffix = lastTwo >= 11 && lastTwo <= 13 ? "th" : switch (n % 10) {
            case 1 -> "st";
            case 2 -> "nd";
            case 3 -> "rd";
            default -> "th";
        };
        return n + suffix;
    }
}
