package dev.muster.scheduler.core.placement;

import dev.muster.scheduler.core.cluster.ClusterSnapshot;
import dev.muster.scheduler.core.cluster.ClusterState;
import dev.muster.scheduler.core.model.GangInfo;
import dev.muster.scheduler.core.model.GangMember;
import dev.muster.scheduler.core.model.GangTopology;
import dev.muster.scheduler.core.model.GroupKey;
import dev.muster.scheduler.core.model.NodeInfo;
import dev.muster.scheduler.core.model.NodeSelectorRequirement;
import dev.muster.scheduler.core.model.PendingGang;
import dev.muster.scheduler.core.model.PodInfo;
import dev.muster.scheduler.core.model.ResourceVector;
import dev.muster.scheduler.core.model.SubGroupRule;
import org.junit.jupiter.api.Test;

import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.stream.Collectors;

import static dev.muster.scheduler.core.CoreFixtures.cluster;
import static dev.muster.scheduler.core.CoreFixtures.cpu;
import static dev.muster.scheduler.core.CoreFixtures.node;
import static dev.muster.scheduler.core.CoreFixtures.requestedByNode;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * Sub-gangs (a PodGroup's {@code subGroupPolicy}, which a Job's {@code partitionPolicy} becomes): each sub-group
 * placed whole, within one domain of its topology, and a gang placed only with its minimum of them.
 */
class SubGroupPlacementTest {
    private static final String RACK = "rack";
    private static final String PARTITION = "partition";
    private static final String WORKER = "worker";

    /** Racks a1 and a2 of two 4-cpu nodes each, rack b1 of three. */
    private static ClusterState racks() {
        return cluster(inRack("a1-0", "a1"), inRack("a1-1", "a1"), inRack("a2-0", "a2"), inRack("a2-1", "a2"),
                inRack("b1-0", "b1"), inRack("b1-1", "b1"), inRack("b1-2", "b1"));
    }

    private static NodeInfo inRack(String name, String rack) {
        return node(name, 4, Map.of(RACK, rack));
    }

    private static SubGroupRule partitions(int size, int minGroups, GangTopology topology) {
        return new SubGroupRule(WORKER, size, minGroups,
                List.of(new NodeSelectorRequirement("task", NodeSelectorRequirement.Operator.In, List.of(WORKER))),
                List.of(PARTITION), topology);
    }

    private static GangInfo gang(int minMember, SubGroupRule rule) {
        return new GangInfo(GroupKey.podGroup("ns", "train"), minMember, Map.of(), 0, Instant.EPOCH, null, null,
                null, null, ResourceVector.ZERO, List.of(rule));
    }

    /** {@code count} worker pods, pod {@code i} in partition {@code i / size}, as a Job labels them. */
    private static List<PodInfo> workers(GangInfo gang, int count, int size, long cores) {
        List<PodInfo> pods = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            pods.add(worker(gang, i, i / size, cores));
        }
        return pods;
    }

    private static PodInfo worker(GangInfo gang, int index, int partition, long cores) {
        return new PodInfo("ns", "train-worker-" + index, gang.key(), WORKER, 0, cpu(cores), null,
                Map.of("task", WORKER, PARTITION, Integer.toString(partition)), null);
    }

    private static final GangTopology RACK_REQUIRED = new GangTopology(List.of(RACK), true);

    /** Per partition, the racks its placed pods are on. */
    private static Map<String, Set<String>> racksByPartition(GangPlacement result, ClusterSnapshot snapshot) {
        Map<String, String> rackOf = new HashMap<>();
        snapshot.nodes().forEach(n -> rackOf.put(n.name(), n.info().labels().get(RACK)));
        return result.placements().stream().collect(Collectors.groupingBy(p -> p.pod().labels().get(PARTITION),
                Collectors.mapping(p -> rackOf.get(p.nodeName()), Collectors.toSet())));
    }

    /**
     * Four partitions of three 2-cpu pods: the racks hold one, one and two. Packed pod by pod, partition 1 would
     * take the last room of a1 and the first of a2.
     */
    @Test
    void eachPartitionLandsWholeWithinOneRack() {
        GangInfo gang = gang(12, partitions(3, 4, RACK_REQUIRED));
        ClusterSnapshot snapshot = racks().snapshot();

        GangPlacement result = new GangTrial(snapshot).attempt(new PendingGang(gang, workers(gang, 12, 3, 2), 0, Map.of()));

        assertThat(result.placed()).as(result.message()).isTrue();
        assertThat(result.placements()).hasSize(12);
        assertThat(racksByPartition(result, snapshot)).hasSize(4).allSatisfy((partition, racks) ->
                assertThat(racks).as("partition " + partition).hasSize(1));
    }

    @Test
    void aPartitionNoRackHoldsIsNotSplitAndAGangShortOfItsMinimumWaitsAndSaysWhy() {
        GangInfo needsTwo = gang(6, partitions(3, 2, RACK_REQUIRED));
        GangInfo needsOne = gang(3, partitions(3, 1, RACK_REQUIRED));
        ClusterSnapshot snapshot = racks().snapshot();
        Map<String, ResourceVector> before = requestedByNode(snapshot);
        GangTrial trial = new GangTrial(snapshot);

        // 4-cpu pods, one per node: only rack b1, of three nodes, holds a partition of three.
        GangPlacement waiting = trial.attempt(new PendingGang(needsTwo, workers(needsTwo, 6, 3, 4), 0, Map.of()));

        assertThat(waiting.placed()).isFalse();
        assertThat(requestedByNode(snapshot)).isEqualTo(before);
        assertThat(waiting.message()).isEqualTo("No single domain of rack holds sub-group worker/1 (3 pod(s)). "
                + "The gang needs 2 sub-group(s) of worker of 3 pod(s) placed whole, each within one domain of rack; "
                + "1 can be.");

        GangPlacement placed = trial.attempt(new PendingGang(needsOne, workers(needsOne, 6, 3, 4), 0, Map.of()));

        assertThat(placed.placed()).isTrue();
        assertThat(placed.placements()).extracting(PodPlacement::nodeName)
                .containsExactlyInAnyOrder("b1-0", "b1-1", "b1-2");
        assertThat(placed.unplaced()).extracting(p -> p.labels().get(PARTITION)).containsOnly("1").hasSize(3);
    }

    @Test
    void aPreferredTopologyPlacesAPartitionNoRackHoldsWholeAcrossRacks() {
        GangInfo gang = gang(6, partitions(3, 2, new GangTopology(List.of(RACK), false)));
        ClusterSnapshot snapshot = racks().snapshot();

        GangPlacement result = new GangTrial(snapshot).attempt(new PendingGang(gang, workers(gang, 6, 3, 4), 0, Map.of()));

        assertThat(result.placed()).isTrue();
        assertThat(racksByPartition(result, snapshot).values()).extracting(Set::size).containsExactlyInAnyOrder(1, 2);
    }

    /** The gang with its bound or finished members listed, as the scheduler's cache gives a gang with sub-groups. */
    private static PendingGang withMembers(GangInfo gang, List<PodInfo> pending, List<GangMember> members) {
        return new PendingGang(gang, pending, members.size(), Map.of(WORKER, members.size()), null, List.of(), members);
    }

    @Test
    void theRestOfAPartlyBoundPartitionGoesToTheRackOfItsBoundPods() {
        GangInfo gang = gang(2, partitions(2, 1, RACK_REQUIRED));
        ClusterState state = racks();
        PodInfo bound = worker(gang, 0, 0, 4);
        state.occupy("b1-0", bound);
        ClusterSnapshot snapshot = state.snapshot();

        // By slot counts alone rack a1, with the least room that holds one pod, would be chosen.
        GangPlacement result = new GangTrial(snapshot).attempt(withMembers(gang, List.of(worker(gang, 1, 0, 4)),
                List.of(new GangMember(bound, "b1-0"))));

        assertThat(result.placed()).as(result.message()).isTrue();
        assertThat(result.placements()).extracting(PodPlacement::nodeName).singleElement()
                .satisfies(node -> assertThat(node).startsWith("b1-"));
    }

    /**
     * Random racks, pod sizes, partitions and minimums: whatever the outcome, a partition's pods are placed all or
     * none, each placed partition is within one rack, a placed gang has its minimum of partitions, and a gang not
     * placed leaves the snapshot as it was.
     */
    @Test
    void partitionsArePlacedWholeInOneRackOrNotAtAllOnRandomCases() {
        Random random = new Random(42);
        int placedCases = 0;
        for (int c = 0; c < 300; c++) {
            List<NodeInfo> nodes = new ArrayList<>();
            int rackCount = 1 + random.nextInt(4);
            for (int r = 0; r < rackCount; r++) {
                int size = 1 + random.nextInt(4);
                for (int n = 0; n < size; n++) {
                    nodes.add(node("r" + r + "-" + n, 2 + random.nextInt(7), Map.of(RACK, "r" + r)));
                }
            }
            ClusterState state = cluster(nodes.toArray(NodeInfo[]::new));
            ClusterSnapshot snapshot = state.snapshot();
            int size = 1 + random.nextInt(3);
            int total = 1 + random.nextInt(5);
            int minGroups = random.nextInt(total + 1);
            boolean required = random.nextBoolean();
            GangInfo gang = gang(Math.max(1, minGroups * size),
                    partitions(size, minGroups, new GangTopology(List.of(RACK), required)));
            List<PodInfo> pods = workers(gang, size * total, size, 1 + random.nextInt(4));
            Map<String, ResourceVector> before = requestedByNode(snapshot);

            GangPlacement result = new GangTrial(snapshot).attempt(new PendingGang(gang, pods, 0, Map.of()));

            Map<String, Long> placedByPartition = result.placements().stream()
                    .collect(Collectors.groupingBy(p -> p.pod().labels().get(PARTITION), Collectors.counting()));
            String label = "case " + c + ": " + result.message();
            assertThat(placedByPartition.values()).as(label).allSatisfy(n -> assertThat(n).isEqualTo((long) size));
            if (result.placed()) {
                placedCases++;
                assertThat(placedByPartition).as(label).hasSizeGreaterThanOrEqualTo(minGroups);
                if (required) {
                    assertThat(racksByPartition(result, snapshot).values()).as(label)
                            .allSatisfy(racks -> assertThat(racks).hasSize(1));
                }
            } else {
                assertThat(requestedByNode(snapshot)).as(label).isEqualTo(before);
            }
        }
        assertThat(placedCases).as("cases placed, of 300").isBetween(50, 290);
    }

    @Test
    void aPartitionWithSomeOfItsPodsNotYetCreatedWaitsForThemAndAGangThatNeedsItWaitsForPodsNotRoom() {
        GangInfo gang = gang(2, partitions(2, 1, RACK_REQUIRED));
        ClusterState state = racks();
        PodInfo first = worker(gang, 0, 0, 4);
        PodInfo second = worker(gang, 1, 0, 4);
        state.occupy("b1-0", first);
        state.occupy("b1-1", second);

        // Partition 1's second pod is not created yet; placing its first alone would split it.
        GangPlacement beyondQuorum = new GangTrial(state.snapshot()).attempt(withMembers(gang,
                List.of(worker(gang, 2, 1, 4)), List.of(new GangMember(first, "b1-0"), new GangMember(second, "b1-1"))));
        // A new gang whose quorum needs both partitions, one of them short of a pod.
        GangInfo needsTwo = gang(4, partitions(2, 2, RACK_REQUIRED));
        GangPlacement waiting = new GangTrial(racks().snapshot()).attempt(new PendingGang(needsTwo,
                List.of(worker(needsTwo, 0, 0, 4), worker(needsTwo, 1, 0, 4), worker(needsTwo, 2, 1, 4),
                        worker(needsTwo, 4, 2, 4)), 0, Map.of()));

        assertThat(beyondQuorum.placements()).isEmpty();
        assertThat(beyondQuorum.unplaced()).extracting(PodInfo::name).containsExactly("train-worker-2");
        assertThat(waiting.outcome()).as("not a shortage of room, which would preempt or scale up")
                .isEqualTo(GangPlacement.Outcome.NOT_ENOUGH_PODS);
        assertThat(waiting.message()).isEqualTo("Waiting for pods: sub-group worker/1 (1 pod(s)) and its 0 member(s) "
                + "bound or done are fewer than its 2.");
    }

    @Test
    void aSucceededMemberCompletesItsPartitionWithTheReplacementOfAnother() {
        GangInfo gang = gang(2, partitions(2, 1, RACK_REQUIRED));
        PodInfo done = worker(gang, 0, 0, 4);

        GangPlacement result = new GangTrial(racks().snapshot())
                .attempt(withMembers(gang, List.of(worker(gang, 1, 0, 4)), List.of(new GangMember(done, null))));

        assertThat(result.placed()).as(result.message()).isTrue();
        assertThat(result.placements()).hasSize(1);
    }

    @Test
    void anElasticGangIsAdmittedWithAsManyWholePartitionsAsItsRuleNeedsBeyondItsQuorum() {
        GangInfo gang = gang(2, partitions(2, 2, RACK_REQUIRED));
        List<PodInfo> expected = workers(gang, 6, 2, 4);

        GangPlacement admitted = admitOnRacks(gang, expected);

        assertThat(admitted.outcome()).as(admitted.message()).isEqualTo(GangPlacement.Outcome.ADMITTED);
        assertThat(admitted.placements()).extracting(p -> p.pod().name()).containsExactlyInAnyOrder(
                "train-worker-0", "train-worker-1", "train-worker-2", "train-worker-3");
    }

    /** Admission on the racks of a gang none of whose pods exist yet. */
    private static GangPlacement admitOnRacks(GangInfo gang, List<PodInfo> expected) {
        return new GangTrial(racks().snapshot()).admit(new PendingGang(gang, List.of(), 0, Map.of(), null, expected));
    }

    @Test
    void aQuorumThatEndsInsideAPartitionIsAdmittedWithTheWholePartition() {
        GangInfo gang = gang(3, partitions(2, 0, RACK_REQUIRED));
        List<PodInfo> expected = workers(gang, 4, 2, 4);

        GangPlacement admitted = admitOnRacks(gang, expected);

        assertThat(admitted.outcome()).as(admitted.message()).isEqualTo(GangPlacement.Outcome.ADMITTED);
        assertThat(admitted.placements()).extracting(p -> p.pod().name()).containsExactlyInAnyOrder(
                "train-worker-0", "train-worker-1", "train-worker-2", "train-worker-3");
    }

    @Test
    void podsOutsideTheSelectorOrWithoutThePartitionLabelArePlacedOneByOne() {
        SubGroupRule rule = partitions(3, 0, RACK_REQUIRED);
        GangInfo gang = gang(2, rule);
        PodInfo unlabelled = new PodInfo("ns", "train-worker-x", gang.key(), WORKER, 0, cpu(4), null,
                Map.of("task", WORKER), null);
        PodInfo otherTask = new PodInfo("ns", "train-ps-0", gang.key(), "ps", 0, cpu(4), null,
                Map.of("task", "ps", PARTITION, "0"), null);

        assertThat(rule.subGroupOf(unlabelled)).isNull();
        assertThat(rule.subGroupOf(otherTask)).isNull();
        GangPlacement result = new GangTrial(racks().snapshot())
                .attempt(new PendingGang(gang, List.of(unlabelled, otherTask), 0, Map.of()));
        assertThat(result.placed()).isTrue();
        assertThat(new HashSet<>(result.placements().stream().map(p -> p.pod().name()).toList()))
                .containsExactlyInAnyOrder("train-worker-x", "train-ps-0");
    }
}
