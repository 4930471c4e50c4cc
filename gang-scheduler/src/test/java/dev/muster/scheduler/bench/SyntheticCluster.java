package dev.muster.scheduler.bench;

import dev.muster.scheduler.core.cluster.ClusterSnapshot;
import dev.muster.scheduler.core.cluster.ClusterState;
import dev.muster.scheduler.core.cluster.NodeState;
import dev.muster.scheduler.core.dra.Device;
import dev.muster.scheduler.core.dra.DeviceClaim;
import dev.muster.scheduler.core.dra.DeviceClass;
import dev.muster.scheduler.core.dra.DeviceInventory;
import dev.muster.scheduler.core.dra.DeviceRequest;
import dev.muster.scheduler.core.dra.DeviceSlice;
import dev.muster.scheduler.core.model.GangInfo;
import dev.muster.scheduler.core.model.GangTopology;
import dev.muster.scheduler.core.model.GroupKey;
import dev.muster.scheduler.core.model.InterPodTerms;
import dev.muster.scheduler.core.model.NodeInfo;
import dev.muster.scheduler.core.model.NodeSelectorRequirement;
import dev.muster.scheduler.core.model.NodeSelectorTerm;
import dev.muster.scheduler.core.model.PendingGang;
import dev.muster.scheduler.core.model.PlacementConstraints;
import dev.muster.scheduler.core.model.PodAffinityTerm;
import dev.muster.scheduler.core.model.PodInfo;
import dev.muster.scheduler.core.model.ResourceVector;
import dev.muster.scheduler.core.model.SpreadConstraint;
import dev.muster.scheduler.core.model.Taint;
import dev.muster.scheduler.core.model.Toleration;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;

/**
 * Synthetic clusters and workloads for the placement benchmarks, reproducible from a seed.
 *
 * <p>Nodes: 32 cpu, 256 GiB, 8 GPUs, 110 pods; three zones ({@code topology.kubernetes.io/zone}),
 * racks of 40 nodes ({@code topology.muster.dev/rack}); one node in 20 is tainted
 * {@code dedicated=infra:NoSchedule}.
 */
final class SyntheticCluster {
    static final long GI = 1L << 30;
    static final String GPU = "nvidia.com/gpu";
    static final String ZONE = "topology.kubernetes.io/zone";
    static final String RACK = "topology.muster.dev/rack";
    static final String HOSTNAME = "kubernetes.io/hostname";
    static final int NODES_PER_RACK = 40;
    static final Taint INFRA = new Taint("dedicated", "infra", Taint.NO_SCHEDULE);

    private static final ResourceVector[] CPU_SHAPES = {
            requests(1, 2, 0), requests(2, 8, 0), requests(4, 16, 0)};
    private static final ResourceVector[] GPU_SHAPES = {
            requests(4, 16, 1), requests(8, 32, 2), requests(16, 64, 4), requests(24, 128, 8)};
    private static final ResourceVector LAUNCHER = requests(1, 2, 0);

    private SyntheticCluster() {
    }

    static ResourceVector requests(long cpu, long memoryGi, long gpus) {
        return ResourceVector.builder().cpuMillis(cpu * 1000).memoryBytes(memoryGi * GI).set(GPU, gpus).build();
    }

    /** The GPU cluster of the scaling runs. */
    static ClusterState gpuNodes(int count) {
        ClusterState state = new ClusterState();
        ResourceVector allocatable = ResourceVector.builder().cpuMillis(32_000).memoryBytes(256 * GI).pods(110)
                .set(GPU, 8).build();
        for (int i = 0; i < count; i++) {
            state.putNode(new NodeInfo(String.format("node-%05d", i),
                    Map.of(ZONE, "zone-" + i % 3, RACK, "rack-" + i / NODES_PER_RACK), allocatable, true, false,
                    i % 20 == 19 ? List.of(INFRA) : List.of()));
        }
        return state;
    }

    /** The fixed comparison case's nodes: 32 cpu, 256 GiB, 110 pods, the hostname label and nothing else. */
    static ClusterState plainNodes(int count) {
        ClusterState state = new ClusterState();
        ResourceVector allocatable = ResourceVector.builder().cpuMillis(32_000).memoryBytes(256 * GI).pods(110).build();
        for (int i = 0; i < count; i++) {
            String name = String.format("node-%05d", i);
            state.putNode(new NodeInfo(name, Map.of(HOSTNAME, name), allocatable, true, false));
        }
        return state;
    }

    /**
     * Gangs of 8 to 256 pods adding up to {@code totalPods}: 60% cpu-only, 40% GPU training gangs with
     * one cpu-only launcher task (minTaskMember 1) beside the GPU workers. One gang in 10 tolerates the
     * infra taint, one in 10 is pinned to a zone; a quarter have minMember below their size, so pods
     * beyond the quorum are placed when they fit. Priorities 0 to 2; creation times in order.
     */
    static List<PendingGang> mixedGangs(int totalPods, long seed) {
        return mixedGangs(totalPods, seed, false);
    }

    /**
     * The mixed workload; with {@code podSpecTerms}, every third gang's pods are labelled with the gang's
     * name and carry a DoNotSchedule zone spread (maxSkew 1) over them, and every tenth gang is required
     * to fit one rack (gang topology), the same gangs otherwise.
     */
    static List<PendingGang> mixedGangs(int totalPods, long seed, boolean podSpecTerms) {
        Random random = new Random(seed);
        List<PendingGang> gangs = new ArrayList<>();
        int made = 0;
        for (int g = 0; made < totalPods; g++) {
            int size = Math.min(8 + random.nextInt(249), totalPods - made);
            if (size < 8 && !gangs.isEmpty()) {
                size = totalPods - made;
            }
            boolean gpu = random.nextInt(10) < 4;
            ResourceVector shape = gpu ? GPU_SHAPES[random.nextInt(GPU_SHAPES.length)]
                    : CPU_SHAPES[random.nextInt(CPU_SHAPES.length)];
            PlacementConstraints constraints = switch (random.nextInt(10)) {
                case 0 -> new PlacementConstraints(Map.of(), List.of(),
                        List.of(new Toleration("dedicated", Toleration.EQUAL, "infra", Taint.NO_SCHEDULE)));
                case 1 -> PlacementConstraints.ofNodeSelector(Map.of(ZONE, "zone-" + random.nextInt(3)));
                default -> PlacementConstraints.NONE;
            };
            int minMember = random.nextInt(4) == 0 ? Math.max(1, size * 3 / 4) : size;
            GroupKey key = GroupKey.podGroup("bench", "gang-" + g);
            Map<String, Integer> minTaskMember = gpu ? Map.of("launcher", 1) : Map.of();
            GangInfo info = new GangInfo(key, minMember, minTaskMember, random.nextInt(3),
                    Instant.EPOCH.plusSeconds(g), null,
                    podSpecTerms && g % 10 == 5 ? new GangTopology(List.of(RACK), true) : null);
            List<PodInfo> pods = new ArrayList<>(size);
            Map<String, String> labels = Map.of("gang", key.name());
            InterPodTerms terms = podSpecTerms && g % 3 == 0 ? new InterPodTerms(List.of(), List.of(), List.of(),
                    List.of(new SpreadConstraint(1, ZONE, List.of(new NodeSelectorRequirement("gang",
                            NodeSelectorRequirement.Operator.In, List.of(key.name()))), 1, true, false)))
                    : InterPodTerms.NONE;
            for (int p = 0; p < size; p++) {
                boolean launcher = gpu && p == 0;
                pods.add(new PodInfo("bench", key.name() + "-" + p, key, launcher ? "launcher" : "worker", 0,
                        launcher ? LAUNCHER : shape, constraints, labels, terms));
            }
            gangs.add(new PendingGang(info, pods, 0, Map.of()));
            made += size;
        }
        return gangs;
    }

    /** The fixed comparison case: gangs of 16 pods of 1 cpu and 1 GiB, minMember 16. */
    static List<PendingGang> uniformGangs(int gangCount) {
        return uniformGangs(gangCount, false);
    }

    /** The DeviceClass of {@link #gpuSlices}' devices. */
    static final String GPU_CLASS = "gpu.example.com";

    /**
     * The fixed comparison case with every pod claiming one device of {@link #GPU_CLASS} through a claim of
     * its own ({@code bench/<pod>-gpu}, see {@link #claimsOf}), which its requests count.
     */
    static List<PendingGang> uniformGangsClaimingGpus(int gangCount) {
        List<PendingGang> gangs = new ArrayList<>(gangCount);
        ResourceVector requests = ResourceVector.builder().cpuMillis(1000).memoryBytes(GI)
                .set(DeviceInventory.resourceName(GPU_CLASS), 1).build();
        for (PendingGang gang : uniformGangs(gangCount)) {
            List<PodInfo> pods = new ArrayList<>(gang.pending().size());
            for (PodInfo pod : gang.pending()) {
                pods.add(new PodInfo(pod.namespace(), pod.name(), pod.group(), pod.task(), pod.priority(), requests,
                        pod.constraints(), pod.labels(), pod.interPod(), null, null,
                        List.of(pod.namespace() + "/" + pod.name() + "-gpu")));
            }
            gangs.add(new PendingGang(gang.gang(), pods, 0, Map.of()));
        }
        return gangs;
    }

    /** The unallocated claims the gangs' pods name: one device of {@link #GPU_CLASS} each. */
    static List<DeviceClaim> claimsOf(List<PendingGang> gangs) {
        List<DeviceClaim> claims = new ArrayList<>();
        for (PendingGang gang : gangs) {
            for (PodInfo pod : gang.pending()) {
                for (String key : pod.deviceClaims()) {
                    claims.add(new DeviceClaim(pod.namespace(), key.substring(pod.namespace().length() + 1),
                            List.of(DeviceRequest.exactly("gpu", GPU_CLASS, 1)), List.of()));
                }
            }
        }
        return claims;
    }

    /** Every node's ResourceSlice of {@code perNode} GPUs, and the DeviceClass selecting them by driver. */
    static DeviceInventory gpuSlices(ClusterSnapshot snapshot, int perNode) {
        List<DeviceSlice> slices = new ArrayList<>(snapshot.nodeCount());
        for (NodeState node : snapshot.nodes()) {
            List<Device> devices = new ArrayList<>(perNode);
            for (int g = 0; g < perNode; g++) {
                devices.add(new Device(GPU_CLASS, node.name(), "gpu-" + g,
                        Map.of(GPU_CLASS + "/model", "h100"), Map.of(GPU_CLASS + "/memory", 80 * GI), List.of(), false, false, false));
            }
            slices.add(new DeviceSlice(node.name() + "-gpus", GPU_CLASS, node.name(), node.name(), false, List.of(),
                    devices));
        }
        return new DeviceInventory(slices, List.of(new DeviceClass(GPU_CLASS,
                List.of("device.driver == \"" + GPU_CLASS + "\""))));
    }

    /**
     * The fixed comparison case; with {@code onePerNode}, each gang's pods are labelled with the gang's
     * name and carry a required hostname anti-affinity to it, so no two of a gang share a node.
     */
    static List<PendingGang> uniformGangs(int gangCount, boolean onePerNode) {
        List<PendingGang> gangs = new ArrayList<>(gangCount);
        ResourceVector requests = ResourceVector.builder().cpuMillis(1000).memoryBytes(GI).build();
        for (int g = 0; g < gangCount; g++) {
            GroupKey key = GroupKey.podGroup("bench", "gang-" + g);
            GangInfo info = new GangInfo(key, 16, Map.of(), 0, Instant.EPOCH.plusSeconds(g));
            List<PodInfo> pods = new ArrayList<>(16);
            Map<String, String> labels = Map.of("gang", key.name());
            InterPodTerms terms = onePerNode ? new InterPodTerms(List.of(),
                    List.of(PodAffinityTerm.ofLabels(labels, "bench", HOSTNAME)), List.of()) : InterPodTerms.NONE;
            for (int p = 0; p < 16; p++) {
                pods.add(new PodInfo("bench", key.name() + "-" + p, key, "worker", 0, requests,
                        PlacementConstraints.NONE, labels, terms));
            }
            gangs.add(new PendingGang(info, pods, 0, Map.of()));
        }
        return gangs;
    }

    /**
     * A gang that cannot fit although each pod fits some node: 1,000 pods of 8 GPUs each, restricted by
     * required node affinity to racks 0 to 23, which have 960 nodes, 48 of them tainted.
     */
    static PendingGang infeasibleGang() {
        GroupKey key = GroupKey.podGroup("bench", "too-big");
        List<String> racks = new ArrayList<>();
        for (int r = 0; r < 24; r++) {
            racks.add("rack-" + r);
        }
        PlacementConstraints constraints = new PlacementConstraints(Map.of(), List.of(new NodeSelectorTerm(
                List.of(new NodeSelectorRequirement(RACK, NodeSelectorRequirement.Operator.In, racks)), List.of())),
                List.of());
        List<PodInfo> pods = new ArrayList<>(1000);
        for (int p = 0; p < 1000; p++) {
            pods.add(new PodInfo("bench", "too-big-" + p, key, "worker", 0, requests(16, 64, 8), constraints));
        }
        return new PendingGang(new GangInfo(key, 1000, Map.of(), 0, Instant.EPOCH), pods, 0, Map.of());
    }
}
