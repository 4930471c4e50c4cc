package dev.muster.api;

import io.fabric8.kubernetes.api.model.Pod;

/**
 * The core/v1 pod phases, which fabric8 exposes only as strings: the one place that reads a pod's phase, for
 * the controllers, the scheduler and the local cluster alike.
 */
public enum PodPhase {
    Pending, Running, Succeeded, Failed, Unknown;

    /**
     * The pod's phase. A pod the API server has not given a status yet is Pending; a phase this version does
     * not know is Unknown, which every reader treats as "not reporting", never as finished.
     */
    public static PodPhase of(Pod pod) {
        String phase = pod.getStatus() == null ? null : pod.getStatus().getPhase();
        if (phase == null || phase.isEmpty()) {
            return Pending;
        }
        for (PodPhase known : values()) {
            if (known.name().equals(phase)) {
                return known;
            }
        }
        return Unknown;
    }

    /** Whether a pod in this phase has finished: it holds no node's room any more and never runs again. */
    public boolean isFinished() {
        return this == Succeeded || this == Failed;
    }

    /** Whether the pod has finished. */
    public static boolean isFinished(Pod pod) {
        return of(pod).isFinished();
    }

    /** Whether the pod has not finished: it still holds, or waits for, a node. */
    public static boolean isActive(Pod pod) {
        return !isFinished(pod);
    }

    /** Whether the pod is being deleted, whatever its phase: kubectl shows it as {@code Terminating}. */
    public static boolean isTerminating(Pod pod) {
        return pod.getMetadata().getDeletionTimestamp() != null;
    }
}
