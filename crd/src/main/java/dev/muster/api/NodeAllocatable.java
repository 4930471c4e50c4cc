package dev.muster.api;

import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.Quantity;

import java.util.Map;

/**
 * What a node offers pods: its {@code status.allocatable}, or its capacity when it reports no allocatable (as
 * some emulators and freshly registered nodes do). The one reading for the scheduler, the CLI and the dashboard.
 */
public final class NodeAllocatable {
    private NodeAllocatable() {
    }

    /** The node's allocatable by resource name; empty for a node without status. */
    public static Map<String, Quantity> of(Node node) {
        var status = node.getStatus();
        Map<String, Quantity> quantities = status == null ? null
                : status.getAllocatable() != null ? status.getAllocatable() : status.getCapacity();
        return quantities == null ? Map.of() : quantities;
    }
}
