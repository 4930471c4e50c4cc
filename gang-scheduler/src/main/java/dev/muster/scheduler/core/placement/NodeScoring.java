package dev.muster.scheduler.core.placement;

import dev.muster.scheduler.core.cluster.NodeState;
import dev.muster.scheduler.core.model.ResourceVector;

/**
 * How a node that fits a pod scores for its resources; the highest score wins, the first node in name
 * order on ties. A score depends only on the node's own state and the pod's shape (preferences add a
 * fixed amount per node and shape, {@link NodePreferences}), which lets the core keep nodes in a heap per
 * pod shape and rescore only the nodes a placement changed.
 */
public enum NodeScoring {
    /**
     * Bin-packing, kube-scheduler's MostAllocated: the fuller the node would be, the better. Gangs land
     * on few nodes and whole nodes stay free for big pods; the default for batch work.
     */
    MOST_ALLOCATED {
        @Override
        double score(NodeState node, ResourceVector podRequests) {
            return node.mostAllocatedScore(podRequests);
        }
    },
    /** Spreading, kube-scheduler's LeastAllocated: the emptier the node would be, the better. */
    LEAST_ALLOCATED {
        @Override
        double score(NodeState node, ResourceVector podRequests) {
            // Same resources as MostAllocated, each weighing 1 − fraction requested.
            return -node.mostAllocatedScore(podRequests);
        }
    };

    abstract double score(NodeState node, ResourceVector podRequests);
}
