package dev.muster.support.status;

import dev.muster.support.controller.ObjectKey;

import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Holds back the first status write of a new object for a moment, while the one change that would follow
 * it at once is expected: a new PodGroup waits for the scheduler's first verdict, a new Job for its group's
 * admission. Written at once, such an object is written twice within milliseconds, the first state seen by
 * nobody; on a busy cluster that is one API request in eight for a one-pod job. The wait is counted from
 * when this controller first saw the object (not its {@code creationTimestamp}, which has whole seconds
 * and another machine's clock), and ends at the first write or after the wait it was made with, whichever comes first.
 * Thread-safe; one per controller.
 */
public final class FirstWriteWait {
    private final Duration wait;
    private final Map<ObjectKey, Instant> firstSeen = new ConcurrentHashMap<>();

    /** @param wait the longest an object's first write is held back */
    public FirstWriteWait(Duration wait) {
        this.wait = wait;
    }

    /**
     * How much longer the object's first write waits; empty to write now.
     *
     * @param mayWait whether the object was never written and waits for nothing but the expected change;
     *                false ends the wait for good (the object was written, or something else is to be said)
     */
    public Optional<Duration> left(ObjectKey key, boolean mayWait, Instant now) {
        if (!mayWait) {
            firstSeen.remove(key);
            return Optional.empty();
        }
        Duration left = Duration.between(now, firstSeen.computeIfAbsent(key, k -> now).plus(wait));
        // Kept once run out, so that the object is written on every later look until its write lands.
        return left.isNegative() || left.isZero() ? Optional.empty() : Optional.of(left);
    }

    /** Drops what is remembered of an object that is gone. */
    public void forget(ObjectKey key) {
        firstSeen.remove(key);
    }
}
