package dev.muster.job;

import dev.muster.support.controller.ObjectKey;
import io.fabric8.kubernetes.api.model.Pod;

import java.util.Collection;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.stream.Collectors;

/**
 * Deletion expectations: the pods the controller deleted, per job, until the cache no longer shows them.
 * The cache lags the API server, so right after a delete it can still show a pod as if nothing happened;
 * without this, the pod that failed and was restarted would trigger its policy again and use a second
 * retry, and Restarting would end before the pod is really gone. In memory only: a new controller
 * starts from a fresh list, where deleted pods are already marked as being deleted or absent.
 */
final class DeletedPods {
    private final Map<ObjectKey, Set<String>> byJob = new ConcurrentHashMap<>();

    /** Records pods the controller has just deleted. */
    void add(ObjectKey job, Collection<Pod> pods) {
        if (!pods.isEmpty()) {
            byJob.computeIfAbsent(job, k -> ConcurrentHashMap.newKeySet())
                    .addAll(pods.stream().map(p -> p.getMetadata().getUid()).toList());
        }
    }

    /**
     * The uids of deleted pods the cache still shows among {@code cached}; forgets the others, which are
     * gone. A job's key is reconciled by one worker at a time, so this does not race with {@link #add}.
     */
    Set<String> stillCached(ObjectKey job, Collection<Pod> cached) {
        Set<String> deleted = byJob.get(job);
        if (deleted == null) {
            return Set.of();
        }
        Set<String> present = cached.stream().map(p -> p.getMetadata().getUid()).collect(Collectors.toSet());
        deleted.retainAll(present);
        if (deleted.isEmpty()) {
            byJob.remove(job);
            return Set.of();
        }
        return Set.copyOf(deleted);
    }

    /** Forgets a job that is gone. */
    void forget(ObjectKey job) {
        byJob.remove(job);
    }
}
