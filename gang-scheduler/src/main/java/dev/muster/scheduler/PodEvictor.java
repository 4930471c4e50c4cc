package dev.muster.scheduler;

import dev.muster.api.PodPreemption;
import dev.muster.api.scheduling.v1alpha1.PodGroup;
import dev.muster.scheduler.core.Eviction;
import dev.muster.scheduler.core.GroupKey;
import dev.muster.scheduler.core.PodPlacement;
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
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.Map;
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
 * <p>A pod already gone (404, or another pod under its name: 409) is fine: its room is free. An eviction
 * a PodDisruptionBudget refuses (429) deletes nothing: the pod's mark is set back to False, and the refusal
 * is logged, counted and recorded as an Event on the preemptor, whose promised room then is not there; the victim's remaining pods are not evicted, so a
 * whole-gang eviction stops at the first refusal. If some of a whole gang's pods went before a refusal,
 * the gang is left below its minimum: that is logged, recorded on the gang and counted as a broken gang.
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

    private final KubernetesClient client;
    private final Store<Pod> pods;
    private final Store<PodGroup> podGroups;
    private final SchedulingEvents events;
    private final SchedulerMetrics metrics;
    private final Executor executor;
    private final Clock clock;
    private final BiConsumer<String, String> notEvicted;

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

    /** Records the preemption Events and starts evicting each victim's pods; returns at once. */
    void evictAll(List<Eviction> evictions) {
        events.reportPreemptions(evictions);
        for (Eviction eviction : evictions) {
            log.info("{}: evicting {} pod(s){} for {}: {}", eviction.victim(), eviction.pods().size(),
                    eviction.wholeGang() ? ", the whole gang," : " beyond its minimum", eviction.preemptor(),
                    eviction.message());
            try {
                executor.execute(() -> evict(eviction));
            } catch (RejectedExecutionException stopping) {
                // The scheduler is stopping; the next one decides again from what is running.
                return;
            }
        }
    }

    private void evict(Eviction eviction) {
        int evicted = 0;
        List<PodPlacement> victims = eviction.pods();
        for (int i = 0; i < victims.size(); i++) {
            PodPlacement placement = victims.get(i);
            String namespace = placement.pod().namespace();
            String name = placement.pod().name();
            Pod pod = pods.getByKey(Cache.namespaceKeyFunc(namespace, name));
            if (pod == null) {
                continue;
            }
            try {
                markTarget(pod, eviction);
                boolean done = client.pods().inNamespace(namespace).withName(name).evict(new EvictionBuilder()
                        .withNewMetadata().withNamespace(namespace).withName(name).endMetadata()
                        .withDeleteOptions(new DeleteOptionsBuilder().withNewPreconditions()
                                .withUid(pod.getMetadata().getUid()).endPreconditions().build())
                        .build());
                if (!done) {
                    unmarkTarget(pod);
                    refused(eviction, namespace + "/" + name, evicted);
                    victims.subList(i, victims.size())
                            .forEach(stays -> notEvicted.accept(stays.pod().namespace(), stays.pod().name()));
                    return;
                }
                evicted++;
                metrics.podEvicted(eviction.rule());
                markTarget(pod, eviction);
                log.debug("evicted pod {}/{} for {}", namespace, name, eviction.preemptor());
            } catch (KubernetesClientException e) {
                if (e.getCode() == HttpURLConnection.HTTP_NOT_FOUND || e.getCode() == HttpURLConnection.HTTP_CONFLICT) {
                    // Gone already (possibly by this eviction, before its second mark), or replaced by another
                    // pod of the same name: its room is free either way.
                    continue;
                }
                log.warn("evicting pod {}/{} for {} failed: {}", namespace, name, eviction.preemptor(), e.getMessage());
                metrics.evictionFailed();
                notEvicted.accept(namespace, name);
            }
        }
        if (eviction.wholeGang() && evicted > 0 && !eviction.victim().standalonePod()) {
            countEviction(eviction.victim());
        }
    }

    /** Marks the pod as a preemption victim. */
    private void markTarget(Pod pod, Eviction eviction) {
        patchDisruptionTarget(pod, "True", GangScheduler.COMPONENT + ": preempting to make room for "
                + eviction.preemptor() + " (" + eviction.rule().reason() + ")");
    }

    /**
     * Sets the mark of a pod whose eviction was refused back to False: the pod stays, and is no preemption
     * victim to the controllers (as kube-controller-manager resets a stale {@code DisruptionTarget}).
     */
    private void unmarkTarget(Pod pod) {
        try {
            patchDisruptionTarget(pod, "False", "A PodDisruptionBudget refused the eviction; the pod stays");
        } catch (KubernetesClientException e) {
            log.warn("pod {}/{}: could not take back its preemption mark: {}", pod.getMetadata().getNamespace(),
                    pod.getMetadata().getName(), e.getMessage());
        }
    }

    /** Sets the pod's {@code DisruptionTarget} condition (reason {@code PreemptionByScheduler}), a merge on its status. */
    private void patchDisruptionTarget(Pod pod, String status, String message) {
        Map<String, Object> patch = Map.of("status", Map.of("conditions", List.of(Map.of(
                "type", PodPreemption.DISRUPTION_TARGET, "status", status,
                "reason", PodPreemption.PREEMPTION_BY_SCHEDULER, "message", message,
                "lastTransitionTime", clock.instant().truncatedTo(ChronoUnit.SECONDS).toString()))));
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
