package dev.muster.local.node;

import dev.muster.api.MusterLabels;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.NodeAddress;
import io.fabric8.kubernetes.api.model.NodeBuilder;
import io.fabric8.kubernetes.api.model.NodeCondition;
import io.fabric8.kubernetes.api.model.NodeConditionBuilder;
import io.fabric8.kubernetes.api.model.NodeStatus;
import io.fabric8.kubernetes.api.model.NodeSystemInfo;
import io.fabric8.kubernetes.api.model.NodeSystemInfoBuilder;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.client.utils.Serialization;

import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Stream;

/**
 * The Node objects of the local cluster: the uniform pool {@code node-0 .. node-(n-1)} described by
 * {@link NodeShape}, and user-supplied nodes (as with KWOK) whose missing status is filled in the way a
 * kubelet would report it, so that schedulers see capacity and a Ready condition.
 */
public final class SimulatedNodes {
    static final String HOSTNAME_LABEL = "kubernetes.io/hostname";
    static final String OS_LABEL = "kubernetes.io/os";
    static final String ARCH_LABEL = "kubernetes.io/arch";
    static final String INSTANCE_TYPE_LABEL = "node.kubernetes.io/instance-type";
    static final String EPHEMERAL_STORAGE = "ephemeral-storage";
    static final String HUGEPAGES_1GI = "hugepages-1Gi";
    static final String HUGEPAGES_2MI = "hugepages-2Mi";
    static final String GPU_RESOURCE = "nvidia.com/gpu";
    static final String KUBELET_VERSION = "v1.34.0-muster-local";

    private final NodeShape shape;
    /** Numbers node addresses; shared by all nodes so that no two get the same InternalIP. */
    private final AtomicInteger addresses = new AtomicInteger();

    /** Nodes of the pool, and user-supplied nodes completed, as {@code shape} says. */
    public SimulatedNodes(NodeShape shape) {
        this.shape = shape;
    }

    /** Name of the pool's node at {@code index}. */
    public static String poolNodeName(int index) {
        return "node-" + index;
    }

    /** Node {@code index} of the uniform pool, with its status. */
    public Node poolNode(int index) {
        return simulated(new NodeBuilder().withNewMetadata().withName(poolNodeName(index)).endMetadata().build());
    }

    /**
     * A copy of a user-supplied node marked as simulated, with complete status and the labels a kubelet sets
     * on its own node ({@code kubernetes.io/os}, {@code kubernetes.io/arch}, {@code kubernetes.io/hostname},
     * and {@code node.kubernetes.io/instance-type} when the pool has one); labels the node has are kept.
     */
    public Node simulated(Node node) {
        Node copy = new NodeBuilder(node).editOrNewMetadata()
                .addToLabels(MusterLabels.LOCAL_SIMULATED_NODE, "true")
                .endMetadata().build();
        Map<String, String> labels = copy.getMetadata().getLabels();
        labels.putIfAbsent(OS_LABEL, "linux");
        labels.putIfAbsent(ARCH_LABEL, "amd64");
        labels.putIfAbsent(HOSTNAME_LABEL, copy.getMetadata().getName());
        if (shape.instanceType() != null) {
            labels.putIfAbsent(INSTANCE_TYPE_LABEL, shape.instanceType());
        }
        return withCompleteStatus(copy);
    }

    /** Whether the node reports everything {@link #withCompleteStatus} fills in. */
    static boolean hasCompleteStatus(Node node) {
        NodeStatus status = node.getStatus();
        return status != null && notEmpty(status.getCapacity()) && notEmpty(status.getAllocatable())
                && readyCondition(status) != null && status.getAddresses() != null && !status.getAddresses().isEmpty()
                && hasCompleteNodeInfo(status);
    }

    /**
     * Whether the node info has every field a kubelet reports: each is required in the API's schema, and strict
     * clients refuse a node without one (the Python client: "Invalid value for `boot_id`, must not be `None`").
     */
    private static boolean hasCompleteNodeInfo(NodeStatus status) {
        NodeSystemInfo info = status.getNodeInfo();
        return info != null && Stream.of(info.getArchitecture(), info.getBootID(), info.getContainerRuntimeVersion(),
                info.getKernelVersion(), info.getKubeProxyVersion(), info.getKubeletVersion(), info.getMachineID(),
                info.getOperatingSystem(), info.getOsImage(), info.getSystemUUID()).allMatch(Objects::nonNull);
    }

    /** The node info given, its missing fields filled as a kubelet on a simulated machine would report them. */
    private static NodeSystemInfo completeNodeInfo(String nodeName, NodeSystemInfo given) {
        NodeSystemInfo info = given == null ? new NodeSystemInfo() : given;
        // Stable per node name, as a machine's ids are stable across kubelet restarts.
        String machineId = UUID.nameUUIDFromBytes(("machine/" + nodeName).getBytes(StandardCharsets.UTF_8)).toString();
        NodeSystemInfoBuilder filled = new NodeSystemInfoBuilder(info);
        if (info.getArchitecture() == null) {
            filled.withArchitecture("amd64");
        }
        if (info.getBootID() == null) {
            filled.withBootID(UUID.nameUUIDFromBytes(("boot/" + nodeName).getBytes(StandardCharsets.UTF_8)).toString());
        }
        if (info.getContainerRuntimeVersion() == null) {
            filled.withContainerRuntimeVersion("muster-local://1");
        }
        if (info.getKernelVersion() == null) {
            filled.withKernelVersion("simulated");
        }
        if (info.getKubeProxyVersion() == null) {
            // Deprecated and left empty by kubelets since 1.31; present because the schema requires it.
            filled.withKubeProxyVersion("");
        }
        if (info.getKubeletVersion() == null) {
            filled.withKubeletVersion(KUBELET_VERSION);
        }
        if (info.getMachineID() == null) {
            filled.withMachineID(machineId.replace("-", ""));
        }
        if (info.getOperatingSystem() == null) {
            filled.withOperatingSystem("linux");
        }
        if (info.getOsImage() == null) {
            filled.withOsImage("simulated");
        }
        if (info.getSystemUUID() == null) {
            filled.withSystemUUID(machineId);
        }
        return filled.build();
    }

    /**
     * A copy of the node whose missing status parts are filled in: capacity from the pool's configuration,
     * allocatable equal to capacity, an InternalIP address, node info, and condition Ready=True. A capacity
     * or allocatable given without {@code ephemeral-storage} or huge pages gets the pool's, since a kubelet
     * always reports them.
     */
    Node withCompleteStatus(Node node) {
        Node copy = Serialization.clone(node);
        NodeStatus status = copy.getStatus() == null ? new NodeStatus() : copy.getStatus();
        copy.setStatus(status);
        if (!notEmpty(status.getCapacity())) {
            status.setCapacity(poolCapacity());
        } else {
            status.setCapacity(withKubeletResources(status.getCapacity()));
        }
        if (!notEmpty(status.getAllocatable())) {
            status.setAllocatable(new LinkedHashMap<>(status.getCapacity()));
        } else {
            status.setAllocatable(withKubeletResources(status.getAllocatable()));
        }
        if (status.getAddresses() == null || status.getAddresses().isEmpty()) {
            status.setAddresses(List.of(new NodeAddress(nextInternalIp(), "InternalIP"),
                    new NodeAddress(copy.getMetadata().getName(), "Hostname")));
        }
        if (!hasCompleteNodeInfo(status)) {
            status.setNodeInfo(completeNodeInfo(copy.getMetadata().getName(), status.getNodeInfo()));
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
        capacity.put("cpu", new Quantity(shape.cpu()));
        capacity.put("memory", new Quantity(shape.memory()));
        capacity.put("pods", new Quantity(String.valueOf(shape.pods())));
        if (shape.gpus() > 0 && shape.gpuApi().extendedResource()) {
            capacity.put(GPU_RESOURCE, new Quantity(String.valueOf(shape.gpus())));
        }
        return withKubeletResources(capacity);
    }

    /**
     * The GPUs a node brings as given, before {@link #simulated}: its {@code nvidia.com/gpu} capacity, or the pool's
     * when it gives no capacity (as {@link #withCompleteStatus} fills it in).
     */
    public int gpus(Node node) {
        NodeStatus status = node.getStatus();
        if (status == null || !notEmpty(status.getCapacity())) {
            return shape.gpus();
        }
        Quantity gpus = status.getCapacity().get(GPU_RESOURCE);
        return gpus == null ? 0 : Quantity.getAmountInBytes(gpus).intValue();
    }

    /**
     * The resources a kubelet reports on every node, ephemeral storage and huge pages, added where missing; without
     * {@code nvidia.com/gpu} when the GPUs are offered through DRA only.
     */
    private Map<String, Quantity> withKubeletResources(Map<String, Quantity> resources) {
        Map<String, Quantity> complete = new LinkedHashMap<>(resources);
        if (!shape.gpuApi().extendedResource()) {
            complete.remove(GPU_RESOURCE);
        }
        complete.putIfAbsent(EPHEMERAL_STORAGE, new Quantity(shape.ephemeralStorage()));
        complete.putIfAbsent(HUGEPAGES_1GI, new Quantity(shape.hugepages1Gi()));
        complete.putIfAbsent(HUGEPAGES_2MI, new Quantity(shape.hugepages2Mi()));
        return complete;
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
