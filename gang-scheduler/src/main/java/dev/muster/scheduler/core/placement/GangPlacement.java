package dev.muster.scheduler.core.placement;

import dev.muster.scheduler.core.model.GangInfo;
import dev.muster.scheduler.core.model.PendingGang;
import dev.muster.scheduler.core.model.PodInfo;
import dev.muster.scheduler.core.model.UnschedulableMessage;

import java.util.List;
import java.util.Objects;
import java.util.SortedSet;
import java.util.TreeSet;

/**
 * The result of a {@link GangTrial}: either the gang's quorum is placed and {@link #placements()} are
 * committed to the snapshot, or the gang holds a reservation ({@link Outcome#RESERVED}) or an admission
 * ({@link Outcome#ADMITTED}), or nothing of the gang is placed and the snapshot is as before.
 *
 * @param gang          the gang
 * @param outcome       what happened
 * @param placements    placements kept on the snapshot; empty unless {@link Outcome#PLACED} (to bind),
 *                      {@link Outcome#RESERVED} or {@link Outcome#ADMITTED} (held, not bound)
 * @param unplaced      pending pods left without a node
 * @param unschedulable why the last pod that fit nowhere did not fit; {@code null} if none failed
 * @param message       the outcome for humans, for the PodGroup condition and pending pods
 * @param nearQuorum    for a gang not placed: whether its trial placed enough pods to count as near its
 *                      quorum ({@code CoschedulingArgs.podGroupRejectPercentage})
 */
public record GangPlacement(GangInfo gang, Outcome outcome, List<PodPlacement> placements, List<PodInfo> unplaced,
                            UnschedulableMessage unschedulable, String message, boolean nearQuorum) {

    /** Begins the list of fields the scheduler did not evaluate, at the end of a message. */
    public static final String NOT_EVALUATED = "Not evaluated by the scheduler (placed as if absent): ";

    /** What a trial concluded. */
    public enum Outcome {
        /** The quorum (minMember and every minTaskMember) is placed, with pods beyond it that fit. */
        PLACED,
        /** The gang has fewer pods than its quorum needs, so it was not tried. */
        NOT_ENOUGH_PODS,
        /** The quorum does not fit the free capacity; nothing was placed. */
        NOT_ENOUGH_RESOURCES,
        /**
         * The quorum does not fit, but the gang is near it and holds its partial placement as a
         * reservation: {@link #placements()} stay on the snapshot and are not bound.
         */
        RESERVED,
        /** The gang failed recently and waits out its backoff; it was not tried. */
        BACKED_OFF,
        /**
         * The gang's workload creates its pods only once the gang is admitted, and its quorum (the pods
         * that exist and the {@linkplain PendingGang#expected() expected} ones) fits node by node:
         * {@link #placements()} stay on the snapshot as the room promised to it, and none is bound. Pods
         * that already exist wait for the others.
         */
        ADMITTED,
        /**
         * The gang was admitted, but its workload no longer waits for pods to be admitted (it was
         * suspended, finished or deleted) and none of its pods waits: the promise is dropped.
         */
        WITHDRAWN
    }

    public GangPlacement {
        Objects.requireNonNull(gang, "gang");
        Objects.requireNonNull(outcome, "outcome");
        placements = List.copyOf(placements);
        unplaced = List.copyOf(unplaced);
        Objects.requireNonNull(message, "message");
    }

    /** A result that does not say whether the gang was near its quorum. */
    public GangPlacement(GangInfo gang, Outcome outcome, List<PodPlacement> placements, List<PodInfo> unplaced,
                         UnschedulableMessage unschedulable, String message) {
        this(gang, outcome, placements, unplaced, unschedulable, message, false);
    }

    /**
     * This result with its message ending in the pod spec fields the scheduler did not evaluate for the
     * gang's pods tried, if any, so that whoever reads why the gang waits or was placed learns what was
     * left out; the same fields give the same message from one cycle to the next.
     */
    public GangPlacement notingNotEvaluated() {
        SortedSet<String> fields = notEvaluated();
        if (fields.isEmpty()) {
            return this;
        }
        return new GangPlacement(gang, outcome, placements, unplaced, unschedulable,
                message + " " + NOT_EVALUATED + String.join(", ", fields) + ".", nearQuorum);
    }

    /** The pod spec fields the scheduler did not evaluate, over the pods placed and left unplaced. */
    public SortedSet<String> notEvaluated() {
        SortedSet<String> fields = new TreeSet<>();
        placements.forEach(p -> fields.addAll(p.pod().notEvaluated()));
        unplaced.forEach(p -> fields.addAll(p.notEvaluated()));
        return fields;
    }

    /** Whether the quorum is placed. */
    public boolean placed() {
        return outcome == Outcome.PLACED;
    }

    /**
     * What to tell the pods left pending: when the gang is placed, only why they themselves did not fit;
     * otherwise why the gang as a whole waits.
     */
    public String pendingPodMessage() {
        return placed() && unschedulable != null ? unschedulable.message() : message;
    }
}
