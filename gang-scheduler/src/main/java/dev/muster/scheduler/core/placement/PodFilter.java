package dev.muster.scheduler.core.placement;

import dev.muster.scheduler.core.model.PlacementConstraints;
import dev.muster.scheduler.core.model.PodInfo;

import java.util.List;

/**
 * A predicate whose verdict on a node depends on the pods around it, in two steps as kube-scheduler's
 * PreFilter and Filter: {@link #prepare} reads what it needs of the cycle's {@link PodLayout} once for a
 * pod, and the returned {@link NodeCheck} then judges nodes. Predicates on the node alone (selector,
 * node affinity, taints, readiness) are {@link PlacementConstraints}, evaluated once per pod shape.
 *
 * <p>Adding a predicate is a class implementing this and an entry in {@link #ALL}.
 */
interface PodFilter {
    /** Every filter, in kube-scheduler's order. */
    List<PodFilter> ALL = List.of(new NodePorts(), new PodTopologySpread(), new InterPodAffinity());

    /**
     * PreFilter: the check of nodes for the pod against the layout as it is now, or {@code null} if
     * this filter has nothing to say about the pod, which is what keeps pods without inter-pod terms on
     * the shape index's fast path. The check is valid until the layout next changes.
     */
    NodeCheck prepare(PodInfo pod, PodLayout layout);

    /** Judges nodes for one pod. */
    interface NodeCheck {
        /** Why the pod may not go to the node (a kube-scheduler reason), or {@code null} if it may. */
        String reject(int node);

        /** Whether the pod may go to the node; for a check whose verdict is cheaper than its reason. */
        default boolean passes(int node) {
            return reject(node) == null;
        }

        /**
         * Whether kube-scheduler runs this check before the resource fit, which decides the reason a
         * node counts under when it fails both.
         */
        default boolean beforeResources() {
            return false;
        }
    }
}
