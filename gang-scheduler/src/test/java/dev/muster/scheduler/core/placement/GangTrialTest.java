package dev.muster.scheduler.core.placement;

import dev.muster.scheduler.core.CoreFixtures;
import dev.muster.scheduler.core.cluster.ClusterSnapshot;
import dev.muster.scheduler.core.model.GangInfo;
import dev.muster.scheduler.core.model.GroupKey;
import dev.muster.scheduler.core.model.NodeInfo;
import dev.muster.scheduler.core.model.PendingGang;
import dev.muster.scheduler.core.model.PodInfo;
import dev.muster.scheduler.core.model.ResourceVector;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import static dev.muster.scheduler.core.CoreFixtures.cluster;
import static dev.muster.scheduler.core.CoreFixtures.cpu;
import static dev.muster.scheduler.core.CoreFixtures.gang;
import static dev.muster.scheduler.core.CoreFixtures.node;
import static dev.muster.scheduler.core.CoreFixtures.pending;
import static dev.muster.scheduler.core.CoreFixtures.pod;
import static dev.muster.scheduler.core.CoreFixtures.pods;
import static dev.muster.scheduler.core.CoreFixtures.requestedByNode;
import static org.assertj.core.api.Assertions.assertThat;

class GangTrialTest {

    private static ClusterSnapshot threeNodesOfFourCpu() {
        return cluster(node("node-0", 4), node("node-1", 4), node("node-2", 4)).snapshot();
    }

    @Test
    void placesNothingAndRestoresTheSnapshotWhenTheQuorumDoesNotFit() {
        ClusterSnapshot snapshot = threeNodesOfFourCpu();
        snapshot.node("node-1").orElseThrow().place(cpu(1));
        Map<String, ResourceVector> before = requestedByNode(snapshot);
        GangInfo gang = gang("train", 4);

        GangPlacement result = new GangTrial(snapshot).attempt(pending(gang, pods(gang, "worker", 4, cpu(3))));

        assertThat(result.outcome()).isEqualTo(GangPlacement.Outcome.NOT_ENOUGH_RESOURCES);
        assertThat(result.placements()).isEmpty();
        assertThat(result.unplaced()).hasSize(4);
        assertThat(requestedByNode(snapshot)).isEqualTo(before);
        assertThat(result.unschedulable().message()).isEqualTo("0/3 nodes are available: 3 Insufficient cpu.");
        assertThat(result.unschedulable().reasonCounts()).containsExactly(Map.entry("Insufficient cpu", 3));
        assertThat(result.message()).startsWith("0/3 nodes are available: 3 Insufficient cpu. ")
                .contains("minMember 4");
    }

    @Test
    void aProbeSaysWhatAnAttemptWouldPlaceAndKeepsNothing() {
        ClusterSnapshot snapshot = threeNodesOfFourCpu();
        Map<String, ResourceVector> before = requestedByNode(snapshot);
        GangInfo gang = gang("train", 3);
        PendingGang work = pending(gang, pods(gang, "worker", 4, cpu(3)));
        GangTrial trial = new GangTrial(snapshot);

        GangPlacement probed = trial.probe(work, false);

        assertThat(probed.placed()).isTrue();
        assertThat(requestedByNode(snapshot)).isEqualTo(before);
        GangPlacement attempted = trial.attempt(work);
        assertThat(attempted.placements()).isEqualTo(probed.placements());
        assertThat(requestedByNode(snapshot)).isNotEqualTo(before);
    }

    @Test
    void placesExactlyTheQuorumAndLeavesTheRestPendingWhenOnlyThatFits() {
        ClusterSnapshot snapshot = threeNodesOfFourCpu();
        GangInfo gang = gang("train", 3);

        GangPlacement result = new GangTrial(snapshot).attempt(pending(gang, pods(gang, "worker", 4, cpu(3))));

        assertThat(result.placed()).isTrue();
        assertThat(result.placements()).hasSize(3);
        assertThat(result.placements()).extracting(PodPlacement::nodeName)
                .containsExactlyInAnyOrder("node-0", "node-1", "node-2");
        assertThat(result.unplaced()).extracting(PodInfo::name).containsExactly("train-worker-3");
        assertThat(result.pendingPodMessage()).isEqualTo("0/3 nodes are available: 3 Insufficient cpu.");
        assertThat(snapshot.nodes()).allSatisfy(n -> assertThat(n.free(ResourceVector.CPU)).isEqualTo(1000));
    }

    @Test
    void placesPodsBeyondTheQuorumWhenTheyFit() {
        ClusterSnapshot snapshot = threeNodesOfFourCpu();
        GangInfo gang = gang("train", 2);

        GangPlacement result = new GangTrial(snapshot).attempt(pending(gang, pods(gang, "worker", 5, cpu(2))));

        assertThat(result.placements()).hasSize(5);
        assertThat(result.unplaced()).isEmpty();
    }

    @Test
    void reservesRoomForEachTaskMinimumBeforeOtherPods() {
        // Two nodes hold four 2-cpu pods. Tried in the given order, the four workers would take it all.
        ClusterSnapshot snapshot = cluster(node("node-0", 4), node("node-1", 4)).snapshot();
        GangInfo gang = gang("mpi", 4, Map.of("master", 1, "worker", 3));
        List<PodInfo> pods = new ArrayList<>(pods(gang, "worker", 4, cpu(2)));
        pods.add(pod(gang, "mpi-master-0", "master", cpu(2)));

        GangPlacement result = new GangTrial(snapshot).attempt(pending(gang, pods));

        assertThat(result.placed()).isTrue();
        assertThat(result.placements()).extracting(p -> p.pod().task())
                .containsExactlyInAnyOrder("master", "worker", "worker", "worker");
        assertThat(result.unplaced()).extracting(PodInfo::task).containsExactly("worker");
    }

    @Test
    void failsTheWholeGangWhenOneTaskMinimumCannotBePlaced() {
        ClusterSnapshot snapshot = cluster(node("node-0", 8), node("node-1", 8)).snapshot();
        Map<String, ResourceVector> before = requestedByNode(snapshot);
        GangInfo gang = gang("mpi", 2, Map.of("master", 1, "worker", 1));
        ResourceVector gpu = ResourceVector.builder().cpuMillis(1000).set("nvidia.com/gpu", 1).build();
        List<PodInfo> pods = new ArrayList<>(pods(gang, "worker", 3, cpu(1)));
        pods.add(pod(gang, "mpi-master-0", "master", gpu));

        GangPlacement result = new GangTrial(snapshot).attempt(pending(gang, pods));

        assertThat(result.outcome()).isEqualTo(GangPlacement.Outcome.NOT_ENOUGH_RESOURCES);
        assertThat(result.placements()).isEmpty();
        assertThat(result.unschedulable().reasonCounts()).containsExactly(Map.entry("Insufficient nvidia.com/gpu", 2));
        assertThat(result.message()).contains("Task master").contains("minTaskMember 1");
        assertThat(requestedByNode(snapshot)).isEqualTo(before);
    }

    @Test
    void countsBoundPodsTowardTheQuorum() {
        ClusterSnapshot snapshot = threeNodesOfFourCpu();
        GangInfo gang = gang("train", 4, Map.of("worker", 3));
        // Two of the gang's workers already run; node-0 has no room left for a 3-cpu pod.
        snapshot.node("node-0").orElseThrow().place(cpu(2));
        PendingGang work = new PendingGang(gang, pods(gang, "worker", 2, cpu(3)), 2, Map.of("worker", 2));

        GangPlacement result = new GangTrial(snapshot).attempt(work);

        assertThat(result.placed()).isTrue();
        assertThat(result.placements()).extracting(PodPlacement::nodeName).containsExactlyInAnyOrder("node-1", "node-2");
    }

    @Test
    void doesNotTryAGangWithFewerPodsThanItsQuorum() {
        ClusterSnapshot snapshot = threeNodesOfFourCpu();
        GangInfo gang = gang("train", 4);

        GangPlacement result = new GangTrial(snapshot).attempt(pending(gang, pods(gang, "worker", 3, cpu(1))));

        assertThat(result.outcome()).isEqualTo(GangPlacement.Outcome.NOT_ENOUGH_PODS);
        assertThat(result.placements()).isEmpty();
        assertThat(result.message()).contains("minMember 4");
    }

    @Test
    void doesNotTryAGangWhoseTaskHasFewerPodsThanItsMinimum() {
        GangInfo gang = gang("mpi", 2, Map.of("master", 1));

        GangPlacement result = new GangTrial(threeNodesOfFourCpu())
                .attempt(pending(gang, pods(gang, "worker", 3, cpu(1))));

        assertThat(result.outcome()).isEqualTo(GangPlacement.Outcome.NOT_ENOUGH_PODS);
        assertThat(result.message()).contains("task master").contains("minTaskMember 1");
    }

    @Test
    void packsPodsOntoTheFullestNode() {
        ClusterSnapshot snapshot = cluster(node("node-0", 8), node("node-1", 8), node("node-2", 8)).snapshot();
        snapshot.node("node-2").orElseThrow().place(cpu(4));
        GangInfo gang = gang("train", 3);

        GangPlacement result = new GangTrial(snapshot).attempt(pending(gang, pods(gang, "worker", 3, cpu(2))));

        // Two pods fill node-2 up; the third goes to the first of the equally empty nodes.
        assertThat(result.placements()).extracting(PodPlacement::nodeName)
                .containsExactly("node-2", "node-2", "node-0");
    }

    @Test
    void explainsEveryPredicateInKubeSchedulerWords() {
        NodeInfo cordoned = new NodeInfo("a-cordoned", Map.of(), node("x", 8).allocatable(), true, true);
        NodeInfo notReady = new NodeInfo("b-not-ready", Map.of(), node("x", 8).allocatable(), false, false);
        NodeInfo wrongZone = node("c-zone-b", 8, Map.of("zone", "b"));
        NodeInfo small = new NodeInfo("d-small", Map.of("zone", "a"), node("x", 1, 1, 110).allocatable(), true, false);
        NodeInfo full = new NodeInfo("e-full", Map.of("zone", "a"), node("x", 8, 8, 0).allocatable(), true, false);
        ClusterSnapshot snapshot = cluster(cordoned, notReady, wrongZone, small, full).snapshot();
        GangInfo gang = gang("solo", 1);
        ResourceVector requests = ResourceVector.builder().cpuMillis(2000).memoryBytes(2 * CoreFixtures.GI).build();
        PodInfo pod = new PodInfo("ns", "p", gang.key(), "", 0, requests, Map.of("zone", "a"));

        GangPlacement result = new GangTrial(snapshot).attempt(pending(gang, List.of(pod)));

        assertThat(result.unschedulable().message()).isEqualTo("0/5 nodes are available: 1 Insufficient cpu, "
                + "1 Insufficient memory, 1 Too many pods, 1 node(s) didn't match Pod's node affinity/selector, "
                + "1 node(s) were not ready, 1 node(s) were unschedulable.");
    }

    @Test
    void checksPodSlotsAndExtendedResources() {
        NodeInfo gpuNode = new NodeInfo("gpu", Map.of(), ResourceVector.builder().cpuMillis(32_000)
                .memoryBytes(64 * CoreFixtures.GI).pods(2).set("nvidia.com/gpu", 8).build(), true, false);
        ClusterSnapshot snapshot = cluster(gpuNode).snapshot();
        GangInfo gang = gang("llm", 2);
        ResourceVector fourGpus = ResourceVector.builder().cpuMillis(1000).set("nvidia.com/gpu", 4).build();

        GangPlacement result = new GangTrial(snapshot).attempt(pending(gang, pods(gang, "w", 3, fourGpus)));

        assertThat(result.placements()).hasSize(2);
        assertThat(result.unschedulable().reasonCounts())
                .containsOnlyKeys("Insufficient nvidia.com/gpu", "Too many pods");
        assertThat(snapshot.node("gpu").orElseThrow().free("nvidia.com/gpu")).isZero();
    }

    @Test
    void aStandalonePodGetsThePlainKubeSchedulerMessage() {
        GangInfo solo = new GangInfo(GroupKey.standalonePod("ns", "p"), 1, Map.of(), 0, java.time.Instant.EPOCH);
        PodInfo pod = new PodInfo("ns", "p", solo.key(), "", 0, cpu(5), Map.of());

        GangPlacement result = new GangTrial(threeNodesOfFourCpu()).attempt(pending(solo, List.of(pod)));

        assertThat(result.message()).isEqualTo("0/3 nodes are available: 3 Insufficient cpu.");
    }

    @Test
    void rejectsAGangWhoseSumFitsButWhoseNodesDoNot() {
        // 16 cpu free in total for 15 requested, but each 8-cpu node takes only two 3-cpu pods.
        ClusterSnapshot snapshot = cluster(node("node-0", 8), node("node-1", 8)).snapshot();
        Map<String, ResourceVector> before = requestedByNode(snapshot);
        GangInfo gang = gang("frag", 5);

        GangPlacement result = new GangTrial(snapshot).attempt(pending(gang, pods(gang, "w", 5, cpu(3))));

        assertThat(result.outcome()).isEqualTo(GangPlacement.Outcome.NOT_ENOUGH_RESOURCES);
        assertThat(result.message()).isEqualTo("0/2 nodes are available: 2 Insufficient cpu. "
                + "The gang needs 5 pod(s) placed at once for minMember 5.");
        assertThat(requestedByNode(snapshot)).isEqualTo(before);
    }

    @Test
    void rejectsATaskMinimumThatCannotFitThoughTheGangCould() {
        ClusterSnapshot snapshot = cluster(node("node-0", 4)).snapshot();
        GangInfo gang = gang("mpi", 2, Map.of("ps", 2));
        List<PodInfo> pods = new ArrayList<>(pods(gang, "worker", 2, cpu(1)));
        pods.addAll(pods(gang, "ps", 2, cpu(3)));

        GangPlacement result = new GangTrial(snapshot).attempt(pending(gang, pods));

        assertThat(result.outcome()).isEqualTo(GangPlacement.Outcome.NOT_ENOUGH_RESOURCES);
        assertThat(result.message()).endsWith("Task ps needs 2 pod(s) placed at once for minTaskMember 2.");
    }

    @Test
    void spreadsPodsWhenScoringLeastAllocated() {
        ClusterSnapshot snapshot = cluster(node("node-0", 8), node("node-1", 8), node("node-2", 8)).snapshot();
        snapshot.node("node-0").orElseThrow().place(cpu(1));
        GangInfo gang = gang("web", 3);

        GangPlacement result = new GangTrial(snapshot, NodeScoring.LEAST_ALLOCATED)
                .attempt(pending(gang, pods(gang, "w", 3, cpu(2))));

        // The emptiest node first; ties go to the first name; node-0 is fuller from the start.
        assertThat(result.placements()).extracting(PodPlacement::nodeName)
                .containsExactly("node-1", "node-2", "node-0");
    }
}
