package dev.muster.podgroup;

import dev.muster.api.scheduling.v1alpha1.PodGroupStatus;
import dev.muster.support.status.StatusWriter;
import io.fabric8.kubernetes.client.utils.Serialization;

/** A PodGroup status's counters ({@code running}, {@code succeeded}, {@code failed}), for write pacing. */
final class PodGroupCounters {
    private PodGroupCounters() {
    }

    /** Whether the two statuses differ, and only in their counters. */
    static boolean countersOnly(PodGroupStatus current, PodGroupStatus desired) {
        boolean countersDiffer = current.getRunning() != desired.getRunning()
                || current.getSucceeded() != desired.getSucceeded() || current.getFailed() != desired.getFailed();
        // The cheap test first: this runs on every reconcile of a group written before.
        return countersDiffer && StatusWriter.sameJson(withoutCounters(current), withoutCounters(desired));
    }

    private static PodGroupStatus withoutCounters(PodGroupStatus status) {
        PodGroupStatus copy = Serialization.clone(status);
        copy.setRunning(0);
        copy.setSucceeded(0);
        copy.setFailed(0);
        return copy;
    }
}
