package dev.muster.scheduler.core.model;

import java.util.List;
import java.util.Objects;

/**
 * The nodes from which one of a pod's volumes can be used, as kube-scheduler's VolumeBinding filter
 * judges them: a bound PersistentVolume's required node affinity, or for a claim still unbound with
 * {@code WaitForFirstConsumer} binding, its StorageClass's {@code allowedTopologies}. A node passes when it
 * matches one of the terms.
 *
 * @param nodeTerms node selector terms, ORed; empty when no node can use the volume now (an unbound claim
 *                  with Immediate binding, a claim or volume that does not exist)
 * @param reason    why a node that matches none is rejected, as kube-scheduler words it; for a volume no
 *                  node can use, naming the claim
 */
public record VolumeTopology(List<NodeSelectorTerm> nodeTerms, String reason) {
    /** kube-scheduler's reason for a node outside a bound volume's node affinity. */
    public static final String NODE_CONFLICT = "node(s) had volume node affinity conflict";
    /** kube-scheduler's reason for a node where an unbound claim's volume cannot be provisioned. */
    public static final String BIND_CONFLICT = "node(s) didn't find available persistent volumes to bind";

    public VolumeTopology {
        nodeTerms = List.copyOf(nodeTerms);
        Objects.requireNonNull(reason, "reason");
    }

    /** Whether the volume can be used from the node. */
    public boolean reachableFrom(NodeInfo node) {
        for (NodeSelectorTerm term : nodeTerms) {
            if (term.matches(node)) {
                return true;
            }
        }
        return false;
    }
}
