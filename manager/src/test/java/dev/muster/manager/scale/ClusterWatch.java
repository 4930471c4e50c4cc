package dev.muster.manager.scale;

import dev.muster.api.batch.v1alpha1.Job;
import dev.muster.api.batch.v1alpha1.JobPhase;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.Watch;
import io.fabric8.kubernetes.client.Watcher;
import io.fabric8.kubernetes.client.WatcherException;

import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

/**
 * What the benchmark watches, as a client sees it: when each pod was first bound, how many pods were deleted, and
 * when each Job completed (times as {@link System#nanoTime()}, taken when the watch event arrives). A watch, not an
 * informer, so the harness keeps names and times only, not the objects.
 */
final class ClusterWatch implements AutoCloseable {
    private final Set<String> bound = ConcurrentHashMap.newKeySet();
    private final Set<String> completed = ConcurrentHashMap.newKeySet();
    /** Completion times, in the order they arrived. */
    final ConcurrentLinkedQueue<Long> completions = new ConcurrentLinkedQueue<>();
    final AtomicLong lastBinding = new AtomicLong();
    final AtomicInteger deletedPods = new AtomicInteger();
    private final AtomicLong firstBindingAfter = new AtomicLong(Long.MAX_VALUE);
    private volatile long markNanos = Long.MAX_VALUE;
    private volatile WatcherException failure;
    private final Watch pods;
    private final Watch jobs;

    ClusterWatch(KubernetesClient client) {
        pods = client.pods().inAnyNamespace().watch(new Watcher<>() {
            @Override
            public void eventReceived(Action action, Pod pod) {
                long now = System.nanoTime();
                String key = pod.getMetadata().getNamespace() + "/" + pod.getMetadata().getName();
                if (action == Action.DELETED) {
                    deletedPods.incrementAndGet();
                } else if (pod.getSpec().getNodeName() != null && bound.add(key)) {
                    lastBinding.set(now);
                    if (now >= markNanos) {
                        firstBindingAfter.accumulateAndGet(now, Math::min);
                    }
                }
            }

            @Override
            public void onClose(WatcherException cause) {
                failure = cause;
            }
        });
        jobs = client.resources(Job.class).inAnyNamespace().watch(new Watcher<>() {
            @Override
            public void eventReceived(Action action, Job job) {
                long now = System.nanoTime();
                if (job.getStatus() != null && job.getStatus().getState() != null
                        && job.getStatus().getState().getPhase() == JobPhase.Completed
                        && completed.add(job.getMetadata().getNamespace() + "/" + job.getMetadata().getName())) {
                    completions.add(now);
                }
            }

            @Override
            public void onClose(WatcherException cause) {
                failure = cause;
            }
        });
    }

    /** The number of pods seen bound; fails if a watch ended, since the figures would then be wrong. */
    int bound() {
        check();
        return bound.size();
    }

    int completed() {
        check();
        return completed.size();
    }

    /** From now on, remember the first new binding. */
    void mark(long nanos) {
        markNanos = nanos;
        firstBindingAfter.set(Long.MAX_VALUE);
    }

    /** The first binding seen after {@link #mark}, or {@link Long#MAX_VALUE} while none. */
    long firstBindingAfterMark() {
        return firstBindingAfter.get();
    }

    private void check() {
        if (failure != null) {
            throw new IllegalStateException("a watch ended; the figures would be wrong", failure);
        }
    }

    @Override
    public void close() {
        pods.close();
        jobs.close();
    }
}
