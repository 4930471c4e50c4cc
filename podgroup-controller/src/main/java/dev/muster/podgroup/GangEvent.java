package dev.muster.podgroup;

import dev.muster.gang.GangVerdict;

import java.util.Optional;

/**
 * What one look at a PodGroup's pods and the scheduler's latest verdict says about the gang. Exactly
 * one event describes each observation; {@link PodGroupPhaseMachine} decides what it means for the
 * phase the group is in, so the same observation can move one phase and leave another alone.
 */
public enum GangEvent {
    /** The group has no pods (left). */
    NO_PODS("the group has no pods"),
    /** Every pod finished and at least minMember succeeded. */
    GANG_SUCCEEDED("every pod finished and at least `minMember` succeeded"),
    /** So many pods failed that minMember can no longer succeed. */
    GANG_FAILED("fewer than `minMember` pods can still succeed"),
    /**
     * Every pod left finished, none failed, fewer than minMember succeeded: the other members were deleted
     * (pods being deleted no longer count), e.g. stopped by their workload once it was done, as a Job's
     * {@code CompleteJob} policy stops the workers when the launcher succeeds.
     */
    MEMBERS_STOPPED("every pod left finished and none failed, but fewer than `minMember` succeeded: the others were deleted"),
    /** At least minMember pods run or succeeded. */
    QUORUM_RUNNING("at least `minMember` pods run (or succeeded)"),
    /** Below a running quorum, but the gang is placed: its pods are starting. */
    GANG_PLACED("below a running quorum, at least `minMember` pods are placed"),
    /**
     * Below a running quorum, nothing placed yet, and the scheduler holds room for the quorum while pods
     * are created: the gang was admitted, and its pods (if any yet) wait for the room held for them.
     */
    GANG_ADMITTED("below a running quorum and nothing placed, the scheduler admitted the gang and holds room for it"),
    /**
     * Below a running quorum, and the missing pods cannot be placed: the scheduler says so about the
     * waiting pods, or pods were lost with their node and nothing has replaced them on a node yet.
     */
    GANG_UNPLACEABLE("below a running quorum, the missing pods cannot be placed (the scheduler says so, or members were lost with their node)"),
    /**
     * A running gang whose only unplaceable pods are additions (a new {@code dependsOn} stage or a scale-up
     * raised minMember): every member that ran still runs, none failed or was lost. The running part is
     * healthy and stays Running; the additions wait for room. Never returned by {@link #observe}: only the
     * group's previous status tells additions from replacements.
     */
    GANG_GROWING("a running gang whose only unplaceable pods are additions"),
    /**
     * Below a running quorum with nothing decided yet: pods wait for the scheduler, or for their
     * controller to create or replace them.
     */
    GANG_INCOMPLETE("below a running quorum with nothing decided yet"),
    /**
     * A gang that ran is still below its quorum a grace period after members left: nothing replaced
     * them (a bare-pod gang, or a controller that is gone), so it will not recover on its own. Never
     * returned by {@link #observe}: only the passage of time turns {@link #GANG_INCOMPLETE} into it.
     */
    MEMBERS_NOT_REPLACED("a gang that ran is still below `minMember` a grace period after members left");

    private final String when;

    GangEvent(String when) {
        this.when = when;
    }

    /** When the event happens, in a few words, as {@code docs/podgroup.md} shows it. */
    public String when() {
        return when;
    }

    /**
     * Classifies an observation of a group.
     *
     * @param pods      the group's pods
     * @param minMember the gang's quorum, at least 1
     * @param verdict   the scheduler's latest verdict on the group, if any
     */
    public static GangEvent observe(PodCensus pods, int minMember, Optional<GangVerdict> verdict) {
        boolean admitted = verdict.filter(v -> v.outcome() == GangVerdict.Outcome.ADMITTED).isPresent();
        if (pods.total() == 0) {
            // An admission is about pods yet to come, unlike a placement or a refusal, which are about pods
            // that are gone: a workload creates its pods only once its group is admitted.
            return admitted ? GANG_ADMITTED : NO_PODS;
        }
        if (pods.finished() == pods.total()) {
            if (pods.succeeded() >= minMember) {
                return GANG_SUCCEEDED;
            }
            if (pods.failed() > 0) {
                return GANG_FAILED;
            }
            // Too few succeeded and nothing failed. The scheduler admits such a gang only for members still to
            // come, e.g. those of a preempted gang whose one surviving member (its eviction failed) then
            // succeeded; its workload creates them once admitted. Otherwise the others were deleted: what that
            // means depends on whether the gang ran (the phase machine's rows).
            return admitted ? GANG_ADMITTED : MEMBERS_STOPPED;
        }
        if (pods.failed() > 0 && pods.total() - pods.failed() < minMember) {
            return GANG_FAILED;
        }
        if (pods.runningOrSucceeded() >= minMember) {
            return QUORUM_RUNNING;
        }
        // Bindings seen in the cache outrank the verdict, which may predate them.
        if (pods.placed() >= minMember) {
            return GANG_PLACED;
        }
        // Members lost with their node are gone for good, whatever the verdict says: the scheduler may still
        // count them as bound, and pods waiting to replace them make up for them only once they are bound.
        if (pods.lost() > 0) {
            return GANG_UNPLACEABLE;
        }
        // What the pods did (above) tells more than an admission, which is given only to a gang with no bound
        // pods. The room stays held until the pods are created and placed: pods still missing or waiting are
        // what an admitted gang looks like.
        if (admitted) {
            return GANG_ADMITTED;
        }
        // A verdict is about pods waiting for a node; with none waiting it is an old one. A pod that was
        // deleted and not yet replaced is not a lost gang: its controller is usually about to replace it.
        if (pods.waiting() == 0) {
            return GANG_INCOMPLETE;
        }
        return verdict.map(v -> v.outcome() == GangVerdict.Outcome.SCHEDULED ? GANG_PLACED : GANG_UNPLACEABLE)
                .orElse(GANG_INCOMPLETE);
    }
}
