package dev.muster.scheduler.core.dra;

import dev.muster.scheduler.core.model.NodeInfo;
import dev.muster.scheduler.core.model.NodeSelectorTerm;
import java.util.List;
import java.util.Objects;

/**
 * A ResourceSlice: devices of one driver's pool and the nodes that can reach them. Exactly one of
 * {@code nodeName}, {@code allNodes} and {@code nodeTerms} says where: devices on one node, or
 * network-attached ones reachable from every node or from the nodes a selector picks.
 *
 * @param name      the slice's name
 * @param driver    the driver
 * @param pool      the pool
 * @param nodeName  {@code spec.nodeName}; {@code null} for network-attached devices
 * @param allNodes  {@code spec.allNodes}
 * @param nodeTerms {@code spec.nodeSelector}'s terms, ORed; empty if none
 * @param devices   the devices
 */
public record DeviceSlice(String name, String driver, String pool, String nodeName, boolean allNodes,
                          List<NodeSelectorTerm> nodeTerms, List<Device> devices) {
    public DeviceSlice {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(driver, "driver");
        Objects.requireNonNull(pool, "pool");
        nodeName = nodeName == null || nodeName.isEmpty() ? null : nodeName;
        nodeTerms = nodeTerms == null ? List.of() : List.copyOf(nodeTerms);
        devices = devices == null ? List.of() : List.copyOf(devices);
    }

    /** Whether a pod on the node can use the slice's devices. */
    public boolean reaches(NodeInfo node) {
        if (nodeName != null) {
            return nodeName.equals(node.name());
        }
        if (allNodes) {
            return true;
        }
        for (NodeSelectorTerm term : nodeTerms) {
            if (term.matches(node)) {
                return true;
            }
        }
        return false;
    }
}
