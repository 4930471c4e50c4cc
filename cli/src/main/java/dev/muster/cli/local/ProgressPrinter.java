package dev.muster.cli.local;

import dev.muster.api.batch.v1alpha1.JobOwnership;
import dev.muster.api.PodPhase;
import dev.muster.api.batch.v1alpha1.Job;
import dev.muster.api.batch.v1alpha1.JobPhase;
import dev.muster.api.scheduling.v1alpha1.PodGroup;
import dev.muster.support.informer.SharedInformers;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.client.informers.ResourceEventHandler;
import io.fabric8.kubernetes.client.informers.SharedIndexInformer;

import java.io.PrintStream;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;

/**
 * Prints a line whenever a submitted Job's phase or task counts change (and a user-made PodGroup's
 * phase or counters), and tells when everything submitted has finished.
 */
final class ProgressPrinter implements AutoCloseable {
    private final PrintStream out;
    private final long startNanos = System.nanoTime();
    private final Set<String> jobs;
    private final Set<String> pods;
    private final Map<String, String> lastLine = new ConcurrentHashMap<>();
    private final Map<String, JobPhase> finishedJobs = new ConcurrentHashMap<>();
    private final Map<String, PodPhase> finishedPods = new ConcurrentHashMap<>();
    private final CountDownLatch allDone = new CountDownLatch(1);
    private final List<Runnable> unwatch = new ArrayList<>();

    /**
     * @param informers the manager's shared informers, which already list and watch every kind printed
     * @param jobs      keys ({@code namespace/name}) of the submitted Jobs
     * @param pods      keys of the submitted bare Pods, waited for when no Job was submitted
     */
    ProgressPrinter(SharedInformers informers, PrintStream out, Set<String> jobs, Set<String> pods) {
        this.out = out;
        this.jobs = jobs;
        this.pods = jobs.isEmpty() ? pods : Set.of();
        watch(informers.informer(Job.class), this::onJob);
        watch(informers.informer(PodGroup.class), this::onPodGroup);
        if (!this.pods.isEmpty()) {
            watch(informers.informer(Pod.class), this::onPod);
        }
        checkDone();
    }

    /** Blocks until every submitted Job (or, without Jobs, every submitted Pod) has finished. */
    void awaitAllDone() throws InterruptedException {
        allDone.await();
    }

    /** As {@link #awaitAllDone()}, giving up after {@code timeout}; whether everything finished. */
    boolean awaitAllDone(Duration timeout) throws InterruptedException {
        return allDone.await(timeout.toMillis(), TimeUnit.MILLISECONDS);
    }

    /** Whether everything waited for finished well: every Job Completed, every Pod Succeeded. */
    boolean allSucceeded() {
        return finishedJobs.values().stream().allMatch(p -> p == JobPhase.Completed)
                && finishedPods.values().stream().allMatch(PodPhase.Succeeded::equals);
    }

    /** Hears of every object the informer holds now and of later changes, until {@link #close()}. */
    private <T extends HasMetadata> void watch(SharedIndexInformer<T> informer, Consumer<T> onChange) {
        ResourceEventHandler<T> handler = new ResourceEventHandler<>() {
            @Override
            public void onAdd(T obj) {
                onChange.accept(obj);
            }

            @Override
            public void onUpdate(T oldObj, T newObj) {
                onChange.accept(newObj);
            }

            @Override
            public void onDelete(T obj, boolean deletedFinalStateUnknown) {
                // A deleted object says nothing new about progress.
            }
        };
        informer.addEventHandler(handler);
        unwatch.add(() -> informer.removeEventHandler(handler));
    }

    private void onJob(Job job) {
        String key = key(job);
        print(key, ProgressLine.of(job));
        if (jobs.contains(key) && job.getStatus() != null && job.getStatus().getState() != null
                && job.getStatus().getState().getPhase() != null && job.getStatus().getState().getPhase().isFinished()) {
            finishedJobs.put(key, job.getStatus().getState().getPhase());
            checkDone();
        }
    }

    private void onPodGroup(PodGroup group) {
        if (JobOwnership.controllingJob(group).isEmpty()) {
            print("pg:" + key(group), ProgressLine.of(group));
        }
    }

    private void onPod(Pod pod) {
        String key = key(pod);
        PodPhase phase = PodPhase.of(pod);
        if (pods.contains(key) && phase.isFinished()) {
            if (finishedPods.put(key, phase) == null) {
                print("pod:" + key, "pod " + key + "  " + phase);
            }
            checkDone();
        }
    }

    private void print(String key, String line) {
        if (!line.equals(lastLine.put(key, line))) {
            double seconds = (System.nanoTime() - startNanos) / 1e9;
            synchronized (out) {
                out.printf("[%7.1fs] %s%n", seconds, line);
                out.flush();
            }
        }
    }

    private void checkDone() {
        if (finishedJobs.keySet().containsAll(jobs) && finishedPods.keySet().containsAll(pods)) {
            allDone.countDown();
        }
    }

    private static String key(HasMetadata o) {
        return o.getMetadata().getNamespace() + "/" + o.getMetadata().getName();
    }

    @Override
    public void close() {
        unwatch.forEach(Runnable::run);
    }
}
