package dev.muster.job;

import io.fabric8.kubernetes.api.model.Pod;

/** The core/v1 pod phases, which fabric8 exposes only as strings. */
final class PodPhases {
    static final String PENDING = "Pending";
    static final String RUNNING = "Running";
    static final String SUCCEEDED = "Succeeded";
    static final String FAILED = "Failed";
    static final String UNKNOWN = "Unknown";

    private PodPhases() {
    }

    /** The pod's phase; Pending for a pod the API server has not given a status yet. */
    static String of(Pod pod) {
        String phase = pod.getStatus() == null ? null : pod.getStatus().getPhase();
        return phase == null || phase.isEmpty() ? PENDING : phase;
    }

    /** Whether the pod has not finished: it still holds, or waits for, a node. */
    static boolean isActive(Pod pod) {
        String phase = of(pod);
        return !SUCCEEDED.equals(phase) && !FAILED.equals(phase);
    }

    /** Whether the pod is being deleted. */
    static boolean isTerminating(Pod pod) {
        return pod.getMetadata().getDeletionTimestamp() != null;
    }
}
