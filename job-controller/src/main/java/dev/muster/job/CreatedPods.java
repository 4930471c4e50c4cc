package dev.muster.job;

import dev.muster.api.batch.v1alpha1.JobOwnership;
import io.fabric8.kubernetes.api.model.Pod;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Creation expectations, as kube-controller-manager's controllers keep them: the pods the controller is creating or
 * has created, per job (by uid, so that a job made again under the same name starts with none), until its cache has
 * seen them. The pod cache lags the API server, and a reconcile woken by something else (the job's own status write,
 * its PodGroup's admission) can run before it shows a pod just created. Creating that pod again is not harmless:
 * kube-apiserver runs ResourceQuota admission before it finds the name taken, so in a namespace whose quota the pod
 * itself has just filled, the second creation is refused with {@code exceeded quota} instead of
 * {@code AlreadyExists}, and the job reports a failure that did not happen.
 *
 * <p>A pod is expected from just before its creation is sent; it is forgotten when the creation does not store it
 * (refused, failed, or the name taken already), when the cache's add event shows it, or after {@link #TIMEOUT},
 * kube's own bound, for a pod deleted before the cache ever saw it (a relist that skipped it). A reconcile reads a
 * job's expectations before its pods: the add event comes after the cache has the pod, so a pod either is among the
 * pods read or still expected. In memory only, and cleared when the controller starts: a new controller, or a new
 * leader, starts from a fresh list.
 */
final class CreatedPods {
    /** How long an unseen creation holds back creating its pod again: kube's {@code ExpectationsTimeout}. */
    static final Duration TIMEOUT = Duration.ofMinutes(5);

    private final Map<String, Map<String, Instant>> byJobUid = new ConcurrentHashMap<>();
    private final Clock clock;

    CreatedPods(Clock clock) {
        this.clock = clock;
    }

    /** Records that the pod named {@code pod} of the job of uid {@code job} is about to be created. */
    void expect(String job, String pod) {
        byJobUid.computeIfAbsent(job, k -> new ConcurrentHashMap<>()).put(pod, clock.instant());
    }

    /** Forgets a creation that did not store the pod, so that it is decided on again. */
    void notCreated(String job, String pod) {
        Map<String, Instant> expected = byJobUid.get(job);
        if (expected != null) {
            expected.remove(pod);
        }
    }

    /** The cache has the pod: its job's next decision sees it. */
    void observed(Pod pod) {
        JobOwnership.controllingJobUid(pod).ifPresent(job -> notCreated(job, pod.getMetadata().getName()));
    }

    /**
     * The pods of the job of uid {@code job} created and not yet seen by the cache, which must not be created again;
     * forgets those expected for longer than {@link #TIMEOUT}. Read before the job's pods are.
     */
    Set<String> expected(String job) {
        Map<String, Instant> expected = live(job);
        return expected == null ? Set.of() : Set.copyOf(expected.keySet());
    }

    /** When the oldest unseen creation of the job stops holding back its pod, if one still does. */
    Optional<Instant> nextExpiry(String job) {
        Map<String, Instant> expected = live(job);
        return expected == null ? Optional.empty()
                : expected.values().stream().min(Instant::compareTo).map(at -> at.plus(TIMEOUT));
    }

    /** Forgets every expectation: the controller starts from a fresh list. */
    void clear() {
        byJobUid.clear();
    }

    /** The job's expectations that have not run out, {@code null} when none is left. */
    private Map<String, Instant> live(String job) {
        Map<String, Instant> expected = byJobUid.get(job);
        if (expected == null) {
            return null;
        }
        Instant expiredBefore = clock.instant().minus(TIMEOUT);
        expected.values().removeIf(at -> at.isBefore(expiredBefore));
        if (expected.isEmpty()) {
            byJobUid.remove(job, expected);
            return null;
        }
        return expected;
    }
}
