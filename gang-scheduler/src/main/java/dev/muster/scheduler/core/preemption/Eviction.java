package dev.muster.scheduler.core.preemption;

import dev.muster.scheduler.core.model.GroupKey;
import dev.muster.scheduler.core.placement.PodPlacement;

import java.util.List;
import java.util.Objects;

/**
 * Pods of one running gang to evict so that another gang can run.
 *
 * @param victim    the gang losing pods
 * @param pods      the pods to evict, each with the node it is bound to
 * @param wholeGang {@code true} when every bound pod of the victim goes: the gang goes back to Pending
 *                  (reason {@code Preempted}), keeps its place in its queue (same creation time) and uses
 *                  no retry; {@code false} when only surplus members go (pods above its minMember and
 *                  every task's minimum), the gang keeps running and no restart policy fires
 * @param preemptor the gang the room is freed for, and promised to until it binds
 * @param rule      which rule allowed it
 * @param message   for humans, naming the preemptor, the rule and, for reclaim, the two queues' standings;
 *                  the Event on the victim
 */
public record Eviction(GroupKey victim, List<PodPlacement> pods, boolean wholeGang, GroupKey preemptor, Rule rule,
                       String message) {

    public Eviction {
        Objects.requireNonNull(victim, "victim");
        pods = List.copyOf(pods);
        Objects.requireNonNull(preemptor, "preemptor");
        Objects.requireNonNull(rule, "rule");
        Objects.requireNonNull(message, "message");
    }

    /** The rule under which a gang evicts pods of another. */
    public enum Rule {
        /** Another queue above its fair share gives back room up to the preemptor queue's fair share. */
        RECLAIM("Reclaim"),
        /** A gang of the same queue with a lower priority makes room ({@code withinQueue: LowerPriority}). */
        WITHIN_QUEUE("WithinQueue");

        private final String reason;

        Rule(String reason) {
            this.reason = reason;
        }

        /** The rule as an Event reason or metric label, e.g. {@code Reclaim}. */
        public String reason() {
            return reason;
        }
    }
}
