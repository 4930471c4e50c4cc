package dev.muster.scheduler.core.model;

import java.time.Duration;
import java.util.Objects;

/**
 * How a queue's gangs may make room by evicting others.
 *
 * @param withinQueue  whether a gang may evict lower-priority gangs of its own queue
 * @param reclaim      whether the queue may take back, from queues above their fair share, room up to
 *                     its own fair share
 * @param reclaimDelay how long a gang of the queue waits before it reclaims
 */
public record QueuePreemption(WithinQueue withinQueue, boolean reclaim, Duration reclaimDelay) {
    /** The default reclaim delay, 30 seconds. */
    public static final Duration DEFAULT_RECLAIM_DELAY = Duration.ofSeconds(30);
    /** Lower-priority gangs of the same queue may be evicted, reclaim is on, after 30 seconds. */
    public static final QueuePreemption DEFAULTS =
            new QueuePreemption(WithinQueue.LOWER_PRIORITY, true, DEFAULT_RECLAIM_DELAY);

    public QueuePreemption {
        Objects.requireNonNull(withinQueue, "withinQueue");
        reclaimDelay = reclaimDelay == null ? DEFAULT_RECLAIM_DELAY : reclaimDelay;
        if (reclaimDelay.isNegative()) {
            throw new IllegalArgumentException("reclaimDelay must not be negative, got " + reclaimDelay);
        }
    }

    /** Preemption within a queue. */
    public enum WithinQueue {
        /** No gang of the queue evicts another of the same queue. */
        NEVER,
        /** A gang may evict gangs of the same queue with a lower priority. */
        LOWER_PRIORITY
    }
}
