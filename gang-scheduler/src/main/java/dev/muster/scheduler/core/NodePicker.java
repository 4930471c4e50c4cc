package dev.muster.scheduler.core;

import java.util.Map;

/** Chooses the node for one pod: among the nodes that pass every predicate, the fullest one. */
final class NodePicker {
    private NodePicker() {
    }

    /**
     * The schedulable node that matches the pod's nodeSelector, has room for its requests, and has the
     * highest {@link NodeState#mostAllocatedScore bin-packing score}; the first in name order on ties.
     *
     * @return the node, or {@code null} if the pod fits nowhere
     */
    static NodeState mostAllocated(NodeState[] nodes, PodInfo pod) {
        ResourceVector requests = pod.requests();
        Map<String, String> selector = pod.nodeSelector();
        NodeState best = null;
        double bestScore = Double.NEGATIVE_INFINITY;
        for (NodeState node : nodes) {
            if (node.schedulable() && node.matches(selector) && node.fits(requests)) {
                double score = node.mostAllocatedScore(requests);
                if (score > bestScore) {
                    best = node;
                    bestScore = score;
                }
            }
        }
        return best;
    }
}
