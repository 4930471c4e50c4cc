package dev.muster.scheduler.core;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/** Small builders for core tests. */
final class CoreFixtures {
    static final long GI = 1L << 30;

    private CoreFixtures() {
    }

    static ResourceVector cpu(long cores) {
        return ResourceVector.builder().cpuMillis(cores * 1000).build();
    }

    static NodeInfo node(String name, long cores, long memoryGi, long pods) {
        return new NodeInfo(name, Map.of(), ResourceVector.builder().cpuMillis(cores * 1000)
                .memoryBytes(memoryGi * GI).pods(pods).build(), true, false);
    }

    static NodeInfo node(String name, long cores) {
        return node(name, cores, 8, 110);
    }

    static ClusterState cluster(NodeInfo... nodes) {
        ClusterState state = new ClusterState();
        for (NodeInfo node : nodes) {
            state.putNode(node);
        }
        return state;
    }

    static GangInfo gang(String name, int minMember) {
        return gang(name, minMember, Map.of());
    }

    static GangInfo gang(String name, int minMember, Map<String, Integer> minTaskMember) {
        return new GangInfo(GroupKey.podGroup("ns", name), minMember, minTaskMember, 0, Instant.EPOCH);
    }

    static PodInfo pod(GangInfo gang, String name, String task, ResourceVector requests) {
        return new PodInfo("ns", name, gang.key(), task, 0, requests, Map.of());
    }

    static List<PodInfo> pods(GangInfo gang, String task, int count, ResourceVector requests) {
        List<PodInfo> pods = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            pods.add(pod(gang, gang.key().name() + "-" + task + "-" + i, task, requests));
        }
        return pods;
    }

    static PendingGang pending(GangInfo gang, List<PodInfo> pods) {
        return new PendingGang(gang, pods, 0, Map.of());
    }

    /** The requested vector of every node, to compare a snapshot before and after a trial. */
    static Map<String, ResourceVector> requestedByNode(ClusterSnapshot snapshot) {
        Map<String, ResourceVector> requested = new java.util.TreeMap<>();
        snapshot.nodes().forEach(n -> requested.put(n.name(), n.requested()));
        return requested;
    }
}
