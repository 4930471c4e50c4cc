package dev.muster.support.event;

import java.time.Duration;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Writes Events off the caller's thread, as client-go's event broadcaster does, so that a reconcile does not
 * wait for the round trips of its Events. Each object's Events go through one lane, a single thread, so they
 * reach the API server in the order they were recorded and a count's PATCH never overtakes the Event's
 * creation. A lane holds at most a bounded number of writes; beyond that a write is refused and the caller
 * drops the Event, as client-go drops Events when its queue is full: Events are best-effort, and an API
 * server that cannot keep up must not also grow the controller's heap. Lane threads end when idle.
 */
final class EventWriteLanes {
    private static final Duration IDLE = Duration.ofSeconds(30);

    private final ThreadPoolExecutor[] lanes;

    /**
     * @param name     names the lanes' threads
     * @param lanes    how many objects' Events are written at once
     * @param capacity writes a lane holds before it refuses more
     */
    EventWriteLanes(String name, int lanes, int capacity) {
        if (lanes < 1 || capacity < 1) {
            throw new IllegalArgumentException("event write lanes need at least one lane of one write, got "
                    + lanes + " of " + capacity);
        }
        this.lanes = new ThreadPoolExecutor[lanes];
        AtomicInteger threads = new AtomicInteger();
        for (int i = 0; i < lanes; i++) {
            ThreadPoolExecutor lane = new ThreadPoolExecutor(1, 1, IDLE.toMillis(), TimeUnit.MILLISECONDS,
                    new ArrayBlockingQueue<>(capacity), r -> {
                        Thread t = new Thread(r, name + "-events-" + threads.incrementAndGet());
                        t.setDaemon(true);
                        return t;
                    });
            lane.allowCoreThreadTimeOut(true);
            this.lanes[i] = lane;
        }
    }

    /**
     * Queues a write on the lane of {@code object} (any value whose equal values name the same object); false if
     * that lane is full and the write was refused.
     */
    boolean submit(Object object, Runnable write) {
        try {
            lanes[Math.floorMod(object.hashCode(), lanes.length)].execute(write);
            return true;
        } catch (RejectedExecutionException full) {
            return false;
        }
    }
}
