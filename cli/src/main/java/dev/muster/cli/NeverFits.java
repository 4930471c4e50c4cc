package dev.muster.cli;

import dev.muster.api.QuantityFormat;
import dev.muster.api.NodeAllocatable;
import dev.muster.api.EffectiveRequests;
import dev.muster.api.batch.v1alpha1.TaskSpec;
import io.fabric8.kubernetes.api.model.Node;

import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Finds the tasks whose pods can never be placed on this cluster: a pod that asks for more of a resource
 * than the largest node's allocatable waits forever, however much else finishes. Other reasons a pod may
 * not fit (node selectors, taints, two resources on no single node) are left to the scheduler's message.
 */
final class NeverFits {
    private NeverFits() {
    }

    /**
     * One sentence per task and resource that can never fit, e.g. {@code each worker pod asks for 16
     * nvidia.com/gpu, the largest node has 8}; empty if every pod fits some node by each resource alone.
     */
    static List<String> reasons(List<TaskSpec> tasks, List<Node> nodes) {
        Map<String, BigDecimal> largest = new TreeMap<>();
        for (Node node : nodes) {
            NodeAllocatable.of(node).forEach((name, q) -> largest.merge(name, q.getNumericalAmount(), BigDecimal::max));
        }
        List<String> reasons = new ArrayList<>();
        for (TaskSpec task : tasks) {
            if (task.getTemplate() == null || task.getTemplate().getSpec() == null) {
                continue;
            }
            EffectiveRequests.amounts(task.getTemplate().getSpec()).forEach((resource, asked) -> {
                BigDecimal most = largest.getOrDefault(resource, BigDecimal.ZERO);
                if (asked.compareTo(most) > 0) {
                    reasons.add("each " + task.getName() + " pod asks for " + QuantityFormat.of(resource, asked) + " "
                            + resource + ", " + (most.signum() == 0 ? "no node has any"
                            : "the largest node has " + QuantityFormat.of(resource, most)));
                }
            });
        }
        return reasons;
    }
}
