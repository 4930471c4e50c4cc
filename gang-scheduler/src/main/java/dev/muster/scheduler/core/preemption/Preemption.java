package dev.muster.scheduler.core.preemption;

import dev.muster.scheduler.core.model.GroupKey;
import dev.muster.scheduler.core.model.RunningGang;
import dev.muster.scheduler.core.placement.GangPlacement;
import dev.muster.scheduler.core.placement.PodPlacement;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * A victim set that a {@link VictimSearch} verified: with the victims' pods evicted, the preemptor's
 * gang trial places (or admits) it node by node, as {@link #placement()} says.
 *
 * @param victims   the gangs pods are taken from, in preference order (the first would be taken first)
 * @param placement the preemptor's trial on the snapshot with the victims evicted:
 *                  {@link GangPlacement.Outcome#PLACED} (its quorum and the pods beyond it that fit,
 *                  each with its node) or {@link GangPlacement.Outcome#ADMITTED} (a gang whose workload
 *                  creates its pods once admitted: the room promised to its quorum)
 * @param message   for humans, for Events on the victims and the preemptor, e.g. "evicts 4 surplus
 *                  pod(s) of podgroup ns/a (priority 100) to place podgroup ns/h"
 */
public record Preemption(List<Victim> victims, GangPlacement placement, String message) {

    public Preemption {
        victims = List.copyOf(victims);
        Objects.requireNonNull(placement, "placement");
        Objects.requireNonNull(message, "message");
    }

    /** The gang the room is made for. */
    public GroupKey preemptor() {
        return placement.gang().key();
    }

    /** Every pod to evict, with the node it runs on, victim by victim. */
    public List<PodPlacement> evictedPods() {
        List<PodPlacement> pods = new ArrayList<>();
        victims.forEach(victim -> pods.addAll(victim.pods()));
        return pods;
    }

    /**
     * Pods taken from one running gang.
     *
     * @param gang  the running gang
     * @param whole whether every member still running is taken, so the gang goes back to Pending; when
     *              not, the pods are surplus members and the gang keeps at least its minMember and each
     *              task's minTaskMember running
     * @param pods  the pods to evict with the nodes they run on, newest first
     */
    public record Victim(RunningGang gang, boolean whole, List<PodPlacement> pods) {
        public Victim {
            Objects.requireNonNull(gang, "gang");
            pods = List.copyOf(pods);
        }

        /** The victim gang's key. */
        public GroupKey key() {
            return gang.gang().key();
        }
    }
}
