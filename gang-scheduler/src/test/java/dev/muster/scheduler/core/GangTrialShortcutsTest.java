package dev.muster.scheduler.core;

import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;

import static dev.muster.scheduler.core.CoreFixtures.GI;
import static dev.muster.scheduler.core.CoreFixtures.gang;
import static dev.muster.scheduler.core.CoreFixtures.pending;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * The trial skips work for pods shaped like earlier ones (a shape that fit nowhere is not retried; a
 * shape like the last one placed goes to the same node while it fits). These shortcuts must not change
 * any decision: on random clusters and gangs, the trial places exactly as a plain full scan per pod.
 */
class GangTrialShortcutsTest {

    @Test
    void placesExactlyLikeAFullScanPerPod() {
        for (int seed = 0; seed < 500; seed++) {
            placesExactlyLikeAFullScanPerPod(seed);
        }
    }

    private static void placesExactlyLikeAFullScanPerPod(long seed) {
        Random random = new Random(seed);
        List<NodeInfo> nodes = new ArrayList<>();
        for (int i = 0; i < 2 + random.nextInt(12); i++) {
            nodes.add(new NodeInfo(String.format("node-%02d", i), Map.of("zone", "z" + random.nextInt(2)),
                    ResourceVector.builder().cpuMillis(1000L * (2 + random.nextInt(31)))
                            .memoryBytes(GI * (2 + random.nextInt(63))).pods(3 + random.nextInt(20))
                            .set("nvidia.com/gpu", random.nextInt(3) * 4L).build(),
                    random.nextInt(10) > 0, random.nextInt(10) == 0));
        }
        GangInfo gang = gang("g", random.nextInt(40));
        List<PodInfo> shapes = new ArrayList<>();
        for (int s = 0; s < 1 + random.nextInt(3); s++) {
            ResourceVector requests = ResourceVector.builder().cpuMillis(250L * (1 + random.nextInt(16)))
                    .memoryBytes(GI / 2 * (1 + random.nextInt(8))).set("nvidia.com/gpu", random.nextInt(3)).build();
            Map<String, String> selector = random.nextBoolean() ? Map.of() : Map.of("zone", "z" + random.nextInt(2));
            shapes.add(new PodInfo("ns", "shape", gang.key(), "", 0, requests, selector));
        }
        List<PodInfo> pods = new ArrayList<>();
        for (int p = 0; p < 1 + random.nextInt(40); p++) {
            PodInfo shape = shapes.get(random.nextInt(shapes.size()));
            pods.add(new PodInfo("ns", String.format("p-%02d", p), gang.key(), "", 0, shape.requests(),
                    shape.nodeSelector()));
        }

        GangPlacement result = new GangTrial(stateOf(nodes).snapshot()).attempt(pending(gang, pods));
        List<PodPlacement> reference = fullScanPerPod(stateOf(nodes).snapshot(), pods);

        assertThat(result.placed()).as("seed %d", seed).isEqualTo(reference.size() >= gang.minMember());
        if (result.placed()) {
            assertThat(result.placements()).as("seed %d", seed).isEqualTo(reference);
        }
    }

    private static ClusterState stateOf(List<NodeInfo> nodes) {
        ClusterState state = new ClusterState();
        nodes.forEach(state::putNode);
        return state;
    }

    private static List<PodPlacement> fullScanPerPod(ClusterSnapshot snapshot, List<PodInfo> pods) {
        List<PodPlacement> placements = new ArrayList<>();
        for (PodInfo pod : pods) {
            NodeState node = NodePicker.mostAllocated(snapshot.nodeArray(), pod);
            if (node != null) {
                node.place(pod.requests());
                placements.add(new PodPlacement(pod, node.name()));
            }
        }
        return placements;
    }
}
