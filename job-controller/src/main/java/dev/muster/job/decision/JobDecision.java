package dev.muster.job.decision;

import dev.muster.job.lifecycle.PhaseTransition;
import dev.muster.job.lifecycle.Verdict;
import dev.muster.api.PodPreemption;
import dev.muster.api.batch.v1alpha1.JobPhase;
import dev.muster.api.batch.v1alpha1.JobStatus;
import io.fabric8.kubernetes.api.model.Pod;

import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * What the job controller should make true for one job.
 *
 * @param status       the job's status as it should be written
 * @param transition   the phase change this decision makes, if any
 * @param podsToDelete pods to delete once the status is written
 * @param openTasks    tasks whose pods may exist now ({@code dependsOn} met); the gang counts only these
 * @param wakeAt       when to look at the job again even if nothing changes (a policy timeout, the TTL)
 * @param expired      whether {@code ttlSecondsAfterFinished} has run out, so the job itself is deleted
 * @param queueHold    why the job's queue keeps a job that has not started from starting ({@code QueueAccess}),
 *                     if it does: no pod is created
 */
public record JobDecision(JobStatus status, Optional<PhaseTransition> transition, List<Pod> podsToDelete,
                          Set<String> openTasks, Optional<Instant> wakeAt, boolean expired, Optional<Verdict> queueHold) {

    /** The phase the job is in after this decision. */
    public JobPhase phase() {
        return status.getState().getPhase();
    }

    /** Whether this decision moves the job back to Pending because its whole gang was preempted. */
    public boolean preempted() {
        return transition.filter(t -> t.to() == JobPhase.Pending && PodPreemption.PREEMPTED.equals(t.verdict().reason()))
                .isPresent();
    }

    /** Whether the job's PodGroup and every missing pod of the open tasks should exist. */
    public boolean runsPods() {
        return phase() == JobPhase.Pending || phase() == JobPhase.Running;
    }
}
