package dev.muster.scheduler.core.model;

import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * What the scheduler needs to know of a node.
 *
 * @param name          node name
 * @param labels        node labels, matched against pods' nodeSelector and node affinity
 * @param allocatable   capacity available to pods, including the number of pod slots
 * @param ready         whether the node's Ready condition is True
 * @param unschedulable whether the node is cordoned ({@code spec.unschedulable})
 * @param taints        the node's taints
 */
public record NodeInfo(String name, Map<String, String> labels, ResourceVector allocatable, boolean ready,
                       boolean unschedulable, List<Taint> taints) {

    public NodeInfo {
        Objects.requireNonNull(name, "name");
        labels = labels == null ? Map.of() : Map.copyOf(labels);
        Objects.requireNonNull(allocatable, "allocatable");
        taints = taints == null ? List.of() : List.copyOf(taints);
    }

    /** An untainted node. */
    public NodeInfo(String name, Map<String, String> labels, ResourceVector allocatable, boolean ready,
                    boolean unschedulable) {
        this(name, labels, allocatable, ready, unschedulable, List.of());
    }

    /** Whether new pods may be placed here at all. */
    public boolean schedulable() {
        return ready && !unschedulable;
    }
}
