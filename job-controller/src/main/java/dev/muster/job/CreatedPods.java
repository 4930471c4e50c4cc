package dev.muster.job;

import dev.muster.support.controller.ObjectKey;
import io.fabric8.kubernetes.api.model.Pod;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Collection;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.stream.Collectors;

/**
 * Creation expectations, as kube-controller-manager's controllers keep them: the pods the controller is creating or
 * has created, per job, until its cache has seen them. The pod cache lags the API server, and a reconcile woken by
 * something else (the job's own status write, its PodGroup's admission) can run before it shows a pod just created.
 * Creating that pod again is not harmless: kube-apiserver runs ResourceQuota admission before it finds the name
 * taken, so in a namespace whose quota the pod itself has just filled, the second creation is refused with
 * {@code exceeded quota} instead of {@code AlreadyExists}, and the job reports a failure that did not happen.
 *
 * <p>A pod is expected from just before its creation is sent; it is forgotten when the creation is refused, when
 * the cache's add event or its list shows it, or after {@link #TIMEOUT}, kube's own bound, for a pod deleted
 * before the cache ever saw it (a relist that skipped it). In memory only: a new controller starts from a fresh
 * list.
 */
final class CreatedPods {
    /** How long an unseen creation holds back creating its pod again: kube's {@code ExpectationsTimeout}. */
    static final Duration TIMEOUT = Duration.ofMinutes(5);

    private final Map<ObjectKey, Map<String, Instant>> byJob = new ConcurrentHashMap<>();
    private final Clock clock;

    CreatedPods(Clock clock) {
        this.clock = clock;
    }

    /** Records that the pod named {@code pod} of {@code job} is about to be created. */
    void expect(ObjectKey job, String pod) {
        byJob.computeIfAbsent(job, k -> new ConcurrentHashMap<>()).put(pod, clock.instant());
    }

    /** Forgets a creation that did not store the pod (refused, or failed), so that it is tried again. */
    void notCreated(ObjectKey job, String pod) {
        forget(job, pod);
    }

    /** The cache has the pod: its job's next decision sees it. */
    void observed(ObjectKey job, Pod pod) {
        forget(job, pod.getMetadata().getName());
    }

    /**
     * The pods of {@code job} created and not yet among {@code cached}, which must not be created again; forgets
     * those the cache shows and those expected for longer than {@link #TIMEOUT}. A job's key is reconciled by one
     * worker at a time, so this does not race with {@link #expect}.
     */
    Set<String> notYetCached(ObjectKey job, Collection<Pod> cached) {
        Map<String, Instant> expected = byJob.get(job);
        if (expected == null) {
            return Set.of();
        }
        Instant expiredBefore = clock.instant().minus(TIMEOUT);
        Set<String> present = cached.stream().map(p -> p.getMetadata().getName()).collect(Collectors.toSet());
        expected.entrySet().removeIf(e -> present.contains(e.getKey()) || e.getValue().isBefore(expiredBefore));
        if (expected.isEmpty()) {
            byJob.remove(job, expected);
            return Set.of();
        }
        return Set.copyOf(expected.keySet());
    }

    /** When the oldest creation of {@code job} the cache has not shown stops holding back its pod. */
    Optional<Instant> nextExpiry(ObjectKey job) {
        Map<String, Instant> expected = byJob.get(job);
        return expected == null ? Optional.empty()
                : expected.values().stream().min(Instant::compareTo).map(at -> at.plus(TIMEOUT));
    }

    /** Forgets a job that is gone. */
    void forget(ObjectKey job) {
        byJob.remove(job);
    }

    private void forget(ObjectKey job, String pod) {
        Map<String, Instant> expected = byJob.get(job);
        if (expected != null) {
            expected.remove(pod);
        }
    }
}
