package dev.muster.podgroup;

import dev.muster.support.controller.ObjectKey;

import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Since when each Running group below its quorum has been waiting for members to be replaced, and
 * whether its grace period is over. Kept in memory: nothing in the API says when a member left once it
 * is gone, and after a restart the grace period merely starts again, which errs on the side of not
 * declaring a gang broken.
 */
final class ReplacementWaits {
    private final Duration gracePeriod;
    private final Map<ObjectKey, Instant> since = new ConcurrentHashMap<>();

    ReplacementWaits(Duration gracePeriod) {
        this.gracePeriod = gracePeriod;
    }

    /** Whether the group has been waiting for at least the grace period. */
    boolean overdue(ObjectKey key, Instant now) {
        Instant start = since.get(key);
        return start != null && !now.isBefore(start.plus(gracePeriod));
    }

    /**
     * Notes that the group waits, starting its clock unless it already runs.
     *
     * @return time left until the grace period is over; zero or less when it is
     */
    Duration waiting(ObjectKey key, Instant now) {
        Instant start = since.computeIfAbsent(key, k -> now);
        return Duration.between(now, start.plus(gracePeriod));
    }

    /** The group no longer waits (it recovered, broke, or is gone). */
    void stop(ObjectKey key) {
        since.remove(key);
    }
}
