package dev.muster.job;

import dev.muster.api.batch.v1alpha1.Job;
import dev.muster.api.batch.v1alpha1.JobDefaults;
import dev.muster.api.batch.v1alpha1.JobPhase;
import dev.muster.api.scheduling.v1alpha1.PodGroup;
import dev.muster.api.scheduling.v1alpha1.PodGroupCondition;
import dev.muster.api.scheduling.v1alpha1.PodGroupPhase;
import dev.muster.api.scheduling.v1alpha1.PodGroupStatus;

import java.util.Objects;
import java.util.Optional;

/**
 * Whether a job's pods may be created yet. As with Volcano's enqueue and Kueue's admission, a scheduler
 * that admits gangs checks that a PodGroup's quorum fits (from the Job's task templates, so no pod needs
 * to exist), holds the room, and the PodGroup controller moves the group from Pending to Inqueue. A job
 * of that scheduler gets its PodGroup at once and its pods only then: thousands of queued jobs then do
 * not put thousands of pending pods on the API server, and the pods that exist are those of jobs that run.
 *
 * <p>Any PodGroup phase but Pending lets pods be created: Inqueue is the admission; Running, Unknown,
 * Completed and Failed mean the gang was placed before. A Running job is never held back, whatever its
 * PodGroup says: the scheduler admits only Pending jobs, so a Running job waiting for an admission would
 * wait for ever, and its replacement pods are placed by the ordinary gang trial anyway. A
 * PodGroup controlled by an earlier Job of the same name (still being garbage-collected) admits nothing
 * for this one. Jobs of other schedulers are never gated: nothing would admit them.
 *
 * <p>A pure function of the job, its PodGroup and the configured scheduler. Thread-safe.
 */
public final class AdmissionGate {
    private final String admittingScheduler;

    /**
     * @param admittingScheduler the in-process scheduler that admits gangs, e.g. {@code muster}; jobs whose
     *                           effective {@code schedulerName} is this one are gated. Null gates no job.
     */
    public AdmissionGate(String admittingScheduler) {
        this.admittingScheduler = admittingScheduler;
    }

    /** Where {@code job} stands, given its PodGroup as the cache holds it. */
    public Admission check(Job job, Optional<PodGroup> group) {
        if (admittingScheduler == null || job.getSpec() == null
                || !admittingScheduler.equals(JobDefaults.schedulerName(job.getSpec()))) {
            return Admission.NOT_GATED;
        }
        if (job.getStatus() != null && job.getStatus().getState() != null
                && job.getStatus().getState().getPhase() == JobPhase.Running) {
            return Admission.NOT_GATED;
        }
        String name = JobDefaults.podGroupName(job.getMetadata().getName());
        Optional<PodGroupStatus> status = group
                .filter(g -> JobOwnership.controllingJob(g).isEmpty() || JobOwnership.isControlledBy(g, job))
                .map(PodGroup::getStatus);
        PodGroupPhase phase = status.map(PodGroupStatus::getPhase).orElse(null);
        if (phase != null && phase != PodGroupPhase.Pending) {
            return Admission.admitted(admittingScheduler, name);
        }
        return Admission.waiting(admittingScheduler, name, status.flatMap(AdmissionGate::unschedulable).orElse(null));
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
