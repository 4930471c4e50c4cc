package dev.muster.scheduler;

import dev.muster.scheduler.core.NodeInfo;
import io.fabric8.kubernetes.api.model.Node;

/**
 * The simulator's way to the scheduler's own reading of a Node ({@code KubeObjects.nodeInfo}, package
 * private), so that a cluster given as Node YAML is seen exactly as the live scheduler sees it. It lives in
 * the scheduler's package for that reason only; a public hook in the scheduler would make it unnecessary.
 */
public final class NodeObjects {
    private NodeObjects() {
    }

    /** The node as the scheduler's informer turns it into the core's record. */
    public static NodeInfo nodeInfo(Node node) {
        return KubeObjects.nodeInfo(node);
    }
}
