package dev.muster.scheduler.core.dra;

import dev.muster.scheduler.core.model.NodeInfo;
import dev.muster.scheduler.core.model.NodeSelectorTerm;
import java.util.List;
import java.util.Objects;

/**
 * A ResourceSlice: devices of one driver's pool and the nodes that can reach them. Exactly one of
 * {@code nodeName}, {@code allNodes}, {@code nodeTerms} and {@code perDeviceNodeSelection} says where: devices on
 * one node, network-attached ones reachable from every node or from the nodes a selector picks, or devices that
 * each say where they are, which Muster does not read.
 *
 * @param name      the slice's name
 * @param driver    the driver
 * @param pool      the pool
 * @param nodeName  {@code spec.nodeName}; {@code null} for network-attached devices
 * @param allNodes  {@code spec.allNodes}
 * @param nodeTerms {@code spec.nodeSelector}'s terms, ORed; empty if none
 * @param devices   the devices
 * @param perDeviceNodeSelection {@code spec.perDeviceNodeSelection}: each device names its own node
 *                  ({@code devices[].nodeName}, {@code nodeSelector} or {@code allNodes}), which Muster does not
 *                  read, so the slice's devices are reachable from no node ({@link #PER_DEVICE_NODE_SELECTION})
 */
public record DeviceSlice(String name, String driver, String pool, String nodeName, boolean allNodes,
                          List<NodeSelectorTerm> nodeTerms, List<Device> devices, boolean perDeviceNodeSelection) {
    /** Why the devices of a slice with {@code perDeviceNodeSelection} are not allocated, naming the field. */
    public static final String PER_DEVICE_NODE_SELECTION = "perDeviceNodeSelection (devices that each name their node)";

    public DeviceSlice {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(driver, "driver");
        Objects.requireNonNull(pool, "pool");
        nodeName = nodeName == null || nodeName.isEmpty() ? null : nodeName;
        nodeTerms = nodeTerms == null ? List.of() : List.copyOf(nodeTerms);
        devices = devices == null ? List.of() : List.copyOf(devices);
    }

    /** A slice that says for all its devices where they are. */
    public DeviceSlice(String name, String driver, String pool, String nodeName, boolean allNodes,
                       List<NodeSelectorTerm> nodeTerms, List<Device> devices) {
        this(name, driver, pool, nodeName, allNodes, nodeTerms, devices, false);
    }

    /** The slice with these devices instead of its own. */
    public DeviceSlice withDevices(List<Device> newDevices) {
        return new DeviceSlice(name, driver, pool, nodeName, allNodes, nodeTerms, newDevices, perDeviceNodeSelection);
    }

    /** Whether a pod on the node can use the slice's devices. */
    public boolean reaches(NodeInfo node) {
        if (perDeviceNodeSelection) {
            return false;
        }
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
