package dev.muster.job.decision;

import dev.muster.api.PodPreemption;
import dev.muster.support.autoscaling.PodsForAutoscaler;
import dev.muster.api.batch.v1alpha1.JobOwnership;
import dev.muster.api.batch.v1alpha1.Job;
import dev.muster.api.batch.v1alpha1.JobDefaults;
import dev.muster.gang.JobAdmissionRule;
import dev.muster.api.scheduling.v1alpha1.PodGroup;
import dev.muster.api.scheduling.v1alpha1.PodGroupCondition;
import dev.muster.api.scheduling.v1alpha1.PodGroupPhase;
import dev.muster.api.scheduling.v1alpha1.PodGroupStatus;

import java.util.Objects;
import java.util.Optional;

/**
 * Whether a job's pods may be created yet. Whether they wait at all is {@link JobAdmissionRule}'s decision,
 * which the gang scheduler shares; a job that waits is admitted once its PodGroup leaves Pending: Inqueue is
 * the admission; Running, Unknown, Completed and Failed mean the gang was placed before. A job whose whole gang
 * was preempted (Pending, reason {@code Preempted}) is admitted by Inqueue only: its PodGroup's other phases
 * tell of the gang that was evicted, and its pods come back once the scheduler admits the gang again. A PodGroup
 * controlled by an earlier Job of the same name (still being garbage-collected) admits nothing for this one. A
 * PodGroup the scheduler marked for the cluster autoscaler ({@link PodsForAutoscaler}) lets the pods be created
 * before admission, for the autoscaler to see them pending.
 *
 * <p>A pure function of the job, its PodGroup and the rule. Thread-safe.
 */
public final class AdmissionGate {
    private final JobAdmissionRule rule;

    /** @param rule which jobs wait for admission */
    public AdmissionGate(JobAdmissionRule rule) {
        this.rule = rule;
    }

    /** Where {@code job} stands, given its PodGroup as the cache holds it. */
    public Admission check(Job job, Optional<PodGroup> group) {
        if (!rule.waitsForAdmission(job)) {
            return Admission.NOT_GATED;
        }
        String name = JobDefaults.podGroupName(job.getMetadata().getName());
        Optional<PodGroupStatus> status = group
                .filter(g -> JobOwnership.controllingJob(g).isEmpty() || JobOwnership.isControlledBy(g, job))
                .map(PodGroup::getStatus);
        PodGroupPhase phase = status.map(PodGroupStatus::getPhase).orElse(null);
        boolean preempted = job.getStatus() != null && job.getStatus().getState() != null
                && PodPreemption.PREEMPTED.equals(job.getStatus().getState().getReason());
        if (phase != null && (preempted ? phase == PodGroupPhase.Inqueue : phase != PodGroupPhase.Pending)) {
            return Admission.admitted(rule.admittingScheduler(), name);
        }
        Optional<PodGroup> own = group.filter(g -> JobOwnership.isControlledBy(g, job));
        if (own.filter(PodsForAutoscaler::marked).isPresent()) {
            return Admission.forAutoscaler(rule.admittingScheduler(), name,
                    status.flatMap(AdmissionGate::unschedulable).orElse(null));
        }
        return Admission.waiting(rule.admittingScheduler(), name,
                status.flatMap(AdmissionGate::unschedulable).orElse(null));
    }

    /** The scheduler's latest word on why the gang does not fit, e.g. {@code 0/3 nodes are available: ...}. */
    private static Optional<String> unschedulable(PodGroupStatus status) {
        return Optional.ofNullable(status.getConditions()).stream()
                .flatMap(conditions -> conditions.stream().filter(Objects::nonNull))
                .filter(c -> PodGroupCondition.UNSCHEDULABLE.equals(c.getType()) && "True".equals(c.getStatus()))
                .map(PodGroupCondition::getMessage)
                .filter(message -> message != null && !message.isBlank())
                .findFirst();
    }
}
