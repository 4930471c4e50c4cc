package dev.muster.local;

import dev.muster.api.MusterLabels;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.NodeAddress;
import io.fabric8.kubernetes.api.model.NodeBuilder;
import io.fabric8.kubernetes.api.model.NodeCondition;
import io.fabric8.kubernetes.api.model.NodeConditionBuilder;
import io.fabric8.kubernetes.api.model.NodeStatus;
import io.fabric8.kubernetes.api.model.NodeSystemInfoBuilder;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.client.utils.Serialization;

import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The Node objects of the local cluster: the uniform pool {@code node-0 .. node-(n-1)} described by
 * {@link LocalClusterConfig}, and user-supplied nodes (as with KWOK) whose missing status is filled in the way a
 * kubelet would report it, so that schedulers see capacity and a Ready condition.
 */
final class SimulatedNodes {
    static final String HOSTNAME_LABEL = "kubernetes.io/hostname";
    static final String GPU_RESOURCE = "nvidia.com/gpu";
    static final String KUBELET_VERSION = "v1.32.0-muster-local";

    private final LocalClusterConfig config;
    /** Numbers node addresses; shared by all nodes so that no two get the same InternalIP. */
    private final AtomicInteger addresses = new AtomicInteger();

    SimulatedNodes(LocalClusterConfig config) {
        this.config = config;
    }

    /** Name of the pool's node at {@code index}. */
    static String poolNodeName(int index) {
        return "node-" + index;
    }

    /** Node {@code index} of the uniform pool, with its status. */
    Node poolNode(int index) {
        return simulated(new NodeBuilder().withNewMetadata().withName(poolNodeName(index)).endMetadata().build());
    }

    /** A copy of a user-supplied node marked as simulated, with hostname label and complete status. */
    Node simulated(Node node) {
        Node copy = new NodeBuilder(node).editOrNewMetadata()
                .addToLabels(MusterLabels.LOCAL_SIMULATED_NODE, "true")
                .endMetadata().build();
        copy.getMetadata().getLabels().putIfAbsent(HOSTNAME_LABEL, copy.getMetadata().getName());
        return withCompleteStatus(copy);
    }

    /** Whether the node reports everything {@link #withCompleteStatus} fills in. */
    static boolean hasCompleteStatus(Node node) {
        NodeStatus status = node.getStatus();
        return status != null && notEmpty(status.getCapacity()) && notEmpty(status.getAllocatable())
                && readyCondition(status) != null && status.getAddresses() != null && !status.getAddresses().isEmpty()
                && status.getNodeInfo() != null;
    }

    /**
     * A copy of the node whose missing status parts are filled in: capacity from the pool's configuration,
     * allocatable equal to capacity, an InternalIP address, node info, and condition Ready=True.
     */
    Node withCompleteStatus(Node node) {
        Node copy = Serialization.clone(node);
        NodeStatus status = copy.getStatus() == null ? new NodeStatus() : copy.getStatus();
        copy.setStatus(status);
        if (!notEmpty(status.getCapacity())) {
            status.setCapacity(poolCapacity());
        }
        if (!notEmpty(status.getAllocatable())) {
            status.setAllocatable(new LinkedHashMap<>(status.getCapacity()));
        }
        if (status.getAddresses() == null || status.getAddresses().isEmpty()) {
            status.setAddresses(List.of(new NodeAddress(nextInternalIp(), "InternalIP"),
                    new NodeAddress(copy.getMetadata().getName(), "Hostname")));
        }
        if (status.getNodeInfo() == null) {
            status.setNodeInfo(new NodeSystemInfoBuilder().withKubeletVersion(KUBELET_VERSION)
                    .withContainerRuntimeVersion("muster-local://1").withOperatingSystem("linux")
                    .withArchitecture("amd64").withOsImage("simulated").build());
        }
        if (readyCondition(status) == null) {
            String now = Instant.now().truncatedTo(ChronoUnit.SECONDS).toString();
            status.getConditions().add(new NodeConditionBuilder().withType("Ready").withStatus("True")
                    .withReason("KubeletReady").withMessage("simulated kubelet is posting ready status")
                    .withLastHeartbeatTime(now).withLastTransitionTime(now).build());
        }
        return copy;
    }

    /** The node's InternalIP, which pods running on it report as {@code hostIP}. */
    static String internalIp(Node node) {
        if (node.getStatus() == null || node.getStatus().getAddresses() == null) {
            return null;
        }
        return node.getStatus().getAddresses().stream().filter(a -> "InternalIP".equals(a.getType()))
                .map(NodeAddress::getAddress).findFirst().orElse(null);
    }

    private Map<String, Quantity> poolCapacity() {
        Map<String, Quantity> capacity = new LinkedHashMap<>();
        capacity.put("cpu", new Quantity(config.nodeCpu()));
        capacity.put("memory", new Quantity(config.nodeMemory()));
        capacity.put("pods", new Quantity(String.valueOf(config.nodePods())));
        if (config.nodeGpus() > 0) {
            capacity.put(GPU_RESOURCE, new Quantity(String.valueOf(config.nodeGpus())));
        }
        return capacity;
    }

    /** Node addresses come from 10.0.0.0/9; pod addresses ({@link SimulatedKubelet}) from 10.128.0.0/9. */
    private String nextInternalIp() {
        int n = addresses.incrementAndGet();
        return "10." + ((n >>> 16) & 0x7f) + "." + ((n >>> 8) & 0xff) + "." + (n & 0xff);
    }

    private static NodeCondition readyCondition(NodeStatus status) {
        return status.getConditions().stream().filter(c -> "Ready".equals(c.getType())).findFirst().orElse(null);
    }

    private static boolean notEmpty(Map<?, ?> map) {
        return map != null && !map.isEmpty();
    }
}
