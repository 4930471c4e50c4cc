package dev.muster.gang;

import dev.muster.api.MusterLabels;
import dev.muster.api.batch.v1alpha1.Job;
import dev.muster.api.batch.v1alpha1.JobDefaults;
import dev.muster.api.batch.v1alpha1.JobPhase;

/**
 * Whether a Job's pods wait for its gang's admission: the one decision the Job controller (which then holds
 * the pods back) and the gang scheduler (which then admits the gang from the job's task templates and holds
 * room for it) both take from here, so that they cannot disagree. As with Volcano's enqueue and Kueue's
 * admission, thousands of queued jobs then put no pending pods on the API server.
 *
 * <p>A job waits when the rule is on, its effective {@code schedulerName} is the in-process scheduler's
 * ({@value MusterLabels#SCHEDULER_NAME}: no other scheduler would admit it), it is not suspended nor being
 * deleted, and it is Pending (or has no phase yet). A Running job never waits: its replacement pods are
 * placed by the ordinary gang trial; a job in any other phase creates no pods anyway.
 *
 * @param enabled whether jobs wait at all ({@code muster.controllers.jobs-wait-for-admission}); off, every
 *                job's pods are created at once and the scheduler admits nothing ahead of them
 */
public record JobAdmissionRule(boolean enabled) {
    /** Jobs of the in-process scheduler wait for admission: the production default. */
    public static final JobAdmissionRule ON = new JobAdmissionRule(true);
    /** No job waits: pods are created at once, as for a scheduler without admission. */
    public static final JobAdmissionRule OFF = new JobAdmissionRule(false);

    /** The scheduler that admits gangs; only its jobs can wait. */
    public String admittingScheduler() {
        return MusterLabels.SCHEDULER_NAME;
    }

    /** Whether the job's pods wait for its PodGroup to be admitted. */
    public boolean waitsForAdmission(Job job) {
        if (!enabled || job.getSpec() == null
                || !admittingScheduler().equals(JobDefaults.schedulerName(job.getSpec()))
                || Boolean.TRUE.equals(job.getSpec().getSuspend())
                || job.getMetadata().getDeletionTimestamp() != null) {
            return false;
        }
        JobPhase phase = job.getStatus() == null || job.getStatus().getState() == null ? null
                : job.getStatus().getState().getPhase();
        return phase == null || phase == JobPhase.Pending;
    }
}
