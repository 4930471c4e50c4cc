package dev.muster.podgroup;

import dev.muster.api.scheduling.v1alpha1.PodGroupStatus;
import dev.muster.support.controller.ObjectKey;
import dev.muster.support.status.StatusWriter;
import io.fabric8.kubernetes.client.utils.Serialization;

import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Spaces out the status writes of a group that change nothing but its counters. A gang's pods start
 * and finish one by one, each a pod event; writing every intermediate count would cost one write per
 * pod. A held-back write is made when the interval is over, so the counters converge; phase and
 * condition changes, which controllers and users act on, are never held back.
 */
final class CounterWritePacer {
    private final Duration interval;
    private final Map<ObjectKey, Instant> lastWrite = new ConcurrentHashMap<>();

    CounterWritePacer(Duration interval) {
        this.interval = interval;
    }

    /**
     * How long to hold back replacing {@code current} with {@code desired}; empty to write now (or to
     * find, as the status writer will, that nothing changed).
     */
    Optional<Duration> holdBack(ObjectKey key, PodGroupStatus current, PodGroupStatus desired, Instant now) {
        Instant last = lastWrite.get(key);
        if (last == null || current == null || !countersOnly(current, desired)) {
            return Optional.empty();
        }
        Duration left = Duration.between(now, last.plus(interval));
        return left.isNegative() || left.isZero() ? Optional.empty() : Optional.of(left);
    }

    /** Notes a status write of the group. */
    void written(ObjectKey key, Instant now) {
        lastWrite.put(key, now);
    }

    /** Drops what is known of a deleted group. */
    void forget(ObjectKey key) {
        lastWrite.remove(key);
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
