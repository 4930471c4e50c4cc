package dev.muster.scheduler;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Duration;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * Runs scheduling cycles on one thread, when asked and on a period. Requests coalesce: however many
 * events ask while a cycle waits, one cycle runs; an event during a cycle queues exactly one more, so
 * nothing that happened during a cycle goes unseen and the thread never spins.
 *
 * <p>A cycle starts no sooner after the last one ended than {@link #REST_PER_CYCLE} times as long as that one
 * took ({@link #restAfter}), at most {@link #MAX_REST}: under a steady stream of events the thread is then busy at
 * most a fifth of the time. Without a rest, thousands of gangs waiting at once made every informer event start
 * another cycle over all of them, back to back: one core of a two-core machine went to re-planning unchanged
 * gangs, taken from the informers and controllers whose progress the next cycle waits for. A rest as long as
 * the cycle still left the scheduler half a core; on 3,000 one-pod Jobs, four times as long finished them in
 * 97-108 s rather than 113 s, with 109-121 s of the manager's CPU rather than 137 (three times: 106 s, six
 * times: 101 s), for an admission later by a few cycles' length. A cycle of a few milliseconds rests a few
 * more, so a small cluster sees no difference.
 */
final class CycleTrigger {
    private static final Logger log = LoggerFactory.getLogger(CycleTrigger.class);
    /** The longest rest after a cycle, however long it took. */
    static final Duration MAX_REST = Duration.ofSeconds(1);
    /** How many times as long as a cycle took the thread rests after it. */
    static final int REST_PER_CYCLE = 4;

    private final Runnable cycle;
    private final ScheduledExecutorService thread;
    private final AtomicBoolean queued = new AtomicBoolean();
    /** {@link System#nanoTime()} before which a requested cycle does not start; read and written on the thread. */
    private long restUntil = System.nanoTime();

    CycleTrigger(String threadName, Runnable cycle) {
        this.cycle = cycle;
        this.thread = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, threadName);
            t.setDaemon(true);
            return t;
        });
    }

    /** Starts the periodic cycles. */
    void start(Duration period) {
        thread.scheduleWithFixedDelay(this::request, period.toMillis(), period.toMillis(), TimeUnit.MILLISECONDS);
    }

    /** Asks for a cycle soon; returns at once. */
    void request() {
        if (queued.compareAndSet(false, true)) {
            try {
                thread.execute(this::runCycle);
            } catch (RejectedExecutionException stopped) {
                queued.set(false);
            }
        }
    }

    /** Stops the thread, letting a running cycle finish. */
    void stop() {
        thread.shutdownNow();
        try {
            if (!thread.awaitTermination(10, TimeUnit.SECONDS)) {
                log.warn("scheduling cycle did not finish within 10s of stop");
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private void runCycle() {
        // The rest is read here, on the cycle thread, so that a request made during a cycle rests after it.
        long rest = restUntil - System.nanoTime();
        if (rest > 0) {
            try {
                thread.schedule(this::runCycle, rest, TimeUnit.NANOSECONDS);
            } catch (RejectedExecutionException stopped) {
                queued.set(false);
            }
            return;
        }
        // Cleared before the cycle reads the cache, so an event arriving during the cycle queues another.
        queued.set(false);
        long started = System.nanoTime();
        try {
            cycle.run();
        } catch (RuntimeException e) {
            log.error("scheduling cycle failed", e);
        }
        long ended = System.nanoTime();
        restUntil = ended + restAfter(Duration.ofNanos(ended - started)).toNanos();
    }

    /** How long the thread rests after a cycle that took {@code took}: {@link #REST_PER_CYCLE} times as long, at most {@link #MAX_REST}. */
    static Duration restAfter(Duration took) {
        Duration rest = took.multipliedBy(REST_PER_CYCLE);
        return rest.compareTo(MAX_REST) > 0 ? MAX_REST : rest;
    }
}
