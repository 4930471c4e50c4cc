package dev.muster.scheduler;

import dev.muster.api.PodPhase;
import dev.muster.api.PodPreemption;
import dev.muster.api.scheduling.v1alpha1.PodGroup;
import dev.muster.scheduler.core.model.GroupKey;
import dev.muster.scheduler.core.placement.PodPlacement;
import dev.muster.scheduler.core.preemption.Eviction;
import io.fabric8.kubernetes.api.model.DeleteOptionsBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.policy.v1.EvictionBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.dsl.base.PatchContext;
import io.fabric8.kubernetes.client.dsl.base.PatchType;
import io.fabric8.kubernetes.client.informers.cache.Cache;
import io.fabric8.kubernetes.client.informers.cache.Store;
import io.fabric8.kubernetes.client.utils.Serialization;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.net.HttpURLConnection;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;
import java.util.function.BiConsumer;

/**
 * Acts on a cycle's evictions, on the API executor so that the cycle thread never waits for the API server.
 * Each pod is first marked as kube-scheduler marks its victims ({@link PodPreemption}: condition
 * {@code DisruptionTarget=True}, reason {@code PreemptionByScheduler}, the message naming the preemptor and
 * the rule), by a strategic merge patch of the status that merges conditions by type and so cannot clobber
 * another writer's, then evicted through the Eviction API with the pod's uid as a precondition, so that
 * PodDisruptionBudgets are respected and a pod recreated under the same name is never evicted in its place.
 * The API server gives an evicted pod its own {@code DisruptionTarget} condition (reason
 * {@code EvictionByEvictionAPI}), replacing the scheduler's, so the pod is marked again once evicted: the Job
 * and PodGroup controllers tell a preempted pod from a failed one by the scheduler's reason.
 *
 * <p>A pod already gone (404, or another pod under its name: 409) is fine: its room is free; a 409 while the
 * victim is still there under its uid is tried again, up to five times. An eviction
 * a PodDisruptionBudget refuses (429) deletes nothing: the pod's mark is set back to False, and the refusal
 * is logged, counted and recorded as an Event on the preemptor, whose promised room then is not there; the victim's remaining pods are not evicted, so a
 * whole-gang eviction stops at the first refusal. If some of a whole gang's pods went before a refusal,
 * the gang is left below its minimum: that is logged, recorded on the gang and counted as a broken gang.
 * Any other failure (a 5xx, a timeout, the scheduler stopping) sets the mark back to False too: a running pod
 * marked as a victim would no longer be counted by the Job and PodGroup controllers, which could send its gang
 * back to Pending while it still holds its nodes.
 *
 * <p>Setting a mark back can fail as well, and a leader can stop between marking and evicting. So the
 * scheduler also sweeps ({@link #sweepStaleMarks}), on its first cycle and every {@link #SWEEP_PERIOD}: a pod
 * marked by the scheduler that is neither being deleted nor finished, and for which this evictor has no
 * eviction pending, gets its mark set back to False, as kube-controller-manager's disruption controller
 * resets the {@code DisruptionTarget} conditions that no deletion followed. The sweep reads the pod fresh and
 * patches it with that resourceVersion, so an eviction that started meanwhile makes the API server refuse it.
 *
 * <p>A whole gang that lost pods gets its eviction count in annotation {@link #EVICTIONS_ANNOTATION}, so that
 * victim selection ("the least evicted") survives a restart of the scheduler. The count is written by a
 * JSON merge patch carrying the PodGroup's resourceVersion, retried on a conflict with the fresh count.
 */
final class PodEvictor {
    /** Annotation on a PodGroup: how many times the scheduler evicted the whole gang. */
    static final String EVICTIONS_ANNOTATION = "scheduling.muster.dev/evictions";
    private static final Logger log = LoggerFactory.getLogger(PodEvictor.class);
    private static final int MAX_CONFLICT_RETRIES = 5;
    /** How often the scheduler sweeps for marks that no eviction followed. */
    static final Duration SWEEP_PERIOD = Duration.ofMinutes(1);

    private final KubernetesClient client;
    private final Store<Pod> pods;
    private final Store<PodGroup> podGroups;
    private final SchedulingEvents events;
    private final SchedulerMetrics metrics;
    private final Executor executor;
    private final Clock clock;
    private final BiConsumer<String, String> notEvicted;
    /** Pods (namespace/name) whose eviction is queued or under way: their marks are not stale. */
    private final Set<String> pending = ConcurrentHashMap.newKeySet();
    private Instant lastSweep;

    /**
     * @param pods      the pod informer's store, for each victim's uid
     * @param podGroups the PodGroup informer's store, for the eviction count
     * @param executor   runs the API calls
     * @param notEvicted told, on the executor, the namespace and name of each pod whose eviction was refused
     *                   or failed, or was not attempted after a refusal: it stays
     */
    PodEvictor(KubernetesClient client, Store<Pod> pods, Store<PodGroup> podGroups, SchedulingEvents events,
               SchedulerMetrics metrics, Executor executor, Clock clock, BiConsumer<String, String> notEvicted) {
        this.client = client;
        this.pods = pods;
        this.podGroups = podGroups;
        this.events = events;
        this.metrics = metrics;
        this.executor = executor;
        this.clock = clock;
        this.notEvicted = notEvicted;
    }

    /**
     * Records the preemption Events and starts evicting each victim's pods; returns at once.
     *
     * @param uids the uid of each victim pod ({@code namespace/name}) as the decision saw it: a pod under that
     *             name with another uid is a newcomer, and is neither marked nor evicted
     */
    void evictAll(List<Eviction> evictions, Map<String, String> uids) {
        events.reportPreemptions(evictions);
        for (Eviction eviction : evictions) {
            log.info("{}: evicting {} pod(s){} for {}: {}", eviction.victim(), eviction.pods().size(),
                    eviction.wholeGang() ? ", the whole gang," : " beyond its minimum", eviction.preemptor(),
                    eviction.message());
            List<String> keys = eviction.pods().stream()
                    .map(p -> Cache.namespaceKeyFunc(p.pod().namespace(), p.pod().name())).toList();
            pending.addAll(keys);
            try {
                executor.execute(() -> evict(eviction, uids));
            } catch (RejectedExecutionException stopping) {
                // The scheduler is stopping; the next one decides again from what is running.
                keys.forEach(pending::remove);
                return;
            }
        }
    }

    private void evict(Eviction eviction, Map<String, String> uids) {
        int evicted = 0;
        List<PodPlacement> victims = eviction.pods();
        try {
            for (int i = 0; i < victims.size(); i++) {
                PodPlacement placement = victims.get(i);
                String namespace = placement.pod().namespace();
                String name = placement.pod().name();
                String key = Cache.namespaceKeyFunc(namespace, name);
                Pod pod = pods.getByKey(key);
                String uid = uids.get(key);
                if (pod == null || uid == null || !uid.equals(pod.getMetadata().getUid())) {
                    // Gone, or replaced by a pod the decision did not see: the victim's room is free.
                    continue;
                }
                Outcome outcome = evictOne(pod, eviction);
                if (outcome == Outcome.REFUSED) {
                    refused(eviction, key, evicted);
                    victims.subList(i, victims.size())
                            .forEach(stays -> notEvicted.accept(stays.pod().namespace(), stays.pod().name()));
                    return;
                }
                if (outcome == Outcome.EVICTED) {
                    evicted++;
                }
            }
        } finally {
            // Whatever happened, nothing is pending for these pods any more: a mark left behind is stale.
            victims.forEach(p -> pending.remove(Cache.namespaceKeyFunc(p.pod().namespace(), p.pod().name())));
        }
        if (eviction.wholeGang() && evicted > 0 && !eviction.victim().standalonePod()) {
            countEviction(eviction.victim());
        }
    }

    /** What became of one pod's eviction. */
    private enum Outcome { EVICTED, GONE, REFUSED, FAILED }

    /** Marks, evicts and marks again one pod; takes its mark back on any failure but its going. */
    private Outcome evictOne(Pod pod, Eviction eviction) {
        String namespace = pod.getMetadata().getNamespace();
        String name = pod.getMetadata().getName();
        try {
            markTarget(pod, eviction);
            Outcome outcome = requestEviction(pod);
            if (outcome == Outcome.REFUSED) {
                unmarkTarget(pod, "A PodDisruptionBudget refused the eviction; the pod stays");
            }
            if (outcome != Outcome.EVICTED) {
                return outcome;
            }
            metrics.podEvicted(eviction.rule());
        } catch (KubernetesClientException e) {
            if (e.getCode() == HttpURLConnection.HTTP_NOT_FOUND) {
                return Outcome.GONE;
            }
            log.warn("evicting pod {}/{} for {} failed: {}", namespace, name, eviction.preemptor(), e.getMessage());
            metrics.evictionFailed();
            unmarkTarget(pod, "The eviction failed (" + e.getCode() + "); the pod stays");
            notEvicted.accept(namespace, name);
            return Outcome.FAILED;
        }
        try {
            markTarget(pod, eviction);
        } catch (KubernetesClientException e) {
            // Gone already (deleted at once by this eviction) or unreachable: the API server's own mark stays.
            log.debug("pod {}/{}: evicted, not marked again: {}", namespace, name, e.getMessage());
        }
        log.debug("evicted pod {}/{} for {}", namespace, name, eviction.preemptor());
        return Outcome.EVICTED;
    }

    /**
     * Asks the Eviction API to evict the pod, with its uid as a precondition: {@code EVICTED}, {@code REFUSED} by a
     * PodDisruptionBudget, or {@code GONE} when a newcomer took the victim's name (its mark, set by name, is taken
     * back). A conflict while the victim is still there is a lost race inside the API server, not a newcomer: it
     * is tried again, since giving up would leave one member of an evicted gang running. Other failures throw.
     */
    private Outcome requestEviction(Pod pod) {
        String namespace = pod.getMetadata().getNamespace();
        String name = pod.getMetadata().getName();
        for (int attempt = 1; ; attempt++) {
            try {
                boolean done = client.pods().inNamespace(namespace).withName(name).evict(new EvictionBuilder()
                        .withNewMetadata().withNamespace(namespace).withName(name).endMetadata()
                        .withDeleteOptions(new DeleteOptionsBuilder().withNewPreconditions()
                                .withUid(pod.getMetadata().getUid()).endPreconditions().build())
                        .build());
                return done ? Outcome.EVICTED : Outcome.REFUSED;
            } catch (KubernetesClientException e) {
                if (e.getCode() != HttpURLConnection.HTTP_CONFLICT) {
                    throw e;
                }
                if (!stillThere(pod)) {
                    unmarkTarget(pod, "The pod the scheduler meant to evict was replaced; this one stays");
                    return Outcome.GONE;
                }
                if (attempt == MAX_CONFLICT_RETRIES) {
                    throw e;
                }
                log.debug("pod {}/{}: eviction conflicted (attempt {}), trying again: {}", namespace, name, attempt,
                        e.getMessage());
            }
        }
    }

    /**
     * Whether the pod is still there under the same uid, read from the API server: after a 409 it tells a lost
     * race from a newcomer under the victim's name. A pod that cannot be read is taken to be there, so that the
     * eviction counts as failed and its mark is taken back.
     */
    private boolean stillThere(Pod pod) {
        try {
            Pod fresh = client.pods().inNamespace(pod.getMetadata().getNamespace()).withName(pod.getMetadata().getName())
                    .get();
            return fresh != null && pod.getMetadata().getUid().equals(fresh.getMetadata().getUid());
        } catch (KubernetesClientException e) {
            return true;
        }
    }

    /**
     * Starts a sweep of stale marks on the API executor if none ran within {@link #SWEEP_PERIOD}; called by
     * every scheduling cycle, so the first cycle of a new leader sweeps.
     */
    void sweepIfDue(Instant now) {
        if (lastSweep != null && now.isBefore(lastSweep.plus(SWEEP_PERIOD))) {
            return;
        }
        lastSweep = now;
        try {
            executor.execute(this::sweepStaleMarks);
        } catch (RejectedExecutionException stopping) {
            // The next leader sweeps on its first cycle.
        }
    }

    /**
     * Sets back to False the mark of every pod that is marked, running or waiting, not being deleted, and for
     * which no eviction is pending; returns how many it set back.
     */
    int sweepStaleMarks() {
        int reset = 0;
        for (Pod cached : pods.list()) {
            if (!hasStaleMark(cached) || pending.contains(Cache.metaNamespaceKeyFunc(cached))) {
                continue;
            }
            String namespace = cached.getMetadata().getNamespace();
            String name = cached.getMetadata().getName();
            try {
                Pod fresh = client.pods().inNamespace(namespace).withName(name).get();
                if (fresh == null || !hasStaleMark(fresh) || pending.contains(Cache.metaNamespaceKeyFunc(fresh))) {
                    continue;
                }
                patchDisruptionTarget(fresh, "False", "No eviction followed the scheduler's mark; the pod stays",
                        fresh.getMetadata().getResourceVersion());
                reset++;
                log.info("pod {}/{}: marked for preemption with no eviction pending; mark set back to False",
                        namespace, name);
            } catch (KubernetesClientException e) {
                // A 409 means the pod changed since it was read (an eviction may have begun); the next sweep decides.
                log.debug("pod {}/{}: stale preemption mark not set back: {}", namespace, name, e.getMessage());
            }
        }
        return reset;
    }

    /** Whether the pod carries the scheduler's mark and is neither being deleted nor finished. */
    static boolean hasStaleMark(Pod pod) {
        return PodPreemption.isPreempted(pod) && pod.getMetadata().getDeletionTimestamp() == null
                && !PodPhase.isFinished(pod);
    }

    /** Marks the pod as a preemption victim. */
    private void markTarget(Pod pod, Eviction eviction) {
        patchDisruptionTarget(pod, "True", GangScheduler.COMPONENT + ": preempting to make room for "
                + eviction.preemptor() + " (" + eviction.rule().reason() + ")", null);
    }

    /**
     * Sets the mark of a pod that stays back to False: it is no preemption victim to the controllers. If that
     * fails too, the sweep sets it back later.
     */
    private void unmarkTarget(Pod pod, String why) {
        try {
            patchDisruptionTarget(pod, "False", why, null);
        } catch (KubernetesClientException e) {
            log.warn("pod {}/{}: could not take back its preemption mark (the next sweep will): {}",
                    pod.getMetadata().getNamespace(), pod.getMetadata().getName(), e.getMessage());
        }
    }

    /**
     * Sets the pod's {@code DisruptionTarget} condition (reason {@code PreemptionByScheduler}), a strategic merge
     * on its status, which merges conditions by type; with a resourceVersion, the API server refuses it (409) if
     * the pod changed since.
     */
    private void patchDisruptionTarget(Pod pod, String status, String message, String resourceVersion) {
        Map<String, Object> condition = Map.of("status", Map.of("conditions", List.of(Map.of(
                "type", PodPreemption.DISRUPTION_TARGET, "status", status,
                "reason", PodPreemption.PREEMPTION_BY_SCHEDULER, "message", message,
                "lastTransitionTime", clock.instant().truncatedTo(ChronoUnit.SECONDS).toString()))));
        Map<String, Object> patch = new HashMap<>(condition);
        if (resourceVersion != null) {
            patch.put("metadata", Map.of("resourceVersion", resourceVersion));
        }
        client.pods().inNamespace(pod.getMetadata().getNamespace()).withName(pod.getMetadata().getName())
                .subresource("status")
                .patch(PatchContext.of(PatchType.STRATEGIC_MERGE), Serialization.asJson(patch));
    }

    private void refused(Eviction eviction, String pod, int evictedBefore) {
        metrics.evictionRefused();
        log.warn("{}: a PodDisruptionBudget refused the eviction of pod {} for {}; {} of its pods were evicted",
                eviction.victim(), pod, eviction.preemptor(), evictedBefore);
        events.reportEvictionRefused(eviction, pod);
        if (eviction.wholeGang() && evictedBefore > 0) {
            metrics.gangBroken();
            log.warn("{}: left below its minimum: {} pod(s) evicted before a PodDisruptionBudget refused the rest",
                    eviction.victim(), evictedBefore);
            events.reportGangBroken(eviction, evictedBefore);
        }
    }

    /** Adds one to the gang's eviction count, on the PodGroup's resourceVersion. */
    private void countEviction(GroupKey gang) {
        PodGroup podGroup = podGroups.getByKey(Cache.namespaceKeyFunc(gang.namespace(), gang.name()));
        for (int attempt = 1; attempt <= MAX_CONFLICT_RETRIES && podGroup != null; attempt++) {
            int count = KubeObjects.evictions(podGroup) + 1;
            Map<String, Object> patch = Map.of("metadata", Map.of(
                    "resourceVersion", podGroup.getMetadata().getResourceVersion(),
                    "annotations", Map.of(EVICTIONS_ANNOTATION, String.valueOf(count))));
            try {
                client.resources(PodGroup.class).inNamespace(gang.namespace()).withName(gang.name())
                        .patch(PatchContext.of(PatchType.JSON_MERGE), Serialization.asJson(patch));
                return;
            } catch (KubernetesClientException e) {
                if (e.getCode() != HttpURLConnection.HTTP_CONFLICT) {
                    log.warn("{}: could not record its eviction count: {}", gang, e.getMessage());
                    return;
                }
                podGroup = client.resources(PodGroup.class).inNamespace(gang.namespace()).withName(gang.name()).get();
            }
        }
    }
}
