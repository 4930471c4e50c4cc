package dev.muster.support.controller;

import java.time.Duration;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

/**
 * A work queue with client-go's guarantees: a key waits at most once however often it is added, a key
 * is never handed to two workers at once (one added while in work waits until the work is done), and
 * failures back off exponentially per key. Written by hand because no maintained Java library offers
 * these three together; fabric8's informers only deliver events.
 *
 * @param <K> the key type
 */
public final class KeyedWorkQueue<K> implements AutoCloseable {
    private final Set<K> waiting = new LinkedHashSet<>();
    private final Set<K> inWork = new HashSet<>();
    private final Set<K> dirtyInWork = new HashSet<>();
    private final Map<K, Integer> failures = new HashMap<>();
    private final ScheduledExecutorService delays;
    private final Duration baseBackoff;
    private final Duration maxBackoff;
    private boolean closed;

    /**
     * @param name        names the delay thread
     * @param baseBackoff first retry delay after a failure
     * @param maxBackoff  cap of the exponential backoff
     */
    public KeyedWorkQueue(String name, Duration baseBackoff, Duration maxBackoff) {
        this.baseBackoff = baseBackoff;
        this.maxBackoff = maxBackoff;
        this.delays = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, name + "-delays");
            t.setDaemon(true);
            return t;
        });
    }

    /** Queues the key unless it already waits. */
    public synchronized void add(K key) {
        if (closed) {
            return;
        }
        if (inWork.contains(key)) {
            dirtyInWork.add(key);
            return;
        }
        if (waiting.add(key)) {
            notifyAll();
        }
    }

    /** Queues the key after a delay. */
    public void addAfter(K key, Duration delay) {
        if (delay.isZero() || delay.isNegative()) {
            add(key);
            return;
        }
        synchronized (this) {
            if (closed) {
                return;
            }
        }
        delays.schedule(() -> add(key), delay.toMillis(), TimeUnit.MILLISECONDS);
    }

    /** Queues the key after its exponential backoff and counts the failure. */
    public void addRateLimited(K key) {
        int n;
        synchronized (this) {
            n = failures.merge(key, 1, Integer::sum);
        }
        addAfter(key, backoff(n));
    }

    /** Forgets the key's failures after a success. */
    public synchronized void forget(K key) {
        failures.remove(key);
    }

    /** Failures counted for the key since its last success. */
    public synchronized int failures(K key) {
        return failures.getOrDefault(key, 0);
    }

    /** Blocks until a key is ready and hands it out; null once the queue is closed. */
    public synchronized K take() throws InterruptedException {
        while (waiting.isEmpty() && !closed) {
            wait();
        }
        if (closed) {
            return null;
        }
        var it = waiting.iterator();
        K key = it.next();
        it.remove();
        inWork.add(key);
        return key;
    }

    /** Marks the work on a key done; if it was added meanwhile, it waits again. */
    public synchronized void done(K key) {
        inWork.remove(key);
        if (dirtyInWork.remove(key) && !closed && waiting.add(key)) {
            notifyAll();
        }
    }

    /** Number of keys waiting. */
    public synchronized int size() {
        return waiting.size();
    }

    Duration backoff(int failureCount) {
        long millis = baseBackoff.toMillis() << Math.min(failureCount - 1, 20);
        return Duration.ofMillis(Math.min(millis, maxBackoff.toMillis()));
    }

    @Override
    public synchronized void close() {
        closed = true;
        waiting.clear();
        notifyAll();
        delays.shutdownNow();
    }
}
