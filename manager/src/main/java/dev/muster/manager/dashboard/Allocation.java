package dev.muster.manager.dashboard;

import dev.muster.api.NodeAllocatable;
import dev.muster.api.EffectiveRequests;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.Quantity;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * What the dashboard counts per node: the resources it shows (cpu in cores, memory in bytes, GPUs), a node's
 * allocatable and the requests of the pods that hold room on it.
 */
final class Allocation {
    /** The resources the dashboard shows, in the order it shows them. */
    static final List<String> RESOURCES = List.of("cpu", "memory", "nvidia.com/gpu");

    private Allocation() {
    }

    /** A node's allocatable (its capacity when it reports none), zero for what it does not have. */
    static Map<String, Double> allocatable(Node node) {
        return amounts(NodeAllocatable.of(node));
    }

    /** What a pod holds on its node while it is bound and not finished: its effective requests. */
    static Map<String, Double> requests(Pod pod) {
        Map<String, Double> total = zero();
        EffectiveRequests.amounts(pod.getSpec()).forEach((resource, amount) -> {
            if (total.containsKey(resource)) {
                total.put(resource, amount.doubleValue());
            }
        });
        return total;
    }

    static Map<String, Double> zero() {
        Map<String, Double> zero = new LinkedHashMap<>();
        RESOURCES.forEach(resource -> zero.put(resource, 0.0));
        return zero;
    }

    static void add(Map<String, Double> total, Map<String, Double> more) {
        more.forEach((resource, amount) -> total.merge(resource, amount, Double::sum));
    }

    private static Map<String, Double> amounts(Map<String, Quantity> quantities) {
        Map<String, Double> amounts = zero();
        if (quantities != null) {
            for (String resource : RESOURCES) {
                Quantity quantity = quantities.get(resource);
                if (quantity != null) {
                    amounts.put(resource, quantity.getNumericalAmount().doubleValue());
                }
            }
        }
        return amounts;
    }
}
