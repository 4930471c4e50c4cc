package dev.muster.support.status;

import dev.muster.support.controller.ObjectKey;

import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.BiPredicate;

/**
 * Spaces out the status writes of an object that change nothing but its counters; {@link StatusRecorder}
 * asks it before every write. A gang's pods start and finish one by one, each a pod event; writing every
 * intermediate count would cost one write per pod. A held-back write is made when the interval is over, so
 * the counters converge; phase and condition changes, which controllers and users act on, are never held
 * back. One pacer per recorder, for Jobs and PodGroups alike; what counts as "counters only" is the kind's.
 *
 * @param <S> the status type
 */
public final class CounterWritePacer<S> {
    private final Duration interval;
    private final BiPredicate<S, S> countersOnly;
    private final Map<ObjectKey, Instant> lastWrite = new ConcurrentHashMap<>();

    /**
     * @param interval     least time between two status writes of one object that change only its counters
     * @param countersOnly whether two statuses differ, and only in their counters
     */
    public CounterWritePacer(Duration interval, BiPredicate<S, S> countersOnly) {
        this.interval = interval;
        this.countersOnly = countersOnly;
    }

    /**
     * How long to hold back replacing {@code current} with {@code desired}; empty to write now (or to find, as
     * the status writer will, that nothing changed).
     */
    public Optional<Duration> holdBack(ObjectKey key, S current, S desired, Instant now) {
        Instant last = lastWrite.get(key);
        if (last == null || current == null || !countersOnly.test(current, desired)) {
            return Optional.empty();
        }
        Duration left = Duration.between(now, last.plus(interval));
        return left.isNegative() || left.isZero() ? Optional.empty() : Optional.of(left);
    }

    /** Notes a status write of the object. */
    public void written(ObjectKey key, Instant now) {
        lastWrite.put(key, now);
    }

    /** Drops what is known of a deleted object. */
    public void forget(ObjectKey key) {
        lastWrite.remove(key);
    }
}
