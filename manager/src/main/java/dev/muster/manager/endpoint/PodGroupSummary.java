package dev.muster.manager.endpoint;

import dev.muster.api.scheduling.v1alpha1.PodGroupDefaults;
import dev.muster.api.scheduling.v1alpha1.PodGroup;
import dev.muster.api.scheduling.v1alpha1.PodGroupCondition;
import dev.muster.api.scheduling.v1alpha1.PodGroupStatus;

import java.util.List;

/**
 * One PodGroup as the {@code podgroups} endpoint shows it: its phase, its counters and the scheduler's
 * last word on it.
 *
 * @param namespace     the PodGroup's namespace
 * @param name          the PodGroup's name
 * @param phase         {@code status.phase}; null until the PodGroup controller first writes status
 * @param minMember     pods that must be placed at once
 * @param running       member pods in phase Running
 * @param succeeded     member pods in phase Succeeded
 * @param failed        member pods in phase Failed
 * @param unschedulable the {@code Unschedulable} condition, e.g. {@code True NotEnoughResources} with
 *                      kube-scheduler's message; null if never set
 * @param scheduled     the {@code Scheduled} condition; null if never set
 */
public record PodGroupSummary(String namespace, String name, String phase, int minMember, int running, int succeeded,
                              int failed, Condition unschedulable, Condition scheduled) {

    /**
     * A condition without its bookkeeping fields (transition id and time).
     *
     * @param status  {@code True}, {@code False} or {@code Unknown}
     * @param reason  one CamelCase word, e.g. {@code NotEnoughResources}
     * @param message the explanation
     */
    public record Condition(String status, String reason, String message) {
    }

    /** The summary of a PodGroup as the cache holds it; works on a PodGroup without status. */
    public static PodGroupSummary of(PodGroup group) {
        PodGroupStatus status = group.getStatus() == null ? new PodGroupStatus() : group.getStatus();
        return new PodGroupSummary(group.getMetadata().getNamespace(), group.getMetadata().getName(),
                status.getPhase() == null ? null : status.getPhase().name(), PodGroupDefaults.minMember(group.getSpec()),
                status.getRunning(), status.getSucceeded(), status.getFailed(),
                condition(status.getConditions(), PodGroupCondition.UNSCHEDULABLE),
                condition(status.getConditions(), PodGroupCondition.SCHEDULED));
    }

    private static Condition condition(List<PodGroupCondition> conditions, String type) {
        if (conditions == null) {
            return null;
        }
        return conditions.stream().filter(c -> type.equals(c.getType())).findFirst()
                .map(c -> new Condition(c.getStatus(), c.getReason(), c.getMessage())).orElse(null);
    }
}
