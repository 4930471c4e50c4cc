package dev.muster.scheduler.core;

import java.util.Collection;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The room freed by evictions, promised to the gangs it was freed for until they bind. While a
 * preemptor's victims terminate, the pods still on their nodes count for the preemptor's queue, not the
 * victim's, so that no second round of evictions is made for the same room; once they are gone, the
 * preemptor is tried before every other gang and keeps whatever part of the room it finds, so that no
 * other gang takes it. A promise ends when the preemptor binds, leaves, or still does not fit once every
 * victim is gone (someone else's pods took the room): it then waits as any gang does.
 */
final class Promises {
    /** Per promised gang, the pods evicted for it with their nodes. */
    private final Map<GroupKey, List<PodPlacement>> byGang = new LinkedHashMap<>();

    void add(GroupKey gang, List<PodPlacement> victims) {
        byGang.put(gang, List.copyOf(victims));
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

    /** The victims of the gang's promise still on their nodes in the snapshot. */
    List<PodPlacement> remaining(GroupKey gang, ClusterSnapshot snapshot) {
        return byGang.get(gang).stream().filter(victim -> snapshot.node(victim.nodeName())
                .map(node -> node.snapshotPods().stream().anyMatch(pod -> pod.name().equals(victim.pod().name())
                        && pod.namespace().equals(victim.pod().namespace())))
                .orElse(false)).toList();
    }

    /** Counts the victims still terminating for their preemptor's queue instead of their own. */
    void attribute(QueueLedger ledger, ClusterSnapshot snapshot, Map<GroupKey, String> queueOfGang) {
        byGang.forEach((gang, promise) -> {
            int to = ledger.leafOf(queueOfGang.get(gang));
            for (PodPlacement victim : remaining(gang, snapshot)) {
                int from = ledger.leafOf(queueOfGang.get(victim.pod().group()));
                if (from >= 0 && to >= 0) {
                    ledger.allocate(from, victim.pod().requests(), -1);
                    ledger.allocate(to, victim.pod().requests(), 1);
                }
            }
        });
    }
}
