package dev.muster.scheduler.core.placement;

import dev.muster.scheduler.core.CoreFixtures;
import dev.muster.scheduler.core.cluster.ClusterState;
import dev.muster.scheduler.core.cluster.NodeState;
import dev.muster.scheduler.core.model.GangInfo;
import dev.muster.scheduler.core.model.NodeInfo;
import dev.muster.scheduler.core.model.NodeSelectorRequirement;
import dev.muster.scheduler.core.model.NodeSelectorTerm;
import dev.muster.scheduler.core.model.PlacementConstraints;
import dev.muster.scheduler.core.model.PodInfo;
import dev.muster.scheduler.core.model.PreferredTerm;
import dev.muster.scheduler.core.model.ResourceVector;
import dev.muster.scheduler.core.model.Taint;
import dev.muster.scheduler.core.model.Toleration;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;

import static dev.muster.scheduler.core.CoreFixtures.GI;
import static dev.muster.scheduler.core.CoreFixtures.cluster;
import static dev.muster.scheduler.core.CoreFixtures.cpu;
import static dev.muster.scheduler.core.CoreFixtures.gang;
import static dev.muster.scheduler.core.CoreFixtures.pending;
import static org.assertj.core.api.Assertions.assertThat;

/** Preferred node affinity and PreferNoSchedule taints score nodes as kube-scheduler weighs them. */
class NodePreferencesTest {
    private static final ResourceVector TEN_CPU = ResourceVector.builder().cpuMillis(10_000).memoryBytes(8 * GI)
            .pods(110).build();
    private static final Taint AVOID = new Taint("spot", "", Taint.PREFER_NO_SCHEDULE);

    private static NodeInfo node(String name, String zone, Taint... taints) {
        return new NodeInfo(name, Map.of("zone", zone), TEN_CPU, true, false, List.of(taints));
    }

    private static String placeOne(ClusterState state, PlacementConstraints constraints) {
        GangInfo gang = gang("one", 1);
        PodInfo pod = new PodInfo("ns", "p", gang.key(), "", 0, cpu(1), constraints);
        return new GangTrial(state.snapshot()).attempt(pending(gang, List.of(pod))).placements().get(0).nodeName();
    }

    private static PlacementConstraints preferring(String zone, int weight) {
        return new PlacementConstraints(Map.of(), List.of(), List.of(), List.of(new PreferredTerm(weight,
                new NodeSelectorTerm(List.of(new NodeSelectorRequirement("zone", NodeSelectorRequirement.Operator.In,
                        List.of(zone))), List.of()))));
    }

    @Test
    void aPreferredZoneOutweighsBinPackingAsKubeSchedulersWeightsDo() {
        ClusterState state = cluster(node("node-0", "a"), node("node-1", "b"));
        // node-0 half full scores 30 of 100 for resources; node-1's preference is worth 2 × 100.
        state.occupy("node-0", cpu(5));

        assertThat(placeOne(state, PlacementConstraints.NONE)).isEqualTo("node-0");
        assertThat(placeOne(state, preferring("b", 1))).isEqualTo("node-1");
    }

    @Test
    void aPreferNoScheduleTaintSendsPodsElsewhereUnlessTolerated() {
        ClusterState state = cluster(node("node-0", "a", AVOID), node("node-1", "a"));
        state.occupy("node-0", cpu(5));

        assertThat(placeOne(state, PlacementConstraints.NONE)).isEqualTo("node-1");
        assertThat(placeOne(state, new PlacementConstraints(Map.of(), List.of(),
                List.of(new Toleration("spot", Toleration.EXISTS, null, null))))).isEqualTo("node-0");
    }

    @Test
    void preferencesAreNormalisedOverTheNodesTheShapeMayUse() {
        ClusterState state = cluster(node("node-0", "a"), node("node-1", "b"), node("node-2", "c"));
        NodeState[] nodes = state.snapshot().nodeArray();
        PlacementConstraints weighted = new PlacementConstraints(Map.of(), List.of(), List.of(), List.of(
                new PreferredTerm(30, new NodeSelectorTerm(List.of(new NodeSelectorRequirement("zone",
                        NodeSelectorRequirement.Operator.In, List.of("a", "b"))), List.of())),
                new PreferredTerm(10, new NodeSelectorTerm(List.of(new NodeSelectorRequirement("zone",
                        NodeSelectorRequirement.Operator.In, List.of("b"))), List.of()))));

        assertThat(NodePreferences.of(weighted, nodes, new boolean[] {true, true, true}, false))
                .containsExactly(2 * 75 + 3 * 100, 2 * 100 + 3 * 100, 3 * 100);
        assertThat(NodePreferences.of(weighted, nodes, new boolean[] {true, false, true}, false))
                .startsWith(2 * 100 + 3 * 100);
        assertThat(NodePreferences.of(PlacementConstraints.NONE, nodes, new boolean[] {true, true, true}, false))
                .isNull();
    }
}
