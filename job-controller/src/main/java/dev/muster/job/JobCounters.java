package dev.muster.job;

import dev.muster.api.batch.v1alpha1.JobStatus;
import dev.muster.support.status.StatusWriter;
import io.fabric8.kubernetes.client.utils.Serialization;

import java.util.LinkedHashMap;
import java.util.Objects;

/**
 * A Job status's pod counts (pending, running, succeeded, failed, terminating, unknown, per task), for write
 * pacing. The state's message counts pods too ("waiting for 3 of 16 pods to start") and moves with them; the
 * phase, reason, version, retries and conditions do not.
 */
final class JobCounters {
    private JobCounters() {
    }

    /** Whether the two statuses differ, and only in their counts (and the message that reports them). */
    static boolean countersOnly(JobStatus current, JobStatus desired) {
        boolean countsDiffer = current.getPending() != desired.getPending()
                || current.getRunning() != desired.getRunning() || current.getSucceeded() != desired.getSucceeded()
                || current.getFailed() != desired.getFailed() || current.getTerminating() != desired.getTerminating()
                || current.getUnknown() != desired.getUnknown()
                || !Objects.equals(current.getTaskStatusCount(), desired.getTaskStatusCount());
        // The cheap test first: this runs on every reconcile of a job written before.
        return countsDiffer && StatusWriter.sameJson(withoutCounts(current), withoutCounts(desired));
    }

    private static JobStatus withoutCounts(JobStatus status) {
        JobStatus copy = Serialization.clone(status);
        copy.setPending(0);
        copy.setRunning(0);
        copy.setSucceeded(0);
        copy.setFailed(0);
        copy.setTerminating(0);
        copy.setUnknown(0);
        copy.setTaskStatusCount(new LinkedHashMap<>());
        if (copy.getState() != null) {
            copy.getState().setMessage(null);
        }
        return copy;
    }
}
