package dev.muster.podgroup;

import dev.muster.api.scheduling.v1alpha1.PodGroupCondition;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * The desired value of one PodGroup condition, merged into the current list so that
 * {@code lastTransitionTime} and {@code transitionID} change only when the condition's status does:
 * they mark the transition, while reason and message may be refined in place.
 *
 * @param type         {@link PodGroupCondition#UNSCHEDULABLE} or {@link PodGroupCondition#SCHEDULED}
 * @param status       {@code True} or {@code False}
 * @param reason       one CamelCase word
 * @param message      human-readable detail
 * @param transitionId identifies the scheduling attempt behind the transition; may be null
 */
record ConditionUpdate(String type, String status, String reason, String message, String transitionId) {
    static final String TRUE = "True";
    static final String FALSE = "False";

    /**
     * A copy of {@code current} with this condition set; other conditions and the list order are kept
     * so that an unchanged status serializes identically and is not written again.
     */
    List<PodGroupCondition> applyTo(List<PodGroupCondition> current, String now) {
        List<PodGroupCondition> result = new ArrayList<>(current.size() + 1);
        boolean found = false;
        for (PodGroupCondition existing : current) {
            if (type.equals(existing.getType())) {
                result.add(merge(existing, now));
                found = true;
            } else {
                result.add(existing);
            }
        }
        if (!found) {
            result.add(merge(null, now));
        }
        return result;
    }

    private PodGroupCondition merge(PodGroupCondition existing, String now) {
        var condition = new PodGroupCondition();
        condition.setType(type);
        condition.setStatus(status);
        condition.setReason(reason);
        condition.setMessage(message);
        if (existing != null && Objects.equals(existing.getStatus(), status)) {
            condition.setLastTransitionTime(existing.getLastTransitionTime());
            condition.setTransitionID(existing.getTransitionID());
        } else {
            condition.setLastTransitionTime(now);
            condition.setTransitionID(transitionId);
        }
        return condition;
    }
}
