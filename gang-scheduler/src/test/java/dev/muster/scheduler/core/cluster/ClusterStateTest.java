package dev.muster.scheduler.core.cluster;

import dev.muster.scheduler.core.CoreFixtures;
import dev.muster.scheduler.core.model.ResourceVector;
import org.junit.jupiter.api.Test;

import static dev.muster.scheduler.core.CoreFixtures.cluster;
import static dev.muster.scheduler.core.CoreFixtures.cpu;
import static dev.muster.scheduler.core.CoreFixtures.node;
import static org.assertj.core.api.Assertions.assertThat;

class ClusterStateTest {

    @Test
    void tracksWhatBoundPodsUseIncrementally() {
        ClusterState state = cluster(node("node-0", 4));
        state.occupy("node-0", cpu(1));
        state.occupy("node-0", cpu(2));
        state.release("node-0", cpu(1));

        NodeState node = state.snapshot().node("node-0").orElseThrow();

        assertThat(node.free(ResourceVector.CPU)).isEqualTo(2000);
        assertThat(node.free(ResourceVector.PODS)).isEqualTo(109);
    }

    @Test
    void aSnapshotIsIsolatedFromLaterChangesAndTheStateFromTrials() {
        ClusterState state = cluster(node("node-0", 4));
        ClusterSnapshot first = state.snapshot();
        first.node("node-0").orElseThrow().place(cpu(3));
        state.occupy("node-0", cpu(1));

        assertThat(first.node("node-0").orElseThrow().free(ResourceVector.CPU)).isEqualTo(1000);
        assertThat(state.snapshot().node("node-0").orElseThrow().free(ResourceVector.CPU)).isEqualTo(3000);
    }

    @Test
    void usageOnANodeNotYetKnownAppliesWhenItAppears() {
        ClusterState state = new ClusterState();
        state.occupy("late", cpu(3));
        assertThat(state.snapshot().nodeCount()).isZero();

        state.putNode(node("late", 4));

        assertThat(state.snapshot().node("late").orElseThrow().free(ResourceVector.CPU)).isEqualTo(1000);
    }

    @Test
    void podsOnADeletedNodeUseNoCapacityUntilTheNodeReturns() {
        ClusterState state = cluster(node("node-0", 4), node("node-1", 4));
        state.occupy("node-0", cpu(3));

        state.removeNode("node-0");

        assertThat(state.hasNode("node-0")).isFalse();
        assertThat(state.snapshot().nodes()).extracting(NodeState::name).containsExactly("node-1");
        // A node that re-registers still runs its pods, so their usage applies again.
        state.putNode(node("node-0", 4));
        assertThat(state.snapshot().node("node-0").orElseThrow().free(ResourceVector.CPU)).isEqualTo(1000);
    }

    @Test
    void reportsWhetherANodeUpdateChangedAnything() {
        ClusterState state = new ClusterState();
        assertThat(state.putNode(node("node-0", 4))).isTrue();
        assertThat(state.putNode(node("node-0", 4))).isFalse();
        assertThat(state.putNode(node("node-0", 8))).isTrue();
    }

    @Test
    void namespaceLabelsChangeForLaterSnapshotsOnly() {
        ClusterState state = new ClusterState();
        assertThat(state.putNamespace("team", java.util.Map.of("tier", "gold"))).isTrue();
        ClusterSnapshot before = state.snapshot();

        assertThat(state.putNamespace("team", java.util.Map.of("tier", "gold"))).isFalse();
        assertThat(state.putNamespace("team", java.util.Map.of("tier", "silver"))).isTrue();
        assertThat(state.removeNamespace("team")).isTrue();
        assertThat(state.removeNamespace("team")).isFalse();

        assertThat(before.namespaceLabels()).isEqualTo(java.util.Map.of("team", java.util.Map.of("tier", "gold")));
        assertThat(state.snapshot().namespaceLabels()).isEmpty();
    }
}
