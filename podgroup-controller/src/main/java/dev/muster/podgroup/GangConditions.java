package dev.muster.podgroup;

import dev.muster.api.scheduling.v1alpha1.PodGroupCondition;
import dev.muster.api.scheduling.v1alpha1.PodGroupPhase;
import dev.muster.gang.GangVerdict;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import static dev.muster.api.scheduling.v1alpha1.PodGroupCondition.REASON_POD_DELETED;
import static dev.muster.api.scheduling.v1alpha1.PodGroupCondition.REASON_POD_FAILED;
import static dev.muster.api.scheduling.v1alpha1.PodGroupCondition.SCHEDULED;
import static dev.muster.api.scheduling.v1alpha1.PodGroupCondition.UNSCHEDULABLE;
import static dev.muster.podgroup.ConditionUpdate.FALSE;
import static dev.muster.podgroup.ConditionUpdate.TRUE;

/**
 * Derives a PodGroup's conditions. {@code Unschedulable} and {@code Scheduled} follow the scheduler's
 * latest verdict (a placement only while the group has pods; an admission, which places nothing, only
 * ends {@code Unschedulable}); when the gang breaks (phase Unknown or Failed), {@code Scheduled} turns
 * False with reason {@code PodFailed} (members failed, or were lost with their node) or
 * {@code PodDeleted} (members were deleted), which says why the placed gang no longer stands.
 */
final class GangConditions {
    /** Reason of {@code Scheduled=True} when the scheduler gave none. */
    static final String REASON_SCHEDULED = "Scheduled";

    private GangConditions() {
    }

    /**
     * The conditions after this observation.
     *
     * @param current   the conditions now in the status
     * @param verdict   the scheduler's latest verdict on the group
     * @param from      the phase the group is in
     * @param phase     the phase the group is moving to
     * @param event     how the observation was classified
     * @param pods      the group's pods
     * @param minMember the gang's quorum
     * @param now       RFC 3339 time stamp for conditions whose status changes
     */
    static List<PodGroupCondition> desired(List<PodGroupCondition> current, Optional<GangVerdict> verdict,
                                           PodGroupPhase from, PodGroupPhase phase, GangEvent event, PodCensus pods,
                                           int minMember, String now) {
        // One update per type, the last word winning, so that no condition flips twice in one decision.
        Map<String, ConditionUpdate> updates = new LinkedHashMap<>();
        String transitionId = verdict.map(GangVerdict::transitionId).orElse(null);
        verdict.ifPresent(v -> {
            switch (v.outcome()) {
                case UNSCHEDULABLE -> {
                    if (event == GangEvent.GANG_GROWING) {
                        // The placed part still stands, so Scheduled stays; only the additions wait.
                        updates.put(UNSCHEDULABLE, new ConditionUpdate(UNSCHEDULABLE, TRUE, v.reason(), String.format(
                                "%d pods beyond the %d running (a new dependsOn stage or a scale-up) wait for room; "
                                        + "the running pods are not affected: %s", pods.waiting(), pods.running(),
                                v.message()), transitionId));
                        return;
                    }
                    updates.put(UNSCHEDULABLE, new ConditionUpdate(UNSCHEDULABLE, TRUE, v.reason(), v.message(), transitionId));
                    if (has(current, SCHEDULED)) {
                        updates.put(SCHEDULED, new ConditionUpdate(SCHEDULED, FALSE, v.reason(), v.message(), transitionId));
                    }
                }
                case ADMITTED -> {
                    // Room is held but nothing is placed, so Scheduled waits for the placement; a group that was
                    // unschedulable is no longer, and says so even before it has pods, which come only now.
                    if (has(current, UNSCHEDULABLE)) {
                        String reason = v.reason() == null ? PodGroupCondition.REASON_ADMITTED : v.reason();
                        updates.put(UNSCHEDULABLE, new ConditionUpdate(UNSCHEDULABLE, FALSE, reason, v.message(), transitionId));
                    }
                }
                case SCHEDULED -> {
                    // With no pods nothing is placed: the verdict is about pods that are gone.
                    if (pods.total() > 0) {
                        String reason = v.reason() == null ? REASON_SCHEDULED : v.reason();
                        updates.put(SCHEDULED, new ConditionUpdate(SCHEDULED, TRUE, reason, v.message(), transitionId));
                        if (has(current, UNSCHEDULABLE)) {
                            updates.put(UNSCHEDULABLE, new ConditionUpdate(UNSCHEDULABLE, FALSE, reason, v.message(), transitionId));
                        }
                    }
                }
            }
        });
        boolean gangBroken = phase == PodGroupPhase.Unknown || phase == PodGroupPhase.Failed;
        // Also for a gang that no verdict ever placed (bound by another scheduler): the reason must show.
        if (gangBroken) {
            ConditionUpdate broken = brokenGang(phase, event, pods, minMember, transitionId);
            if (from == phase && alreadySays(current, broken)) {
                // The message describes the transition; counts that drift afterwards do not rewrite it.
                updates.remove(SCHEDULED);
            } else {
                updates.put(SCHEDULED, broken);
            }
        }
        List<PodGroupCondition> result = new ArrayList<>(current);
        for (ConditionUpdate update : updates.values()) {
            result = update.applyTo(result, now);
        }
        return result;
    }

    private static ConditionUpdate brokenGang(PodGroupPhase phase, GangEvent event, PodCensus pods, int minMember,
                                              String transitionId) {
        if (phase == PodGroupPhase.Failed && event == GangEvent.MEMBERS_STOPPED) {
            return new ConditionUpdate(SCHEDULED, FALSE, REASON_POD_DELETED, String.format(
                    "%d of %d pods succeeded and none failed, but the other members were deleted before the gang "
                            + "ran, so fewer than minMember %d can succeed", pods.succeeded(), pods.total(), minMember),
                    transitionId);
        }
        if (phase == PodGroupPhase.Failed) {
            return new ConditionUpdate(SCHEDULED, FALSE, REASON_POD_FAILED, String.format(
                    "%d of %d pods failed; fewer than minMember %d can succeed", pods.failed(), pods.total(), minMember),
                    transitionId);
        }
        if (pods.failed() + pods.lost() > 0) {
            return new ConditionUpdate(SCHEDULED, FALSE, REASON_POD_FAILED, String.format(
                    "%d of minMember %d pods running; %d failed and %d lost (node gone or not reporting), "
                            + "and they cannot be rescheduled",
                    pods.runningOrSucceeded(), minMember, pods.failed(), pods.lost()), transitionId);
        }
        if (event == GangEvent.MEMBERS_NOT_REPLACED) {
            return new ConditionUpdate(SCHEDULED, FALSE, REASON_POD_DELETED, String.format(
                    "%d of minMember %d pods running; the others were deleted and not replaced within the grace period",
                    pods.runningOrSucceeded(), minMember), transitionId);
        }
        return new ConditionUpdate(SCHEDULED, FALSE, REASON_POD_DELETED, String.format(
                "%d of minMember %d pods running; the others were deleted or restarted and cannot be rescheduled",
                pods.runningOrSucceeded(), minMember), transitionId);
    }

    private static boolean alreadySays(List<PodGroupCondition> conditions, ConditionUpdate update) {
        return conditions.stream().anyMatch(c -> update.type().equals(c.getType())
                && update.status().equals(c.getStatus()) && update.reason().equals(c.getReason()));
    }

    private static boolean has(List<PodGroupCondition> conditions, String type) {
        return conditions.stream().anyMatch(c -> type.equals(c.getType()));
    }
}
