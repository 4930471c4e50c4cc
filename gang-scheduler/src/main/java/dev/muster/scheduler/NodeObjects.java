package dev.muster.scheduler;

import dev.muster.scheduler.core.model.NodeInfo;
import io.fabric8.kubernetes.api.model.Node;

/**
 * The scheduler's reading of a Node into the core's record, for callers outside the scheduler that must see
 * nodes exactly as it does (the trace simulator, given a cluster as Node YAML).
 */
public final class NodeObjects {
    private NodeObjects() {
    }

    /** The node as the scheduler's informer turns it into the core's record. */
    public static NodeInfo nodeInfo(Node node) {
        return KubeObjects.nodeInfo(node);
    }
}
