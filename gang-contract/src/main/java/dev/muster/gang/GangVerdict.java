package dev.muster.gang;

import java.time.Instant;
import java.util.Objects;

/**
 * The scheduler's latest decision about one PodGroup, handed in-process to the PodGroup controller,
 * which is the only writer of PodGroup status.
 *
 * @param namespace    namespace of the PodGroup
 * @param podGroup     name of the PodGroup
 * @param outcome      whether the gang is placed
 * @param reason       one CamelCase word, e.g. {@code NotEnoughResources}, {@code NotEnoughTasks}
 * @param message      human-readable detail in kube-scheduler's style
 * @param transitionId identifies the scheduling attempt that produced the verdict
 * @param decidedAt    when the scheduler decided
 */
public record GangVerdict(String namespace, String podGroup, Outcome outcome, String reason, String message,
                          String transitionId, Instant decidedAt) {

    /** What the scheduler concluded. */
    public enum Outcome {
        /** At least minMember pods (and each task's minTaskMember) are bound or being bound. */
        SCHEDULED,
        /**
         * Admitted, not yet placed: the gang's quorum fits node by node, and the scheduler holds that room
         * for it while its pods are being created. Other gangs cannot be admitted to or placed on that
         * room. The group is Inqueue.
         */
        ADMITTED,
        /** The gang could not be placed this cycle; nothing was bound. */
        UNSCHEDULABLE
    }

    public GangVerdict {
        Objects.requireNonNull(namespace, "namespace");
        Objects.requireNonNull(podGroup, "podGroup");
        Objects.requireNonNull(outcome, "outcome");
    }

    /** Whether the two verdicts say the same thing, ignoring when and in which attempt. */
    public boolean sameAs(GangVerdict other) {
        return other != null && outcome == other.outcome && Objects.equals(reason, other.reason)
                && Objects.equals(message, other.message);
    }
}
