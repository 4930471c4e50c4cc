package dev.muster.job.lifecycle;

import dev.muster.api.batch.v1alpha1.JobPhase;

/**
 * A job's move from one phase to another, with what it does and the reason and message it is reported with.
 *
 * @param from    the phase left; for a job's first status, the phase it starts in
 * @param to      the phase entered
 * @param action  the action that led here
 * @param effect  what the move does besides changing the phase
 * @param verdict why
 */
public record PhaseTransition(JobPhase from, JobPhase to, JobAction action, Effect effect, Verdict verdict) {

    /** {@code Running -> Restarting (RestartJob)}, or just {@code Pending} for a job's first status. */
    public String describe() {
        if (from == to && action == JobAction.SyncJob) {
            return to.name();
        }
        return from + " -> " + to + (action == JobAction.SyncJob ? "" : " (" + action + ")");
    }
}
