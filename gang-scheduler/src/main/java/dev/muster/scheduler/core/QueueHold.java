package dev.muster.scheduler.core;

import java.util.List;
import java.util.Objects;

/**
 * A gang the cycle did not try because of its queue, or because its victims are still terminating.
 *
 * @param gang    the gang
 * @param pending its pods still to place, which wait with the message
 * @param reason  why, as a PodGroup condition reason
 * @param message for humans, naming the queue (and the resource and numbers for a limit)
 */
public record QueueHold(GangInfo gang, List<PodInfo> pending, Reason reason, String message) {

    public QueueHold {
        Objects.requireNonNull(gang, "gang");
        pending = List.copyOf(pending);
        Objects.requireNonNull(reason, "reason");
        Objects.requireNonNull(message, "message");
    }

    /** Why a gang is held. */
    public enum Reason {
        /** Its queue does not exist, is not a leaf, or hangs off a parent that does not exist. */
        QUEUE_NOT_FOUND("QueueNotFound"),
        /** Its queue is closed: running gangs go on, new ones wait. */
        QUEUE_CLOSED("QueueClosed"),
        /** Starting it would take its queue, or an ancestor, above the queue's {@code limit}. */
        QUEUE_LIMIT("QueueLimitReached"),
        /** Pods were evicted for it; it waits for them to terminate, and their room is promised to it. */
        PREEMPTING("Preempting");

        private final String reason;

        Reason(String reason) {
            this.reason = reason;
        }

        /** The reason for the PodGroup condition and pending pods, e.g. {@code QueueNotFound}. */
        public String reason() {
            return reason;
        }
    }
}
