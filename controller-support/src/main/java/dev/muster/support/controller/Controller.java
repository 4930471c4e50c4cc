package dev.muster.support.controller;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.client.informers.ResourceEventHandler;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Function;

/**
 * Runs a {@link Reconciler} on worker threads fed by a {@link KeyedWorkQueue}: each key is reconciled
 * by one worker at a time, a failed reconcile is retried with exponential backoff, a reconcile that lost an
 * optimistic-locking conflict (409) is looked at again without backoff, and a reconcile may ask for
 * another look after a delay. Reconcilers therefore let conflicts propagate.
 */
public final class Controller implements AutoCloseable {
    private static final Logger log = LoggerFactory.getLogger(Controller.class);

    /** When a key whose write lost an optimistic-locking conflict is looked at again at the latest. */
    public static final Duration CONFLICT_RETRY = Duration.ofSeconds(1);
    /** Failures in a row after which the reconciler is told that a key is {@link Reconciler#failing}. */
    public static final int FAILING_AFTER = 5;

    private final String name;
    private final Reconciler reconciler;
    private final Duration baseBackoff;
    private final Duration maxBackoff;
    /** Replaced by a fresh one when the controller is started again after {@link #close()}. */
    private volatile KeyedWorkQueue<ObjectKey> queue;
    private final int workers;
    private final List<Thread> threads = new ArrayList<>();
    private final Set<ObjectKey> failing = ConcurrentHashMap.newKeySet();
    private volatile boolean closed;

    /**
     * @param name       controller name, used in thread names and logs
     * @param reconciler the reconcile function
     * @param workers    keys reconciled in parallel
     */
    public Controller(String name, Reconciler reconciler, int workers) {
        this(name, reconciler, workers, Duration.ofMillis(100), Duration.ofSeconds(60));
    }

    /** As above, with the failure backoff given. */
    public Controller(String name, Reconciler reconciler, int workers, Duration baseBackoff, Duration maxBackoff) {
        this.name = name;
        this.reconciler = reconciler;
        this.workers = workers;
        this.baseBackoff = baseBackoff;
        this.maxBackoff = maxBackoff;
        this.queue = new KeyedWorkQueue<>(name, baseBackoff, maxBackoff);
    }

    /** Asks for the key to be reconciled. */
    public void enqueue(ObjectKey key) {
        queue.add(key);
    }

    /** Asks for the key to be reconciled after a delay. */
    public void enqueueAfter(ObjectKey key, Duration delay) {
        queue.addAfter(key, delay);
    }

    /**
     * An informer event handler that enqueues the key each added, updated or deleted object maps to, if
     * any. On an update both versions' keys are enqueued: an object that changed owner or group label
     * leaves one key and joins another, and both need a look (the same key twice is queued once).
     *
     * @param keyOf the key an object wakes, e.g. its own, or that of its owner
     */
    public <T extends HasMetadata> ResourceEventHandler<T> enqueueing(Function<T, Optional<ObjectKey>> keyOf) {
        return new ResourceEventHandler<>() {
            @Override
            public void onAdd(T object) {
                keyOf.apply(object).ifPresent(Controller.this::enqueue);
            }

            @Override
            public void onUpdate(T oldObject, T newObject) {
                keyOf.apply(oldObject).ifPresent(Controller.this::enqueue);
                keyOf.apply(newObject).ifPresent(Controller.this::enqueue);
            }

            @Override
            public void onDelete(T object, boolean deletedFinalStateUnknown) {
                keyOf.apply(object).ifPresent(Controller.this::enqueue);
            }
        };
    }

    /**
     * Starts the workers. A controller closed before starts again with an empty queue: what was queued
     * when it closed was dropped, and whoever enqueues it (informer handlers) hands it everything again.
     */
    public synchronized void start() {
        if (!threads.isEmpty()) {
            return;
        }
        if (closed) {
            queue = new KeyedWorkQueue<>(name, baseBackoff, maxBackoff);
            closed = false;
        }
        KeyedWorkQueue<ObjectKey> started = queue;
        for (int i = 0; i < workers; i++) {
            Thread t = new Thread(() -> work(started), name + "-worker-" + i);
            t.setDaemon(true);
            t.start();
            threads.add(t);
        }
    }

    private void work(KeyedWorkQueue<ObjectKey> queue) {
        while (true) {
            ObjectKey key;
            try {
                key = queue.take();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            }
            if (key == null) {
                return;
            }
            try {
                ReconcileResult result = reconciler.reconcile(key);
                queue.forget(key);
                if (failing.remove(key)) {
                    log.info("{}: reconcile of {} succeeds again", name, key);
                    reconciler.recovered(key);
                }
                result.requeueAfter().ifPresent(d -> queue.addAfter(key, d));
            } catch (Throwable e) {
                // Any Throwable, not only Exceptions: a worker that dies on an Error would leave its share of
                // keys unreconciled for good.
                if (ApiErrors.isConflict(e)) {
                    // Another writer (often our own previous write) got there first: the decision was made on a
                    // stale cache. The informer brings the newer object and enqueues it; the delay is a backstop.
                    // Not a failure, so it does not grow the backoff.
                    log.debug("{}: {} changed since it was cached; deciding again on the newer version", name, key);
                    queue.addAfter(key, CONFLICT_RETRY);
                } else if (queue.failures(key) == 0 && ApiErrors.deletedMeanwhile(e, key)) {
                    // Deleted between the cache read and the write: the retry finds it gone and does nothing. Logged
                    // as a failure only if the retry meets the 404 again.
                    log.debug("{}: {} was deleted while it was reconciled; deciding again", name, key);
                    queue.addRateLimited(key);
                } else {
                    int attempts = queue.failures(key) + 1;
                    log.warn("{}: reconcile of {} failed (attempt {}), will retry: {}", name, key, attempts, e.toString());
                    log.debug("{}: reconcile failure of {}", name, key, e);
                    queue.addRateLimited(key);
                    if (attempts >= FAILING_AFTER) {
                        failing.add(key);
                        reportFailing(key, e, attempts);
                    }
                }
            } finally {
                queue.done(key);
            }
        }
    }

    private void reportFailing(ObjectKey key, Throwable failure, int attempts) {
        try {
            reconciler.failing(key, failure, attempts);
        } catch (RuntimeException e) {
            log.warn("{}: could not report the failing reconcile of {}: {}", name, key, e.toString());
        }
    }

    /**
     * Worker threads that have ended although the controller was started and not closed: zero unless
     * something killed a thread from outside, which health checks must then show.
     */
    public synchronized int deadWorkers() {
        return closed ? 0 : (int) threads.stream().filter(t -> !t.isAlive()).count();
    }

    /** Stops the workers and drops what is queued; {@link #start()} may start them again. */
    @Override
    public synchronized void close() {
        closed = true;
        queue.close();
        threads.forEach(Thread::interrupt);
        threads.clear();
    }
}
