package dev.muster.local;

import dev.muster.local.autoscaler.AutoscalerConfig;
import dev.muster.local.autoscaler.NodeGroup;
import dev.muster.local.dra.GpuApi;
import dev.muster.local.dra.SimulatedGpuDriver;
import dev.muster.local.fault.FaultPlan;
import dev.muster.local.node.KubeletTimings;
import dev.muster.local.node.NodeShape;
import io.fabric8.kubernetes.api.model.Quantity;

import java.time.Duration;
import java.util.Objects;

/**
 * Shape of a {@link LocalCluster}: a uniform pool of simulated nodes and the timing of the simulated kubelet.
 * Start from {@link #defaults()} and change what matters with the {@code with...} methods, each of which
 * returns a copy with one component replaced.
 *
 * @param nodes          simulated nodes named {@code node-0} .. {@code node-(n-1)}
 * @param nodeCpu        CPU capacity of each node, as a Kubernetes quantity ({@code "16"}, {@code "3500m"})
 * @param nodeMemory     memory capacity of each node, as a Kubernetes quantity ({@code "64Gi"})
 * @param nodeGpus       GPUs of each pool node, offered as {@code gpuApi} says; 0 for none
 * @param nodePods       pod capacity of each node
 * @param podStartDelay  time between a pod's binding to a node and its phase {@code Running}
 * @param defaultRunTime how long a pod runs when it does not say ({@code local.muster.dev/run-seconds})
 * @param podStopDelay   how long a pod's containers take to stop once it is deleted gracefully (after SIGTERM,
 *                       on a real node); never longer than the pod's grace period
 * @param faults         requests the API emulator fails on purpose; {@link FaultPlan#NONE} by default
 * @param nodeEphemeralStorage {@code ephemeral-storage} capacity of each node, as a quantity
 * @param nodeHugepages1Gi {@code hugepages-1Gi} capacity of each node, as a quantity ({@code "0"} for none)
 * @param nodeHugepages2Mi {@code hugepages-2Mi} capacity of each node, as a quantity ({@code "0"} for none)
 * @param nodeInstanceType the {@code node.kubernetes.io/instance-type} label of each pool node; {@code null}
 *                         for none, as on a cluster without a cloud provider
 * @param gpuApi         how a node's GPUs are offered: as the {@code nvidia.com/gpu} extended resource, as DRA devices
 *                       of the simulated driver ({@link SimulatedGpuDriver}), or both
 * @param gpuCliqueSize  how many consecutive GPU nodes share one NVLink clique (the devices' {@code clique} attribute)
 * @param autoscaler the simulated cluster autoscaler's node groups and timings; {@link AutoscalerConfig#NONE}
 *                   (no autoscaler) by default
 * @param restartBackOff the first back-off before the simulated kubelet restarts a container that keeps exiting
 *                   (restart policy {@code OnFailure} or {@code Always}), doubling up to 30 times itself as the
 *                   kubelet's 10 s do up to 5 min; positive
 */
public record LocalClusterConfig(int nodes, String nodeCpu, String nodeMemory, int nodeGpus, int nodePods,
                                 Duration podStartDelay, Duration defaultRunTime, Duration podStopDelay,
                                 FaultPlan faults, String nodeEphemeralStorage, String nodeHugepages1Gi,
                                 String nodeHugepages2Mi, String nodeInstanceType, GpuApi gpuApi, int gpuCliqueSize,
                                 AutoscalerConfig autoscaler, Duration restartBackOff) {
    /** The {@code ephemeral-storage} a pool node reports unless told otherwise. */
    public static final String DEFAULT_EPHEMERAL_STORAGE = "100Gi";
    /** Nodes per NVLink clique unless told otherwise: a GB200 NVL72 rack's 18 trays are too many for a laptop's cluster. */
    public static final int DEFAULT_GPU_CLIQUE_SIZE = 4;

    public LocalClusterConfig {
        if (nodes < 0 || nodeGpus < 0 || nodePods < 1) {
            throw new IllegalArgumentException("nodes and nodeGpus must be >= 0 and nodePods >= 1, got nodes="
                    + nodes + " nodeGpus=" + nodeGpus + " nodePods=" + nodePods);
        }
        // Parsing now reports a bad flag at startup rather than as a broken Node object later.
        Quantity.getAmountInBytes(new Quantity(Objects.requireNonNull(nodeCpu, "nodeCpu")));
        Quantity.getAmountInBytes(new Quantity(Objects.requireNonNull(nodeMemory, "nodeMemory")));
        requireNonNegative(podStartDelay, "podStartDelay");
        requireNonNegative(defaultRunTime, "defaultRunTime");
        requireNonNegative(podStopDelay, "podStopDelay");
        Objects.requireNonNull(faults, "faults");
        requireQuantity(nodeEphemeralStorage, "nodeEphemeralStorage");
        requireQuantity(nodeHugepages1Gi, "nodeHugepages1Gi");
        requireQuantity(nodeHugepages2Mi, "nodeHugepages2Mi");
        Objects.requireNonNull(gpuApi, "gpuApi");
        if (gpuCliqueSize < 1) {
            throw new IllegalArgumentException("gpuCliqueSize must be >= 1, got " + gpuCliqueSize);
        }
        Objects.requireNonNull(autoscaler, "autoscaler");
        // Zero would let a pod that exits at once rewrite its status in a tight loop.
        if (requireNonNegative(restartBackOff, "restartBackOff").isZero()) {
            throw new IllegalArgumentException("restartBackOff must be positive, got " + restartBackOff);
        }
        if (nodeInstanceType != null && nodeInstanceType.isBlank()) {
            nodeInstanceType = null;
        }
    }

    /**
     * Four nodes of 16 CPUs, 64Gi, 110 pods and {@value #DEFAULT_EPHEMERAL_STORAGE} of ephemeral storage, no GPUs,
     * no huge pages and no instance type; pods start after 500 ms, run for 3 s and stop 300 ms after a graceful
     * deletion, and a container that keeps exiting is restarted after a back-off of 1 s, then 2 s, ... up to
     * 30 s (a tenth of the kubelet's). GPUs, when given, are offered both ways ({@link GpuApi#BOTH}), {@value #DEFAULT_GPU_CLIQUE_SIZE}
     * nodes to an NVLink clique.
     */
    public static LocalClusterConfig defaults() {
        return new LocalClusterConfig(4, "16", "64Gi", 0, 110, Duration.ofMillis(500), Duration.ofSeconds(3),
                Duration.ofMillis(300), FaultPlan.NONE, DEFAULT_EPHEMERAL_STORAGE, "0", "0", null, GpuApi.BOTH,
                DEFAULT_GPU_CLIQUE_SIZE, AutoscalerConfig.NONE, Duration.ofSeconds(1));
    }

    /** What each simulated node of the pool reports, the part of this configuration the simulated nodes need. */
    public NodeShape nodeShape() {
        return new NodeShape(nodeCpu, nodeMemory, nodeGpus, nodePods, nodeEphemeralStorage, nodeHugepages1Gi,
                nodeHugepages2Mi, nodeInstanceType, gpuApi);
    }

    /** How long the simulated kubelet's steps take, the part of this configuration the kubelet needs. */
    public KubeletTimings kubeletTimings() {
        return new KubeletTimings(podStartDelay, defaultRunTime, podStopDelay, restartBackOff);
    }

    public LocalClusterConfig withNodes(int nodes) {
        return new LocalClusterConfig(nodes, nodeCpu, nodeMemory, nodeGpus, nodePods, podStartDelay, defaultRunTime,
                podStopDelay, faults, nodeEphemeralStorage, nodeHugepages1Gi, nodeHugepages2Mi, nodeInstanceType,
                gpuApi, gpuCliqueSize, autoscaler, restartBackOff);
    }

    public LocalClusterConfig withNodeCpu(String nodeCpu) {
        return new LocalClusterConfig(nodes, nodeCpu, nodeMemory, nodeGpus, nodePods, podStartDelay, defaultRunTime,
                podStopDelay, faults, nodeEphemeralStorage, nodeHugepages1Gi, nodeHugepages2Mi, nodeInstanceType,
                gpuApi, gpuCliqueSize, autoscaler, restartBackOff);
    }

    public LocalClusterConfig withNodeMemory(String nodeMemory) {
        return new LocalClusterConfig(nodes, nodeCpu, nodeMemory, nodeGpus, nodePods, podStartDelay, defaultRunTime,
                podStopDelay, faults, nodeEphemeralStorage, nodeHugepages1Gi, nodeHugepages2Mi, nodeInstanceType,
                gpuApi, gpuCliqueSize, autoscaler, restartBackOff);
    }

    public LocalClusterConfig withNodeGpus(int nodeGpus) {
        return new LocalClusterConfig(nodes, nodeCpu, nodeMemory, nodeGpus, nodePods, podStartDelay, defaultRunTime,
                podStopDelay, faults, nodeEphemeralStorage, nodeHugepages1Gi, nodeHugepages2Mi, nodeInstanceType,
                gpuApi, gpuCliqueSize, autoscaler, restartBackOff);
    }

    public LocalClusterConfig withNodePods(int nodePods) {
        return new LocalClusterConfig(nodes, nodeCpu, nodeMemory, nodeGpus, nodePods, podStartDelay, defaultRunTime,
                podStopDelay, faults, nodeEphemeralStorage, nodeHugepages1Gi, nodeHugepages2Mi, nodeInstanceType,
                gpuApi, gpuCliqueSize, autoscaler, restartBackOff);
    }

    public LocalClusterConfig withPodStartDelay(Duration podStartDelay) {
        return new LocalClusterConfig(nodes, nodeCpu, nodeMemory, nodeGpus, nodePods, podStartDelay, defaultRunTime,
                podStopDelay, faults, nodeEphemeralStorage, nodeHugepages1Gi, nodeHugepages2Mi, nodeInstanceType,
                gpuApi, gpuCliqueSize, autoscaler, restartBackOff);
    }

    public LocalClusterConfig withDefaultRunTime(Duration defaultRunTime) {
        return new LocalClusterConfig(nodes, nodeCpu, nodeMemory, nodeGpus, nodePods, podStartDelay, defaultRunTime,
                podStopDelay, faults, nodeEphemeralStorage, nodeHugepages1Gi, nodeHugepages2Mi, nodeInstanceType,
                gpuApi, gpuCliqueSize, autoscaler, restartBackOff);
    }

    public LocalClusterConfig withPodStopDelay(Duration podStopDelay) {
        return new LocalClusterConfig(nodes, nodeCpu, nodeMemory, nodeGpus, nodePods, podStartDelay, defaultRunTime,
                podStopDelay, faults, nodeEphemeralStorage, nodeHugepages1Gi, nodeHugepages2Mi, nodeInstanceType,
                gpuApi, gpuCliqueSize, autoscaler, restartBackOff);
    }

    /** The first back-off before a container that keeps exiting is restarted; it doubles up to 30 times itself. */
    public LocalClusterConfig withRestartBackOff(Duration restartBackOff) {
        return new LocalClusterConfig(nodes, nodeCpu, nodeMemory, nodeGpus, nodePods, podStartDelay, defaultRunTime,
                podStopDelay, faults, nodeEphemeralStorage, nodeHugepages1Gi, nodeHugepages2Mi, nodeInstanceType,
                gpuApi, gpuCliqueSize, autoscaler, restartBackOff);
    }

    public LocalClusterConfig withFaults(FaultPlan faults) {
        return new LocalClusterConfig(nodes, nodeCpu, nodeMemory, nodeGpus, nodePods, podStartDelay, defaultRunTime,
                podStopDelay, faults, nodeEphemeralStorage, nodeHugepages1Gi, nodeHugepages2Mi, nodeInstanceType,
                gpuApi, gpuCliqueSize, autoscaler, restartBackOff);
    }

    public LocalClusterConfig withNodeEphemeralStorage(String nodeEphemeralStorage) {
        return new LocalClusterConfig(nodes, nodeCpu, nodeMemory, nodeGpus, nodePods, podStartDelay, defaultRunTime,
                podStopDelay, faults, nodeEphemeralStorage, nodeHugepages1Gi, nodeHugepages2Mi, nodeInstanceType,
                gpuApi, gpuCliqueSize, autoscaler, restartBackOff);
    }

    /** Each node's huge pages of 1Gi and of 2Mi, as quantities of memory ({@code "4Gi"}, {@code "512Mi"}). */
    public LocalClusterConfig withNodeHugepages(String nodeHugepages1Gi, String nodeHugepages2Mi) {
        return new LocalClusterConfig(nodes, nodeCpu, nodeMemory, nodeGpus, nodePods, podStartDelay, defaultRunTime,
                podStopDelay, faults, nodeEphemeralStorage, nodeHugepages1Gi, nodeHugepages2Mi, nodeInstanceType,
                gpuApi, gpuCliqueSize, autoscaler, restartBackOff);
    }

    public LocalClusterConfig withNodeInstanceType(String nodeInstanceType) {
        return new LocalClusterConfig(nodes, nodeCpu, nodeMemory, nodeGpus, nodePods, podStartDelay, defaultRunTime,
                podStopDelay, faults, nodeEphemeralStorage, nodeHugepages1Gi, nodeHugepages2Mi, nodeInstanceType,
                gpuApi, gpuCliqueSize, autoscaler, restartBackOff);
    }

    /** How nodes offer their GPUs: as {@code nvidia.com/gpu}, as DRA devices, or both. */
    public LocalClusterConfig withGpuApi(GpuApi gpuApi) {
        return new LocalClusterConfig(nodes, nodeCpu, nodeMemory, nodeGpus, nodePods, podStartDelay, defaultRunTime,
                podStopDelay, faults, nodeEphemeralStorage, nodeHugepages1Gi, nodeHugepages2Mi, nodeInstanceType,
                gpuApi, gpuCliqueSize, autoscaler, restartBackOff);
    }

    /** How many consecutive GPU nodes share one NVLink clique. */
    public LocalClusterConfig withGpuCliqueSize(int gpuCliqueSize) {
        return new LocalClusterConfig(nodes, nodeCpu, nodeMemory, nodeGpus, nodePods, podStartDelay, defaultRunTime,
                podStopDelay, faults, nodeEphemeralStorage, nodeHugepages1Gi, nodeHugepages2Mi, nodeInstanceType,
                gpuApi, gpuCliqueSize, autoscaler, restartBackOff);
    }

    /** The simulated cluster autoscaler's configuration; with node groups, the autoscaler runs. */
    public LocalClusterConfig withAutoscaler(AutoscalerConfig autoscaler) {
        return new LocalClusterConfig(nodes, nodeCpu, nodeMemory, nodeGpus, nodePods, podStartDelay, defaultRunTime,
                podStopDelay, faults, nodeEphemeralStorage, nodeHugepages1Gi, nodeHugepages2Mi, nodeInstanceType,
                gpuApi, gpuCliqueSize, autoscaler, restartBackOff);
    }

    /** The simulated cluster autoscaler with these node groups, its timings unchanged. */
    public LocalClusterConfig withNodeGroups(NodeGroup... groups) {
        return withAutoscaler(autoscaler.withNodeGroups(java.util.List.of(groups)));
    }

    private static void requireQuantity(String quantity, String name) {
        // Parsing now reports a bad flag at startup rather than as a broken Node object later.
        if (Quantity.getAmountInBytes(new Quantity(Objects.requireNonNull(quantity, name))).signum() < 0) {
            throw new IllegalArgumentException(name + " must not be negative, got " + quantity);
        }
    }

    private static Duration requireNonNegative(Duration duration, String name) {
        if (Objects.requireNonNull(duration, name).isNegative()) {
            throw new IllegalArgumentException(name + " must not be negative, got " + duration);
        }
        return duration;
    }
}
