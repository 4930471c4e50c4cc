package dev.muster.scheduler.core;

import dev.muster.scheduler.core.cluster.ClusterSnapshot;
import dev.muster.scheduler.core.cluster.ClusterState;
import dev.muster.scheduler.core.model.GangInfo;
import dev.muster.scheduler.core.model.GroupKey;
import dev.muster.scheduler.core.model.NodeInfo;
import dev.muster.scheduler.core.model.PendingGang;
import dev.muster.scheduler.core.model.PodInfo;
import dev.muster.scheduler.core.model.ResourceVector;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/** Small builders for core tests. */
public final class CoreFixtures {
    public static final long GI = 1L << 30;
    /** The well-known zone label of nodes. */
    public static final String ZONE = "topology.kubernetes.io/zone";

    private CoreFixtures() {
    }

    public static ResourceVector cpu(long cores) {
        return ResourceVector.builder().cpuMillis(cores * 1000).build();
    }

    public static NodeInfo node(String name, long cores, long memoryGi, long pods) {
        return new NodeInfo(name, Map.of(), ResourceVector.builder().cpuMillis(cores * 1000)
                .memoryBytes(memoryGi * GI).pods(pods).build(), true, false);
    }

    public static NodeInfo node(String name, long cores) {
        return node(name, cores, 8, 110);
    }

    /** A ready, schedulable node of {@code cores} cpu, 8 GiB and 110 pod slots, with labels. */
    public static NodeInfo node(String name, long cores, Map<String, String> labels) {
        return new NodeInfo(name, labels, node(name, cores).allocatable(), true, false);
    }

    /** A ready, schedulable node of {@code cores} cpu, 8 GiB and 110 pod slots in a zone ({@link #ZONE}). */
    public static NodeInfo zoned(String name, long cores, String zone) {
        return node(name, cores, Map.of(ZONE, zone));
    }

    public static ClusterState cluster(NodeInfo... nodes) {
        ClusterState state = new ClusterState();
        for (NodeInfo node : nodes) {
            state.putNode(node);
        }
        return state;
    }

    public static GangInfo gang(String name, int minMember) {
        return gang(name, minMember, Map.of());
    }

    public static GangInfo gang(String name, int minMember, Map<String, Integer> minTaskMember) {
        return new GangInfo(GroupKey.podGroup("ns", name), minMember, minTaskMember, 0, Instant.EPOCH);
    }

    public static PodInfo pod(GangInfo gang, String name, String task, ResourceVector requests) {
        return new PodInfo("ns", name, gang.key(), task, 0, requests, Map.of());
    }

    public static List<PodInfo> pods(GangInfo gang, String task, int count, ResourceVector requests) {
        List<PodInfo> pods = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            pods.add(pod(gang, gang.key().name() + "-" + task + "-" + i, task, requests));
        }
        return pods;
    }

    public static PendingGang pending(GangInfo gang, List<PodInfo> pods) {
        return new PendingGang(gang, pods, 0, Map.of());
    }

    /** The requested vector of every node, to compare a snapshot before and after a trial. */
    public static Map<String, ResourceVector> requestedByNode(ClusterSnapshot snapshot) {
        Map<String, ResourceVector> requested = new java.util.TreeMap<>();
        snapshot.nodes().forEach(n -> requested.put(n.name(), n.requested()));
        return requested;
    }
}
