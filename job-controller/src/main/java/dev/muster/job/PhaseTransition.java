package dev.muster.job;

import dev.muster.api.batch.v1alpha1.JobPhase;

/**
 * A job's move from one phase to another, with the reason and message it is reported with.
 *
 * @param from    the phase left; for a job's first status, the phase it starts in
 * @param to      the phase entered
 * @param verdict why
 */
public record PhaseTransition(JobPhase from, JobPhase to, Verdict verdict) {

    /** {@code Pending -> Running}, or just {@code Pending} for a job's first status. */
    public String describe() {
        return from == to ? to.name() : from + " -> " + to;
    }
}
