package dev.muster.api;

import io.fabric8.kubernetes.api.model.Pod;

import java.util.Optional;

/**
 * The node a pod is bound to: {@code spec.nodeName}, unset or empty until the pod is bound. The one reader of it
 * for the controllers, the scheduler and the dashboard, so that "bound" means the same to all of them.
 */
public final class PodNode {
    private PodNode() {
    }

    /** The pod's node; empty while the pod is not bound. */
    public static Optional<String> of(Pod pod) {
        String node = pod.getSpec() == null ? null : pod.getSpec().getNodeName();
        return node == null || node.isEmpty() ? Optional.empty() : Optional.of(node);
    }

    /** Whether the pod is bound to a node. */
    public static boolean isBound(Pod pod) {
        return of(pod).isPresent();
    }

    /** Whether the pod holds room on its node: bound, and neither Succeeded nor Failed. */
    public static boolean holdsRoom(Pod pod) {
        return isBound(pod) && PodPhase.isActive(pod);
    }
}
