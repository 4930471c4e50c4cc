package dev.muster.local.dra;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.ObjectMeta;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.fabric8.kubernetes.api.model.OwnerReferenceBuilder;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A DRA driver for the simulated nodes' GPUs, in the manner of NVIDIA's {@code gpu.nvidia.com} kubelet plugin but
 * named {@value #DRIVER} so that no one mistakes it for the real one: each node with GPUs publishes one
 * ResourceSlice (its own pool, named after the node, owned by the Node so that it goes with it) whose devices
 * {@code gpu-0 .. gpu-(n-1)} carry NVIDIA's attribute names ({@code type}, {@code uuid}, {@code productName},
 * {@code brand}, {@code architecture}, {@code cudaComputeCapability}, {@code driverVersion}) and {@code memory}
 * capacity, plus {@value #CLIQUE_ATTRIBUTE}, the node's NVLink clique, which NVIDIA's driver reads from the GPU's
 * fabric info as {@code <cluster uuid>.<clique id>} and uses for ComputeDomains; here consecutive GPU nodes share
 * one, the local cluster's {@code gpuCliqueSize} at a time. The DeviceClass {@value #DEVICE_CLASS} selects every
 * device of the driver.
 *
 * <p>The objects are plain data built here; the local cluster writes them through the API, as the real
 * driver's kubelet plugin does.
 */
public final class SimulatedGpuDriver {
    /** The driver's name, in every slice and allocation result, and the domain of its attributes. */
    public static final String DRIVER = "gpu.example.com";
    /** The DeviceClass selecting every device of the driver. */
    public static final String DEVICE_CLASS = "gpu.example.com";
    /** The NVLink clique attribute, shared by the devices of a group of nodes: {@code gpu.example.com/clique}. */
    public static final String CLIQUE_ATTRIBUTE = "clique";
    /** What {@code productName} says, an H100 as in NVIDIA's own examples. */
    public static final String PRODUCT_NAME = "NVIDIA H100 80GB HBM3";
    /** Each device's {@code memory} capacity. */
    public static final String MEMORY = "80Gi";
    /** The apiVersion of DRA objects ({@code resource.k8s.io}, GA since Kubernetes 1.34) as the driver writes them. */
    public static final String API_VERSION = "resource.k8s.io/v1";
    /** The NVLink fabric's cluster uuid, the first part of every clique id; fixed so that ids are reproducible. */
    private static final UUID FABRIC = UUID.nameUUIDFromBytes("muster-local-nvlink".getBytes(StandardCharsets.UTF_8));

    private final int cliqueSize;
    /** Numbers the nodes that have published GPUs, in order, which puts them in cliques. */
    private final AtomicInteger gpuNodes = new AtomicInteger();

    /** A driver that puts {@code cliqueSize} consecutive GPU nodes into each NVLink clique. */
    public SimulatedGpuDriver(int cliqueSize) {
        this.cliqueSize = cliqueSize;
    }

    /** The DeviceClass {@value #DEVICE_CLASS}: {@code device.driver == "gpu.example.com"}. */
    public static GenericKubernetesResource deviceClass() {
        GenericKubernetesResource deviceClass = object("DeviceClass", new ObjectMetaBuilder().withName(DEVICE_CLASS).build());
        deviceClass.setAdditionalProperty("spec", Map.of("selectors", List.of(Map.of("cel",
                Map.of("expression", "device.driver == \"" + DRIVER + "\"")))));
        return deviceClass;
    }

    /** The clique id of the {@code index}-th GPU node: {@code <fabric uuid>.<index / clique size>}. */
    String cliqueOf(int index) {
        return FABRIC + "." + index / cliqueSize;
    }

    /** The slice of the next GPU node, {@code node} as stored (its uid owns the slice), with {@code gpus} devices. */
    public GenericKubernetesResource nextSlice(Node node, int gpus) {
        return slice(node, gpus, cliqueOf(gpuNodes.getAndIncrement()));
    }

    /** The slice of {@code node}'s {@code gpus} devices, all of NVLink clique {@code clique}. */
    static GenericKubernetesResource slice(Node node, int gpus, String clique) {
        String nodeName = node.getMetadata().getName();
        GenericKubernetesResource slice = object("ResourceSlice", new ObjectMetaBuilder()
                .withName(sliceName(nodeName))
                .withOwnerReferences(new OwnerReferenceBuilder().withApiVersion("v1").withKind("Node").withName(nodeName)
                        .withUid(node.getMetadata().getUid()).withController(true).build())
                .build());
        List<Map<String, Object>> devices = new ArrayList<>();
        for (int i = 0; i < gpus; i++) {
            devices.add(device(nodeName, i, clique));
        }
        Map<String, Object> spec = new LinkedHashMap<>();
        spec.put("driver", DRIVER);
        spec.put("nodeName", nodeName);
        spec.put("pool", Map.of("name", nodeName, "generation", 1, "resourceSliceCount", 1));
        spec.put("devices", devices);
        slice.setAdditionalProperty("spec", spec);
        return slice;
    }

    /** The name of a node's slice: {@code <node>-gpu.example.com}. */
    static String sliceName(String nodeName) {
        return nodeName + "-" + DRIVER;
    }

    private static Map<String, Object> device(String nodeName, int index, String clique) {
        Map<String, Object> attributes = new LinkedHashMap<>();
        attributes.put("type", Map.of("string", "gpu"));
        attributes.put("uuid", Map.of("string", "GPU-" + UUID.nameUUIDFromBytes(
                (nodeName + "/" + index).getBytes(StandardCharsets.UTF_8))));
        attributes.put("productName", Map.of("string", PRODUCT_NAME));
        attributes.put("brand", Map.of("string", "Nvidia"));
        attributes.put("architecture", Map.of("string", "Hopper"));
        attributes.put("cudaComputeCapability", Map.of("version", "9.0.0"));
        attributes.put("driverVersion", Map.of("version", "570.133.20"));
        attributes.put(CLIQUE_ATTRIBUTE, Map.of("string", clique));
        Map<String, Object> device = new LinkedHashMap<>();
        device.put("name", "gpu-" + index);
        device.put("attributes", attributes);
        device.put("capacity", Map.of("memory", Map.of("value", MEMORY)));
        return device;
    }

    private static GenericKubernetesResource object(String kind, ObjectMeta metadata) {
        GenericKubernetesResource object = new GenericKubernetesResource();
        object.setApiVersion(API_VERSION);
        object.setKind(kind);
        object.setMetadata(metadata);
        return object;
    }
}
