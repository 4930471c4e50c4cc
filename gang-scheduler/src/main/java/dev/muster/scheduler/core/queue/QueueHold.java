package dev.muster.scheduler.core.queue;

import dev.muster.api.scheduling.v1alpha1.QueueAccess;
import dev.muster.scheduler.core.model.GangInfo;
import dev.muster.scheduler.core.model.PodInfo;

import java.util.List;
import java.util.Objects;

/**
 * A gang the cycle did not try because its queue refused it ({@link QueueAccess}) or its limit is reached, because
 * its {@code minResources} are not free ({@link MinResourcesGate}), because its namespace's ResourceQuotas would
 * refuse its pods ({@link NamespaceQuotaGate}), or because its victims are still terminating.
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
        /** Its queue does not exist or is not in the tree ({@link QueueAccess#NOT_FOUND}). */
        QUEUE_NOT_FOUND(QueueAccess.NOT_FOUND),
        /** Its queue has child queues ({@link QueueAccess#NOT_LEAF}). */
        QUEUE_NOT_LEAF(QueueAccess.NOT_LEAF),
        /** Its queue's namespaceSelector does not select its namespace ({@link QueueAccess#FORBIDDEN}). */
        QUEUE_FORBIDDEN(QueueAccess.FORBIDDEN),
        /** Its queue is closed: running gangs go on, new ones wait ({@link QueueAccess#CLOSED}). */
        QUEUE_CLOSED(QueueAccess.CLOSED),
        /** Starting it would take its queue, or an ancestor, above the queue's {@code limit}. */
        QUEUE_LIMIT("QueueLimitReached"),
        /**
         * The free room of the schedulable nodes together is less than its PodGroup's {@code minResources}
         * ({@link MinResourcesGate}); Volcano's reason for a group that does not fit.
         */
        MIN_RESOURCES("NotEnoughResources"),
        /**
         * Its workload's pods, created once it is admitted, would take its namespace above a ResourceQuota
         * ({@link NamespaceQuotaGate}), and the API server would refuse them.
         */
        NAMESPACE_QUOTA("NamespaceQuotaExceeded"),
        /** Pods were evicted for it; it waits for them to terminate, and their room is promised to it. */
        PREEMPTING("Preempting");

        private final String reason;

        Reason(String reason) {
            this.reason = reason;
        }

        /** The reason of a {@link QueueAccess} refusal. */
        public static Reason of(String queueAccessReason) {
            for (Reason reason : values()) {
                if (reason.reason.equals(queueAccessReason)) {
                    return reason;
                }
            }
            throw new IllegalArgumentException("not a QueueAccess reason: " + queueAccessReason);
        }

        /** The reason for the PodGroup condition and pending pods, e.g. {@code QueueNotFound}. */
        public String reason() {
            return reason;
        }
    }
}
