package dev.muster.scheduler.core;

import java.util.Collection;
import java.util.Collections;
import java.util.HashMap;
import java.util.HashSet;
import java.util.IdentityHashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The room freed by evictions, promised to the gangs it was freed for until they bind. While a
 * preemptor's victims terminate, the pods still on their nodes count for the preemptor's queue, not the
 * victim's, so that no second round of evictions is made for the same room, and the room the departed
 * victims freed is kept for the preemptor, exactly as they took it, before any other gang is tried. Once
 * every victim is gone the preemptor is tried first, each pod on the node its victim search placed it on.
 * A promise ends when the preemptor binds (or is admitted), leaves, or still does not fit once every victim
 * is gone (something else took the room): it then waits as any gang does.
 */
final class Promises {
    private final Map<GroupKey, Promise> byGang = new LinkedHashMap<>();

    /**
     * A promise.
     *
     * @param victims the pods evicted for the gang, with their nodes
     * @param nodes   per pod of the gang the victim search placed (by name), its node: only these pods
     *                are tried, each on its node, so that the gang's other pods, or its pods landing
     *                elsewhere, do not take room free for others or promised to another preemptor
     */
    record Promise(List<PodPlacement> victims, Map<String, String> nodes) {
    }

    /** Promises the room of a preemption to its preemptor. */
    void add(Preemption preemption) {
        Map<String, String> nodes = new HashMap<>();
        preemption.placement().placements().forEach(p -> nodes.put(p.pod().name(), p.nodeName()));
        byGang.put(preemption.preemptor(), new Promise(preemption.evictedPods(), nodes));
    }

    /**
     * Tries the promised gang as its promise lets it, once every victim is gone: only the pods the
     * preemption placed (all its pods when it waits for admission), each on its node. Its other pods are
     * left unplaced in the result.
     *
     * <p>Until then the room its departed victims freed is kept as they took it, each on its node, on the
     * trial's snapshot, and the result is a reservation ({@link GangPlacement.Outcome#RESERVED}): exactly
     * that room, so that another promise's room on the same nodes stays that promise's. Trying the gang
     * meanwhile would take the whole quorum's room or none (an admission), or keep whatever part of its
     * nodes is free, other promises' room included; the part its first victims freed would then be free for
     * any other gang (the evicted gangs, waiting to be admitted again, first of all), and once the last
     * victim left the preemptor would no longer fit and would reclaim again.
     */
    GangPlacement attempt(GangTrial trial, PendingGang gang, ClusterSnapshot snapshot) {
        List<PodPlacement> remaining = remaining(gang.gang().key(), snapshot);
        if (!remaining.isEmpty()) {
            keepDepartedRoom(trial, byGang.get(gang.gang().key()), remaining, snapshot);
            return new GangPlacement(gang.gang(), GangPlacement.Outcome.RESERVED, List.of(), gang.pending(), null,
                    remaining.size() + " pod(s) evicted for it are still terminating; their room is held for it.");
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

    /** Takes again, on the trial's snapshot, the room of each victim of the promise that has left its node. */
    private static void keepDepartedRoom(GangTrial trial, Promise promise, List<PodPlacement> remaining,
                                         ClusterSnapshot snapshot) {
        PlacementStatement statement = trial.statement();
        for (PodPlacement victim : promise.victims()) {
            if (remaining.contains(victim)) {
                continue;
            }
            // Unless pods bound since (another scheduler's) took it: there is then no room to keep.
            snapshot.node(victim.nodeName()).filter(node -> node.slotsFor(victim.pod().requests()) > 0)
                    .ifPresent(node -> statement.allocate(victim.pod(), node));
        }
        statement.commit();
    }

    /**
     * The gang as its promise lets it be tried: the pods the preemption placed (all its pods when it waits
     * for admission), each pinned to the node it placed it on.
     */
    private LocalityDomains.Pinned promised(PendingGang gang) {
        Promise promise = byGang.get(gang.gang().key());
        List<PodInfo> pods = gang.pending().stream().filter(pod -> promise.nodes().containsKey(pod.name())).toList();
        PendingGang only = pods.isEmpty() ? gang : new PendingGang(gang.gang(), pods, gang.bound(), gang.boundByTask(),
                gang.lastFailedAt(), gang.expected());
        return NodeNamePin.pin(only, pod -> {
            String node = promise.nodes().get(pod.name());
            return node == null ? Set.copyOf(promise.nodes().values()) : Set.of(node);
        });
    }

    boolean has(GroupKey gang) {
        return byGang.containsKey(gang);
    }

    void drop(GroupKey gang) {
        byGang.remove(gang);
    }

    /** Forgets the promises of gangs that no longer wait. */
    void retain(Collection<PendingGang> waiting) {
        Set<GroupKey> present = new HashSet<>();
        waiting.forEach(gang -> present.add(gang.gang().key()));
        byGang.keySet().retainAll(present);
    }

    /** The promised gangs, oldest promise first. */
    Set<GroupKey> gangs() {
        return byGang.keySet();
    }

    /** The pods evicted for every promise, as namespace/name: they are terminating, so no victim again. */
    Set<String> evicted() {
        Set<String> pods = new HashSet<>();
        byGang.values().forEach(promise -> promise.victims().forEach(victim -> pods.add(key(victim.pod()))));
        return pods;
    }

    static String key(PodInfo pod) {
        return pod.namespace() + "/" + pod.name();
    }

    /** The victims of the gang's promise still on their nodes in the snapshot. */
    List<PodPlacement> remaining(GroupKey gang, ClusterSnapshot snapshot) {
        return byGang.get(gang).victims().stream().filter(victim -> snapshot.node(victim.nodeName())
                .map(node -> node.snapshotPods().stream().anyMatch(pod -> pod.name().equals(victim.pod().name())
                        && pod.namespace().equals(victim.pod().namespace())))
                .orElse(false)).toList();
    }

    /** Counts the victims still terminating for their preemptor's queue instead of their own. */
    void attribute(QueueLedger ledger, ClusterSnapshot snapshot) {
        byGang.forEach((gang, promise) -> {
            int to = ledger.leafOfGang(gang);
            for (PodPlacement victim : remaining(gang, snapshot)) {
                int from = ledger.leafOfGang(victim.pod().group());
                if (from >= 0 && to >= 0) {
                    ledger.allocate(from, victim.pod().requests(), -1);
                    ledger.allocate(to, victim.pod().requests(), 1);
                }
            }
        });
    }
}
