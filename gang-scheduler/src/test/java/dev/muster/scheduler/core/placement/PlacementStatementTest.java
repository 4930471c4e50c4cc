package dev.muster.scheduler.core.placement;

import dev.muster.scheduler.core.CoreFixtures;
import dev.muster.scheduler.core.cluster.ClusterSnapshot;
import dev.muster.scheduler.core.cluster.ClusterState;
import dev.muster.scheduler.core.cluster.NodeState;
import dev.muster.scheduler.core.model.GangInfo;
import dev.muster.scheduler.core.model.PodInfo;
import dev.muster.scheduler.core.model.ResourceVector;
import org.junit.jupiter.api.Test;

import java.util.Map;

import static dev.muster.scheduler.core.CoreFixtures.cluster;
import static dev.muster.scheduler.core.CoreFixtures.cpu;
import static dev.muster.scheduler.core.CoreFixtures.gang;
import static dev.muster.scheduler.core.CoreFixtures.node;
import static dev.muster.scheduler.core.CoreFixtures.pod;
import static dev.muster.scheduler.core.CoreFixtures.requestedByNode;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * The operation log of a gang's trial: evicting a bound pod frees its room at once, for the shape
 * indexes too, and a discarded statement leaves the snapshot exactly as it was, a committed one keeps
 * every operation.
 */
class PlacementStatementTest {
    private static final GangInfo BOUND_GANG = gang("bound", 1);
    private static final GangInfo NEW_GANG = gang("new", 1);
    /** Bound to node-0 before the cycle: node-0 has 1 cpu free, node-1 4. */
    private static final PodInfo BOUND = pod(BOUND_GANG, "bound-0", "", cpu(3));

    private static ClusterState twoNodesOneBound() {
        ClusterState state = cluster(node("node-0", 4), node("node-1", 4));
        state.occupy("node-0", BOUND.requests());
        return state;
    }

    /** The index of 3-cpu pods, which fit node-1 only until the bound pod's room is freed. */
    private static ShapeIndex threeCpuIndex(ClusterSnapshot snapshot, NodeChanges changes) {
        return new ShapeIndex(BOUND.shape(), snapshot.nodeArray(), NodeScoring.MOST_ALLOCATED, changes, false);
    }

    private static long slotsNow(ShapeIndex index, NodeChanges changes) {
        index.catchUp(changes);
        return index.totalSlots();
    }

    @Test
    void anEvictionFreesTheRoomAtOnceAndDiscardingItRestoresTheSnapshotExactly() {
        ClusterSnapshot snapshot = twoNodesOneBound().snapshot();
        Map<String, ResourceVector> before = requestedByNode(snapshot);
        NodeChanges changes = new NodeChanges(snapshot.nodeCount());
        ShapeIndex index = threeCpuIndex(snapshot, changes);
        assertThat(slotsNow(index, changes)).isEqualTo(1);

        PlacementStatement statement = new PlacementStatement(changes, new PodLayout(snapshot));
        statement.evict(BOUND, snapshot.node("node-0").orElseThrow());
        assertThat(requestedByNode(snapshot)).isEqualTo(requestedByNode(cluster(node("node-0", 4), node("node-1", 4))
                .snapshot()));
        assertThat(slotsNow(index, changes)).isEqualTo(2);

        statement.discard();
        assertThat(requestedByNode(snapshot)).isEqualTo(before);
        assertThat(slotsNow(index, changes)).isEqualTo(1);
    }

    @Test
    void anEvictionAndAnAllocationInItsRoomCommittedBothStay() {
        ClusterSnapshot snapshot = twoNodesOneBound().snapshot();
        NodeChanges changes = new NodeChanges(snapshot.nodeCount());
        ShapeIndex index = threeCpuIndex(snapshot, changes);
        NodeState node0 = snapshot.node("node-0").orElseThrow();
        PodInfo whole = pod(NEW_GANG, "new-0", "", cpu(4));

        PlacementStatement statement = new PlacementStatement(changes, new PodLayout(snapshot));
        statement.evict(BOUND, node0);
        statement.allocate(whole, node0);
        statement.commit();

        ClusterState expected = cluster(node("node-0", 4), node("node-1", 4));
        expected.occupy("node-0", whole.requests());
        assertThat(requestedByNode(snapshot)).isEqualTo(requestedByNode(expected.snapshot()));
        assertThat(slotsNow(index, changes)).isEqualTo(1);
    }

    @Test
    void aStatementTakesNothingOnceCommittedOrDiscarded() {
        ClusterSnapshot snapshot = twoNodesOneBound().snapshot();
        NodeState node1 = snapshot.node("node-1").orElseThrow();
        PodInfo pending = pod(NEW_GANG, "new-0", "", cpu(1));
        PlacementStatement committed = new PlacementStatement(new NodeChanges(snapshot.nodeCount()), new PodLayout(snapshot));
        committed.allocate(pending, node1);
        committed.commit();
        PlacementStatement discarded = new PlacementStatement(new NodeChanges(snapshot.nodeCount()), new PodLayout(snapshot));
        discarded.discard();

        assertThatThrownBy(() -> committed.allocate(pending, node1)).isInstanceOf(IllegalStateException.class);
        assertThatThrownBy(committed::discard).isInstanceOf(IllegalStateException.class);
        assertThatThrownBy(() -> discarded.evict(BOUND, node1)).isInstanceOf(IllegalStateException.class);
        assertThatThrownBy(discarded::commit).isInstanceOf(IllegalStateException.class);
    }
}
