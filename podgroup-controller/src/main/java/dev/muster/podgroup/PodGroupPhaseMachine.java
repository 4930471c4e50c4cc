package dev.muster.podgroup;

import dev.muster.api.scheduling.v1alpha1.PodGroupPhase;
import dev.muster.support.statemachine.TransitionRow;
import dev.muster.support.statemachine.TransitionTable;

import java.util.List;
import java.util.Optional;

import static dev.muster.api.scheduling.v1alpha1.PodGroupPhase.Completed;
import static dev.muster.api.scheduling.v1alpha1.PodGroupPhase.Failed;
import static dev.muster.api.scheduling.v1alpha1.PodGroupPhase.Inqueue;
import static dev.muster.api.scheduling.v1alpha1.PodGroupPhase.Pending;
import static dev.muster.api.scheduling.v1alpha1.PodGroupPhase.Running;
import static dev.muster.api.scheduling.v1alpha1.PodGroupPhase.Unknown;
import static dev.muster.podgroup.GangEvent.GANG_ADMITTED;
import static dev.muster.podgroup.GangEvent.GANG_FAILED;
import static dev.muster.podgroup.GangEvent.GANG_PLACED;
import static dev.muster.podgroup.GangEvent.GANG_SUCCEEDED;
import static dev.muster.podgroup.GangEvent.GANG_UNPLACEABLE;
import static dev.muster.podgroup.GangEvent.MEMBERS_NOT_REPLACED;
import static dev.muster.podgroup.GangEvent.MEMBERS_STOPPED;
import static dev.muster.podgroup.GangEvent.NO_PODS;
import static dev.muster.podgroup.GangEvent.QUORUM_RUNNING;

/**
 * The PodGroup phase lifecycle as a Spring StateMachine: Volcano's PodGroup status enhancement (Pending →
 * Running → Unknown → Pending, see
 * <a href="https://github.com/volcano-sh/volcano/blob/master/docs/design/podgroup-status-enhancement.md">its
 * design</a>) plus Inqueue (admitted or placed), Completed and Failed. An event that has no transition from
 * the current phase leaves it as it is, e.g. {@link GangEvent#GANG_INCOMPLETE} never moves a phase.
 * {@link #TRANSITIONS} is the definition; the machine is built from it, and {@code docs/podgroup.md} shows
 * the same table, so they cannot drift. Thread-safe.
 */
public final class PodGroupPhaseMachine {
    /**
     * One row: on {@code event} in phase {@code from}, go to {@code to}. The event says all there is to
     * know ({@link GangEvent#observe}), so a row has no guard of its own and fires whenever its event does.
     *
     * @param why why the row exists where that is not obvious from the event, as {@code docs/podgroup.md}
     *            shows it; empty otherwise
     */
    public record Row(PodGroupPhase from, GangEvent event, PodGroupPhase to, String why)
            implements TransitionRow<PodGroupPhase, GangEvent, Void, GangEvent> {
        @Override
        public Optional<GangEvent> check(Void facts) {
            return Optional.of(event);
        }
    }

    private static final String RESTARTED = "a restarted workload's old pods were deleted and its new gang admitted,"
            + " perhaps before any look at the group saw it without pods";
    private static final String STOPPED_AFTER_RUNNING = "the gang ran and nothing failed: its workload stopped the"
            + " other members once it was done, e.g. a Job's `CompleteJob` policy";
    private static final String NEVER_RAN = "the gang never ran, and too few of the members left succeeded";
    private static final String NEW_PODS = "the workload brought new pods";
    private static final String STARTS_OVER = "a finished group starts over when its workload does, e.g. a Job"
            + " restarted by a policy";

    /** Every transition of the PodGroup phase lifecycle. */
    public static final List<Row> TRANSITIONS = List.of(
            new Row(Pending, GANG_PLACED, Inqueue, ""),
            new Row(Pending, GANG_ADMITTED, Inqueue, ""),
            new Row(Pending, QUORUM_RUNNING, Running, ""),
            new Row(Pending, GANG_SUCCEEDED, Completed, ""),
            new Row(Pending, GANG_FAILED, Failed, ""),
            new Row(Pending, MEMBERS_STOPPED, Failed, NEVER_RAN),

            new Row(Inqueue, QUORUM_RUNNING, Running, ""),
            new Row(Inqueue, GANG_UNPLACEABLE, Pending, "the admission expired or was withdrawn, or the scheduler"
                    + " cannot place the gang any more"),
            new Row(Inqueue, NO_PODS, Pending, "the placed pods are gone (or preempted), or the admission ended before"
                    + " any was created"),
            new Row(Inqueue, GANG_SUCCEEDED, Completed, ""),
            new Row(Inqueue, GANG_FAILED, Failed, ""),
            new Row(Inqueue, MEMBERS_STOPPED, Failed, NEVER_RAN),

            new Row(Running, GANG_ADMITTED, Inqueue, RESTARTED),
            new Row(Running, GANG_UNPLACEABLE, Unknown, "members were lost with their node, or restarted and cannot be"
                    + " rescheduled (reason `PodFailed` or `PodDeleted`); pods placed again at once keep it Running"),
            new Row(Running, MEMBERS_NOT_REPLACED, Unknown, "reason `PodDeleted`"),
            new Row(Running, NO_PODS, Pending, "every pod is gone, or the scheduler preempted the whole gang: its"
                    + " victims (`DisruptionTarget`) no longer count, and the gang waits to be admitted again"),
            new Row(Running, GANG_SUCCEEDED, Completed, ""),
            new Row(Running, GANG_FAILED, Failed, ""),
            new Row(Running, MEMBERS_STOPPED, Completed, STOPPED_AFTER_RUNNING),

            new Row(Unknown, NO_PODS, Pending, "Volcano's \"all pods in the PodGroup are deleted\""),
            new Row(Unknown, GANG_PLACED, Inqueue, "replacements were placed"),
            new Row(Unknown, GANG_ADMITTED, Inqueue, RESTARTED),
            new Row(Unknown, QUORUM_RUNNING, Running, "replacements run"),
            new Row(Unknown, GANG_SUCCEEDED, Completed, ""),
            new Row(Unknown, GANG_FAILED, Failed, ""),
            new Row(Unknown, MEMBERS_STOPPED, Completed, STOPPED_AFTER_RUNNING),

            new Row(Completed, NO_PODS, Pending, STARTS_OVER),
            new Row(Completed, GANG_ADMITTED, Inqueue, RESTARTED),
            new Row(Completed, GANG_PLACED, Inqueue, NEW_PODS),
            new Row(Completed, QUORUM_RUNNING, Running, NEW_PODS),
            new Row(Failed, NO_PODS, Pending, STARTS_OVER),
            new Row(Failed, GANG_ADMITTED, Inqueue, RESTARTED),
            new Row(Failed, GANG_PLACED, Inqueue, NEW_PODS),
            new Row(Failed, QUORUM_RUNNING, Running, NEW_PODS),
            new Row(Failed, GANG_SUCCEEDED, Completed, NEW_PODS));

    private final TransitionTable<PodGroupPhase, GangEvent, Void, GangEvent, Row> table =
            new TransitionTable<>("muster-podgroup", PodGroupPhase.class, GangEvent.class, TRANSITIONS);

    /** The phase a group in phase {@code from} moves to on {@code event}; {@code from} if none. */
    public PodGroupPhase next(PodGroupPhase from, GangEvent event) {
        return table.fire(from, event, null).map(fired -> fired.row().to()).orElse(from);
    }
}
