package dev.muster.scheduler.core.preemption;

import dev.muster.scheduler.core.cluster.ClusterSnapshot;
import dev.muster.scheduler.core.model.GroupKey;
import dev.muster.scheduler.core.model.PendingGang;
import dev.muster.scheduler.core.model.PodInfo;
import dev.muster.scheduler.core.model.ResourceVector;
import dev.muster.scheduler.core.placement.GangPlacement;
import dev.muster.scheduler.core.placement.GangTrial;
import dev.muster.scheduler.core.placement.LocalityDomains;
import dev.muster.scheduler.core.placement.NodeNamePin;
import dev.muster.scheduler.core.placement.PlacementStatement;
import dev.muster.scheduler.core.placement.PodPlacement;
import dev.muster.scheduler.core.queue.QueueLedger;

import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.HashMap;
import java.util.HashSet;
import java.util.IdentityHashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;
import java.util.stream.Stream;

/**
 * The room freed by evictions, promised to the gangs it was freed for until they bind. While a
 * preemptor's victims terminate, the pods still on their nodes count for the preemptor's queue, not the
 * victim's, so that no second round of evictions is made for the same room, and on each node of the
 * preemptor's placement the room it needs there beyond what its victims still hold (what departed victims
 * freed, and room that was free already when the victims were chosen) is kept for it before any other gang
 * is tried. Once
 * every victim is gone the preemptor is tried first, each pod on the node its victim search placed it on.
 * A promise ends when the preemptor binds (or is admitted), leaves, or still does not fit once every victim
 * is gone (something else took the room): it then waits as any gang does.
 */
public final class Promises {
    private final Map<GroupKey, Promise> byGang = new LinkedHashMap<>();

    /**
     * A promise.
     *
     * @param victims the pods evicted for the gang, with their nodes
     * @param nodes   per pod of the gang the victim search placed (by name), its node: only these pods
     *                are tried, each on its node, so that the gang's other pods, or its pods landing
     *                elsewhere, do not take room free for others or promised to another preemptor
     * @param needs   per node of the placement (by name), what the gang's pods placed there request
     */
    record Promise(List<PodPlacement> victims, Map<String, String> nodes, Map<String, ResourceVector> needs) {
    }

    /** Promises the room of a preemption to its preemptor. */
    public void add(Preemption preemption) {
        Map<String, String> nodes = new HashMap<>();
        Map<String, ResourceVector> needs = new HashMap<>();
        preemption.placement().placements().forEach(p -> {
            nodes.put(p.pod().name(), p.nodeName());
            needs.merge(p.nodeName(), p.pod().requests(), ResourceVector::plus);
        });
        byGang.put(preemption.preemptor(), new Promise(preemption.evictedPods(), nodes, needs));
    }

    /**
     * Tries the promised gang as its promise lets it, once every victim is gone: only the pods the
     * preemption placed (all its pods when it waits for admission), each on its node. Its other pods are
     * left unplaced in the result.
     *
     * <p>Until then, on each node of its placement, the room it needs there beyond what its victims still
     * on the node hold is kept on the trial's snapshot, as far as it is free, and the result is a
     * reservation ({@link GangPlacement.Outcome#RESERVED}): no more than that room, so that another
     * promise's room on the same nodes stays that promise's. That room is what its departed victims freed
     * and what was free already when the victims were chosen: a pod of a whole node counted on both, and
     * either given to another gang meanwhile (the evicted gangs, waiting to be admitted again, first of all)
     * would leave it short once its last victim left, to preempt again. Trying the gang meanwhile would take
     * the whole quorum's room or none (an admission), or keep whatever part of its nodes is free, other
     * promises' room included.
     */
    public GangPlacement attempt(GangTrial trial, PendingGang gang, ClusterSnapshot snapshot) {
        List<PodPlacement> terminating = terminating(gang.gang().key(), snapshot);
        List<PodPlacement> holdingClaims = goneHoldingClaims(gang.gang().key(), snapshot);
        if (!terminating.isEmpty() || !holdingClaims.isEmpty()) {
            keepRoom(trial, gang.gang().key(), byGang.get(gang.gang().key()), terminating, snapshot);
            String victims = Stream.concat(terminating.stream(), holdingClaims.stream())
                    .map(victim -> victim.pod().group().toString()).distinct().sorted()
                    .collect(Collectors.joining(", "));
            List<String> why = new ArrayList<>();
            if (!terminating.isEmpty()) {
                why.add(terminating.size() + " pod(s) of " + victims + " evicted for it are still terminating");
            }
            if (!holdingClaims.isEmpty()) {
                why.add("the ResourceClaims of " + holdingClaims.size() + " pod(s) of " + victims
                        + " evicted for it are still allocated");
            }
            return new GangPlacement(gang.gang(), GangPlacement.Outcome.RESERVED, List.of(), gang.pending(), null,
                    String.join("; ", why) + "; their room is held for it.");
        }
        LocalityDomains.Pinned pinned = promised(gang);
        GangPlacement result = pinned.unpin(gang.waitsForAdmission() ? trial.admit(pinned.gang())
                : trial.attempt(pinned.gang()));
        Set<PodInfo> placed = Collections.newSetFromMap(new IdentityHashMap<>());
        result.placements().forEach(p -> placed.add(p.pod()));
        List<PodInfo> unplaced = gang.pending().stream().filter(pod -> !placed.contains(pod)).toList();
        return new GangPlacement(result.gang(), result.outcome(), result.placements(), unplaced,
                result.unschedulable(), result.message(), result.nearQuorum());
    }

    /**
     * Holds on the trial's snapshot, on each node of the promise's placement, what the gang needs there
     * beyond what its remaining victims on the node request, as far as the node has it free (pods bound
     * since by another scheduler may have taken some), as one stand-in pod of no gang.
     */
    private static void keepRoom(GangTrial trial, GroupKey gang, Promise promise, List<PodPlacement> remaining,
                                 ClusterSnapshot snapshot) {
        Map<String, long[]> stillHeld = new HashMap<>();
        remaining.forEach(victim -> QueueLedger.add(stillHeld.computeIfAbsent(victim.nodeName(),
                node -> new long[ResourceVector.dimensionCount()]), victim.pod().requests(), 1));
        PlacementStatement statement = trial.statement();
        promise.needs().forEach((nodeName, needed) -> snapshot.node(nodeName).ifPresent(node -> {
            long[] held = stillHeld.getOrDefault(nodeName, new long[0]);
            ResourceVector allocatable = node.info().allocatable();
            ResourceVector.Builder hold = ResourceVector.builder();
            for (int d = 0; d < needed.length(); d++) {
                long free = allocatable.at(d) - node.requested(d);
                long amount = Math.min(free, needed.at(d) - (d < held.length ? held[d] : 0));
                if (d != ResourceVector.PODS_DIM && amount > 0) {
                    hold.set(ResourceVector.nameOf(d), amount);
                }
            }
            ResourceVector room = hold.build();
            if (!room.asMap().isEmpty()) {
                statement.allocate(new PodInfo(gang.namespace(), "promised-to-" + gang.name() + "-on-" + nodeName,
                        GroupKey.standalonePod(gang.namespace(), "promised-to-" + gang.name()), "", 0, room,
                        Map.of()), node);
            }
        }));
        statement.commit();
    }

    /**
     * The gang as its promise lets it be tried: the pods the preemption placed (all its pods when it waits
     * for admission), each pinned to the node it placed it on.
     */
    private LocalityDomains.Pinned promised(PendingGang gang) {
        Promise promise = byGang.get(gang.gang().key());
        List<PodInfo> pods = gang.pending().stream().filter(pod -> promise.nodes().containsKey(pod.name())).toList();
        PendingGang only = pods.isEmpty() ? gang : gang.withPending(pods);
        return NodeNamePin.pin(only, pod -> {
            String node = promise.nodes().get(pod.name());
            return node == null ? Set.copyOf(promise.nodes().values()) : Set.of(node);
        });
    }

    /** Whether room is promised to the gang. */
    public boolean has(GroupKey gang) {
        return byGang.containsKey(gang);
    }

    /** Forgets the gang's promise, e.g. once it is placed. */
    public void drop(GroupKey gang) {
        byGang.remove(gang);
    }

    /** Forgets the promises of gangs that no longer wait. */
    public void retain(Collection<PendingGang> waiting) {
        Set<GroupKey> present = new HashSet<>();
        waiting.forEach(gang -> present.add(gang.gang().key()));
        byGang.keySet().retainAll(present);
    }

    /** The promised gangs, oldest promise first. */
    public Set<GroupKey> gangs() {
        return byGang.keySet();
    }

    /** The pods evicted for every promise, as namespace/name: they are terminating, so no victim again. */
    public Set<String> evicted() {
        Set<String> pods = new HashSet<>();
        byGang.values().forEach(promise -> promise.victims().forEach(victim -> pods.add(key(victim.pod()))));
        return pods;
    }

    /** A pod's key, {@code namespace/name}, as {@link #evicted()} names pods. */
    public static String key(PodInfo pod) {
        return pod.namespace() + "/" + pod.name();
    }

    /** The victims of the gang's promise still on their nodes in the snapshot. */
    private List<PodPlacement> terminating(GroupKey gang, ClusterSnapshot snapshot) {
        return byGang.get(gang).victims().stream().filter(victim -> onNode(victim, snapshot)).toList();
    }

    /**
     * The victims of the gang's promise that are gone with a ResourceClaim still allocated for none but the promise's
     * victims: its devices are free only once the resourceclaim controller has deallocated or deleted it, and until
     * the informer shows that, the gang would not fit.
     */
    private List<PodPlacement> goneHoldingClaims(GroupKey gang, ClusterSnapshot snapshot) {
        List<PodPlacement> victims = byGang.get(gang).victims();
        if (victims.stream().allMatch(victim -> victim.pod().deviceClaims().isEmpty())) {
            return List.of();
        }
        Set<String> victimKeys = victims.stream().map(victim -> key(victim.pod())).collect(Collectors.toSet());
        return victims.stream().filter(victim -> !onNode(victim, snapshot) && victim.pod().deviceClaims().stream()
                .anyMatch(claim -> snapshot.devices().heldOnlyFor(claim, victimKeys))).toList();
    }

    private static boolean onNode(PodPlacement victim, ClusterSnapshot snapshot) {
        return snapshot.node(victim.nodeName())
                .map(node -> node.snapshotPods().stream().anyMatch(pod -> pod.name().equals(victim.pod().name())
                        && pod.namespace().equals(victim.pod().namespace())))
                .orElse(false);
    }

    /** Counts the victims still terminating for their preemptor's queue instead of their own. */
    public void attribute(QueueLedger ledger, ClusterSnapshot snapshot) {
        byGang.forEach((gang, promise) -> {
            int to = ledger.leafOfGang(gang);
            for (PodPlacement victim : terminating(gang, snapshot)) {
                int from = ledger.leafOfGang(victim.pod().group());
                if (from >= 0 && to >= 0) {
                    ledger.allocate(from, victim.pod().requests(), -1);
                    ledger.allocate(to, victim.pod().requests(), 1);
                }
            }
        });
    }
}
