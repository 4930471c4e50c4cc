package dev.muster.job;

import dev.muster.api.batch.v1alpha1.JobPhase;
import dev.muster.api.batch.v1alpha1.JobStatus;

import java.util.Optional;

/**
 * What the job controller should make true for one job.
 *
 * @param status     the job's status as it should be written
 * @param transition the phase change this decision makes, if any
 */
public record JobDecision(JobStatus status, Optional<PhaseTransition> transition) {

    /** The phase the job is in after this decision. */
    public JobPhase phase() {
        return status.getState().getPhase();
    }

    /** Whether the job's PodGroup and every missing pod should exist. */
    public boolean runsPods() {
        return phase() == JobPhase.Pending || phase() == JobPhase.Running;
    }

    /** Whether pods that have not finished should be deleted; finished ones stay for their logs. */
    public boolean stopsActivePods() {
        return phase().isFinished();
    }
}
