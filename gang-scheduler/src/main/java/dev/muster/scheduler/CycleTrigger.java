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
 */
final class CycleTrigger {
    private static final Logger log = LoggerFactory.getLogger(CycleTrigger.class);

    private final Runnable cycle;
    private final ScheduledExecutorService thread;
    private final AtomicBoolean queued = new AtomicBoolean();

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
        // Cleared before the cycle reads the cache, so an event arriving during the cycle queues another.
        queued.set(false);
        try {
            cycle.run();
        } catch (RuntimeException e) {
            log.error("scheduling cycle failed", e);
        }
    }
}
