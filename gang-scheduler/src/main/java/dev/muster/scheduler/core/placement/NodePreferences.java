package dev.muster.scheduler.core.placement;

import dev.muster.scheduler.core.cluster.NodeState;
import dev.muster.scheduler.core.model.PlacementConstraints;
import dev.muster.scheduler.core.model.Taint;

/**
 * The node-local score plugins beyond resources, with kube-scheduler's default weights and
 * normalisation: NodeAffinity (weight 2; the weights of the preferred terms a node matches, scaled so
 * the best node scores 100) and TaintToleration (weight 3; the {@code PreferNoSchedule} taints a node has
 * that the pod does not tolerate, scaled in reverse so the node with the most scores 0 and a node with
 * none 100). kube-scheduler normalises over the nodes that passed every filter for the pod; here over
 * the nodes that pass the shape's node filters, so that the score stays a property of the node and the
 * shape's heap keeps working.
 */
final class NodePreferences {
    static final int NODE_AFFINITY_WEIGHT = 2;
    static final int TAINT_TOLERATION_WEIGHT = 3;
    private static final long MAX_SCORE = 100;

    private NodePreferences() {
    }

    /**
     * Per node, its weighted, normalised preference score for pods with these constraints; {@code null}
     * if no eligible node matches a preferred term or has such a taint, which leaves ranking to the
     * resource score alone, exactly as without preferences.
     *
     * @param preferNoScheduleTaints whether some node has a {@code PreferNoSchedule} taint
     *                               ({@link #anyPreferNoSchedule}), asked once per cycle rather than per shape
     */
    static long[] of(PlacementConstraints constraints, NodeState[] nodes, boolean[] eligible,
                     boolean preferNoScheduleTaints) {
        if (constraints.preferredAffinity().isEmpty() && !preferNoScheduleTaints) {
            return null;
        }
        long[] affinity = new long[nodes.length];
        long[] taints = new long[nodes.length];
        long maxAffinity = 0;
        long maxTaints = 0;
        for (int n = 0; n < nodes.length; n++) {
            if (eligible[n]) {
                affinity[n] = constraints.preferredAffinityWeight(nodes[n].info());
                taints[n] = constraints.intolerablePreferNoSchedule(nodes[n].info());
                maxAffinity = Math.max(maxAffinity, affinity[n]);
                maxTaints = Math.max(maxTaints, taints[n]);
            }
        }
        if (maxAffinity == 0 && maxTaints == 0) {
            return null;
        }
        long[] score = new long[nodes.length];
        for (int n = 0; n < nodes.length; n++) {
            long affinityScore = maxAffinity == 0 ? 0 : MAX_SCORE * affinity[n] / maxAffinity;
            long taintScore = maxTaints == 0 ? MAX_SCORE : MAX_SCORE - MAX_SCORE * taints[n] / maxTaints;
            score[n] = NODE_AFFINITY_WEIGHT * affinityScore + TAINT_TOLERATION_WEIGHT * taintScore;
        }
        return score;
    }

    /** Whether a node has a PreferNoSchedule taint: most clusters have none, and then no shape needs a pass. */
    static boolean anyPreferNoSchedule(NodeState[] nodes) {
        for (NodeState node : nodes) {
            for (Taint taint : node.info().taints()) {
                if (Taint.PREFER_NO_SCHEDULE.equals(taint.effect())) {
                    return true;
                }
            }
        }
        return false;
    }
}
