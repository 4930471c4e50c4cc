package dev.muster.manager.endpoint;

import dev.muster.api.batch.v1alpha1.Job;
import dev.muster.api.batch.v1alpha1.JobDefaults;
import dev.muster.api.batch.v1alpha1.JobState;
import dev.muster.api.batch.v1alpha1.JobStatus;

/**
 * One Job as the {@code jobs} endpoint shows it: where it is, why, and its pods by phase.
 *
 * @param namespace    the Job's namespace
 * @param name         the Job's name
 * @param phase        {@code status.state.phase}; null until the Job controller first writes status
 * @param reason       why it is in that phase, one CamelCase word
 * @param message      the same for people, e.g. what it waits for
 * @param minAvailable the job-level minimum it is scheduled and judged by: {@code status.minAvailable},
 *                     or, before the controller set it, the spec's (the sum of the tasks' when unset)
 * @param pending      its pods in phase Pending
 * @param running      its pods in phase Running
 * @param succeeded    its pods in phase Succeeded
 * @param failed       its pods in phase Failed
 * @param retryCount   restarts so far, against {@code spec.maxRetry}
 */
public record JobSummary(String namespace, String name, String phase, String reason, String message, int minAvailable,
                         int pending, int running, int succeeded, int failed, int retryCount) {

    /** The summary of a Job as the cache holds it; works on a Job without status. */
    public static JobSummary of(Job job) {
        JobStatus status = job.getStatus() == null ? new JobStatus() : job.getStatus();
        JobState state = status.getState() == null ? new JobState() : status.getState();
        int minAvailable = status.getMinAvailable() != null ? status.getMinAvailable()
                : job.getSpec() == null ? 0 : JobDefaults.minAvailable(job.getSpec());
        return new JobSummary(job.getMetadata().getNamespace(), job.getMetadata().getName(),
                state.getPhase() == null ? null : state.getPhase().name(), state.getReason(), state.getMessage(),
                minAvailable, status.getPending(), status.getRunning(), status.getSucceeded(), status.getFailed(),
                status.getRetryCount());
    }
}
