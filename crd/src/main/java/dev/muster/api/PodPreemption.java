package dev.muster.api;

import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodCondition;

import java.util.Optional;

/**
 * How a pod says it is being preempted: as kube-scheduler marks its victims, a {@code DisruptionTarget}
 * condition with status {@code True} and reason {@code PreemptionByScheduler}, set before the pod is evicted,
 * its message naming the preemptor and the rule. The scheduler writes it; the Job and PodGroup controllers read
 * it, so that a preempted pod is neither a failure nor a lost member of its gang. See
 * <a href="https://kubernetes.io/docs/concepts/workloads/pods/disruptions/#pod-disruption-conditions">pod
 * disruption conditions</a>.
 */
public final class PodPreemption {
    /** The pod condition type of a pod about to be disrupted. */
    public static final String DISRUPTION_TARGET = "DisruptionTarget";
    /** Its reason when the scheduler evicts the pod to make room for another. */
    public static final String PREEMPTION_BY_SCHEDULER = "PreemptionByScheduler";
    /**
     * The reason a preemption is told by: of the scheduler's Event on each victim, and of the state of a Job
     * whose running gang the scheduler evicted (it waits, Pending, to be admitted again).
     */
    public static final String PREEMPTED = "Preempted";

    private PodPreemption() {
    }

    /** Whether the scheduler marked the pod as a preemption victim. */
    public static boolean isPreempted(Pod pod) {
        return condition(pod).isPresent();
    }

    /** The marking condition's message (who preempted it, by which rule), if the pod is a victim. */
    public static Optional<String> message(Pod pod) {
        return condition(pod).map(c -> c.getMessage() == null ? "" : c.getMessage());
    }

    private static Optional<PodCondition> condition(Pod pod) {
        if (pod.getStatus() == null || pod.getStatus().getConditions() == null) {
            return Optional.empty();
        }
        return pod.getStatus().getConditions().stream()
                .filter(c -> c != null && DISRUPTION_TARGET.equals(c.getType()) && "True".equals(c.getStatus())
                        && PREEMPTION_BY_SCHEDULER.equals(c.getReason()))
                .findFirst();
    }
}
