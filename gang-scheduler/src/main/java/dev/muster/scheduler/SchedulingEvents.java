package dev.muster.scheduler;

import dev.muster.api.scheduling.v1alpha1.PodGroupCondition;
import dev.muster.api.PodPreemption;
import dev.muster.api.scheduling.v1alpha1.PodGroup;
import dev.muster.scheduler.core.model.GroupKey;
import dev.muster.scheduler.core.model.MissingPodGroup;
import dev.muster.scheduler.core.model.PodInfo;
import dev.muster.scheduler.core.placement.GangPlacement;
import dev.muster.scheduler.core.preemption.Eviction;
import dev.muster.scheduler.core.queue.QueueHold;
import dev.muster.support.event.EventRecorder;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.client.informers.cache.Cache;
import io.fabric8.kubernetes.client.informers.cache.Store;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.SortedSet;
import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;
import java.util.stream.Collectors;

/**
 * Records a {@code FailedScheduling} Warning event on a PodGroup (or on the pod of a gang of one) each
 * time why it waits changes (none when it is admitted before its pods exist: the group's phase and its
 * Job's status say that), and a {@code Scheduled} Normal event when it is placed: one event per
 * distinct reason, not one per cycle, so {@code kubectl describe} stays readable however often cycles run.
 * A pod whose PodGroup does not exist gets one {@code PodGroupNotFound} Warning event on itself, since
 * there is no PodGroup to record it on. A gang whose pods use pod spec fields the scheduler does not
 * evaluate gets one {@code PodSpecNotEvaluated} Warning event naming them, again only when they change.
 * Each preemption is an event on both sides: {@code Preempted} on the victim, naming the preemptor and the
 * rule, and {@code Preempting} on the preemptor, naming its victims; an eviction a PodDisruptionBudget
 * refuses is an {@code EvictionRefused} Warning on the preemptor, and a gang left below its minimum by one a
 * {@code GangBroken} Warning on the gang.
 */
final class SchedulingEvents {
    static final String FAILED_SCHEDULING = "FailedScheduling";
    static final String SCHEDULED = "Scheduled";
    static final String POD_GROUP_NOT_FOUND = "PodGroupNotFound";
    static final String POD_SPEC_NOT_EVALUATED = "PodSpecNotEvaluated";
    static final String PREEMPTING = "Preempting";
    static final String EVICTION_REFUSED = "EvictionRefused";
    static final String GANG_BROKEN = "GangBroken";

    private final EventRecorder recorder;
    private final Store<PodGroup> podGroups;
    private final Store<Pod> pods;
    private final Executor executor;
    /** The last event recorded per gang still waiting, as reason and message. */
    private Map<GroupKey, String> recorded = new HashMap<>();
    /** Per gang whose pods use fields the scheduler does not evaluate, the fields it was told of. */
    private Map<GroupKey, SortedSet<String>> toldNotEvaluated = new HashMap<>();
    /** Per pod waiting for a missing PodGroup, the message of the event it got. */
    private Map<String, String> toldMissing = new HashMap<>();

    /** Set once, from the thread that starts the scheduler, read by the cycle's. */
    private volatile Store<GenericKubernetesResource> workloadPodGroups;

    SchedulingEvents(EventRecorder recorder, Store<PodGroup> podGroups, Store<Pod> pods, Executor executor) {
        this.recorder = recorder;
        this.podGroups = podGroups;
        this.pods = pods;
        this.executor = executor;
    }

    /**
     * Records what changed since the last cycle; gangs absent from {@code results} and {@code holds} are
     * forgotten. A held gang gets a {@code FailedScheduling} Warning with the hold's message.
     */
    void report(List<GangPlacement> results, List<QueueHold> holds) {
        Map<GroupKey, String> now = new HashMap<>();
        Map<GroupKey, SortedSet<String>> notEvaluatedNow = new HashMap<>();
        for (GangPlacement result : results) {
            if (result.outcome() == GangPlacement.Outcome.WITHDRAWN) {
                continue;
            }
            GroupKey key = result.gang().key();
            SortedSet<String> fields = result.notEvaluated();
            if (!fields.isEmpty()) {
                notEvaluatedNow.put(key, fields);
                if (!fields.equals(toldNotEvaluated.get(key))) {
                    record(key, EventRecorder.WARNING, POD_SPEC_NOT_EVALUATED, "The scheduler does not evaluate "
                            + String.join(", ", fields) + " of the gang's pods; they are placed as if absent.");
                }
            }
            boolean admitted = result.outcome() == GangPlacement.Outcome.ADMITTED;
            String reason = result.placed() ? SCHEDULED : admitted ? PodGroupCondition.REASON_ADMITTED : FAILED_SCHEDULING;
            String message = result.placed() || admitted ? result.message() : result.pendingPodMessage();
            String event = reason + ": " + message;
            now.put(key, event);
            // Only a Job's gang is admitted, and its Job's status and the group's phase (Inqueue) and condition
            // say so already: an Event too cost one more request per Job, as kube-scheduler and Volcano record
            // none for it. Remembered all the same, so that what follows an admission is told.
            if (!admitted && !event.equals(recorded.get(key))) {
                record(key, result.placed() ? EventRecorder.NORMAL : EventRecorder.WARNING, reason, message);
            }
        }
        for (QueueHold hold : holds) {
            GroupKey key = hold.gang().key();
            String event = FAILED_SCHEDULING + ": " + hold.message();
            now.put(key, event);
            if (!event.equals(recorded.get(key))) {
                record(key, EventRecorder.WARNING, FAILED_SCHEDULING, hold.message());
            }
        }
        recorded = now;
        toldNotEvaluated = notEvaluatedNow;
    }

    /**
     * Tells each pod waiting for a missing PodGroup once, not every cycle; a pod that stops waiting is
     * forgotten, so it is told again if its group goes missing again.
     */
    void reportMissing(List<MissingPodGroup> missing) {
        Map<String, String> now = new HashMap<>();
        for (MissingPodGroup group : missing) {
            for (PodInfo pod : group.pods()) {
                String key = Cache.namespaceKeyFunc(pod.namespace(), pod.name());
                now.put(key, group.message());
                if (!group.message().equals(toldMissing.get(key))) {
                    record(pods.getByKey(key), EventRecorder.WARNING, POD_GROUP_NOT_FOUND, group.message());
                }
            }
        }
        toldMissing = now;
    }

    /** Records one cycle's preemptions: one event per victim gang and one per preemptor. */
    void reportPreemptions(List<Eviction> evictions) {
        Map<GroupKey, List<Eviction>> byPreemptor = new LinkedHashMap<>();
        for (Eviction eviction : evictions) {
            record(eviction.victim(), EventRecorder.NORMAL, PodPreemption.PREEMPTED, eviction.message());
            byPreemptor.computeIfAbsent(eviction.preemptor(), key -> new ArrayList<>()).add(eviction);
        }
        byPreemptor.forEach((preemptor, victims) -> record(preemptor, EventRecorder.NORMAL, PREEMPTING,
                "Evicting " + victims.stream().map(SchedulingEvents::victim).collect(Collectors.joining(", "))
                        + " (" + victims.get(0).rule().reason() + ")"));
    }

    /** A PodDisruptionBudget refused the eviction of {@code pod}: the preemptor's room is not freed. */
    void reportEvictionRefused(Eviction eviction, String pod) {
        record(eviction.preemptor(), EventRecorder.WARNING, EVICTION_REFUSED, "A PodDisruptionBudget refused the "
                + "eviction of pod " + pod + " of " + eviction.victim() + "; the room it was to free is not there");
    }

    /** Some of a whole gang's pods were evicted before the rest were refused: it runs below its minimum. */
    void reportGangBroken(Eviction eviction, int evicted) {
        record(eviction.victim(), EventRecorder.WARNING, GANG_BROKEN, evicted + " pod(s) were evicted for "
                + eviction.preemptor() + " before a PodDisruptionBudget refused the rest; the gang runs below "
                + "its minimum");
    }

    /** A victim for the preemptor's event, e.g. {@code default/a-7 (4 pods, the whole gang)}. */
    private static String victim(Eviction eviction) {
        return eviction.victim() + " (" + eviction.pods().size() + " pod(s)"
                + (eviction.wholeGang() ? ", the whole gang)" : " beyond its minimum)");
    }

    /** Gangs of Kubernetes PodGroups ({@link WorkloadPodGroups}) get their Events on them, once they are watched. */
    void workloadPodGroups(Store<GenericKubernetesResource> store) {
        workloadPodGroups = store;
    }

    private void record(GroupKey key, String type, String reason, String message) {
        Optional<String> workloadPodGroup = key.workloadPodGroupName();
        Store<GenericKubernetesResource> kubernetesGroups = workloadPodGroups;
        if (workloadPodGroup.isPresent()) {
            if (kubernetesGroups != null) {
                record(kubernetesGroups.getByKey(Cache.namespaceKeyFunc(key.namespace(), workloadPodGroup.get())),
                        type, reason, message);
            }
            return;
        }
        String storeKey = Cache.namespaceKeyFunc(key.namespace(), key.name());
        record(key.standalonePod() ? pods.getByKey(storeKey) : podGroups.getByKey(storeKey), type, reason, message);
    }

    private void record(HasMetadata about, String type, String reason, String message) {
        if (about == null) {
            return;
        }
        try {
            executor.execute(() -> recorder.record(about, type, reason, message));
        } catch (RejectedExecutionException stopping) {
            // The scheduler is stopping; the event would describe a decision nobody acts on any more.
        }
    }
}
