package dev.muster.scheduler.core.placement;

import dev.muster.scheduler.core.CoreFixtures;
import dev.muster.scheduler.core.cluster.ClusterSnapshot;
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

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;

import static dev.muster.scheduler.core.CoreFixtures.GI;
import static dev.muster.scheduler.core.CoreFixtures.gang;
import static dev.muster.scheduler.core.CoreFixtures.pending;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * The trial finds nodes through per-shape heaps kept across the gangs of a cycle and rejects gangs from
 * slot counts. Neither may change any decision: on random clusters and sequences of gangs, the trial
 * places exactly as a plain full scan per pod, and rejects exactly the gangs whose quorum the full scan
 * cannot place.
 */
class GangTrialShortcutsTest {
    private static final Taint GPU_ONLY = new Taint("dedicated", "gpu", Taint.NO_SCHEDULE);
    private static final Taint SPOT = new Taint("spot", "", Taint.PREFER_NO_SCHEDULE);
    /** -1: nearness not measured, so the trial may stop as soon as the quorum is out of reach. */
    private static final int[] REJECT_PERCENTAGES = {-1, 0, 10, 50, 100};

    @Test
    void placesExactlyLikeAFullScanPerPod() {
        for (int seed = 0; seed < 300; seed++) {
            placesExactlyLikeAFullScanPerPod(seed);
        }
    }

    private static void placesExactlyLikeAFullScanPerPod(long seed) {
        Random random = new Random(seed);
        List<NodeInfo> nodes = randomNodes(random);
        ClusterSnapshot snapshot = stateOf(nodes).snapshot();
        ClusterSnapshot reference = stateOf(nodes).snapshot();
        GangTrial trial = new GangTrial(snapshot);
        for (int g = 0; g < 1 + random.nextInt(4); g++) {
            GangInfo gang = gang("g" + g, random.nextInt(40));
            List<PodInfo> pods = randomPods(random, gang);

            int rejectPercentage = REJECT_PERCENTAGES[random.nextInt(REJECT_PERCENTAGES.length)];
            GangPlacement result = trial.attempt(pending(gang, pods), rejectPercentage, false);
            int fitting = countFitting(reference, pods);
            List<PodPlacement> expected = fullScanPerPod(reference, pods, gang.minMember());

            assertThat(result.placed()).as("seed %d gang %d", seed, g).isEqualTo(expected != null);
            if (result.outcome() == GangPlacement.Outcome.NOT_ENOUGH_RESOURCES && rejectPercentage >= 0) {
                int nearFrom = (gang.minMember() * (100 - rejectPercentage) + 99) / 100;
                assertThat(result.nearQuorum()).as("seed %d gang %d near", seed, g).isEqualTo(fitting >= nearFrom);
            }
            if (result.placed()) {
                assertThat(result.placements()).as("seed %d gang %d", seed, g).isEqualTo(expected);
            }
            assertThat(CoreFixtures.requestedByNode(snapshot)).as("seed %d gang %d", seed, g)
                    .isEqualTo(CoreFixtures.requestedByNode(reference));
        }
    }

    /**
     * A gang rejected from slot counts is told why, node by node, as if every slot were filled; the trial
     * keeps that explanation per node and tallies it as nodes change. After random placements kept and
     * undone (as backfill and victim searches do between rejections), it says exactly what a trial made
     * afresh on the same nodes says.
     */
    @Test
    void explainsARejectionExactlyLikeAFreshTrial() {
        for (int seed = 0; seed < 200; seed++) {
            Random random = new Random(seed);
            List<NodeInfo> nodes = randomNodes(random);
            ClusterSnapshot snapshot = stateOf(nodes).snapshot();
            GangTrial trial = new GangTrial(snapshot);
            // More pods than any of these clusters has slots for: rejected from slot counts, and told why.
            GangInfo big = gang("big", 1_000);
            List<PodInfo> shapes = randomPods(random, big);
            List<PodInfo> bigPods = new ArrayList<>();
            for (int p = 0; p < 1_000; p++) {
                PodInfo shape = shapes.get(p % shapes.size());
                bigPods.add(new PodInfo("ns", "big-" + p, big.key(), "", 0, shape.requests(), shape.constraints()));
            }
            for (int round = 0; round < 6; round++) {
                GangInfo filler = gang("filler-" + round, 1);
                PlacementStatement statement = trial.statement();
                for (PodInfo pod : randomPods(random, filler)) {
                    NodeState node = snapshot.nodeArray()[random.nextInt(nodes.size())];
                    if (node.slotsFor(pod.requests()) > 0) {
                        statement.allocate(pod, node);
                    }
                }
                if (random.nextBoolean()) {
                    statement.commit();
                } else {
                    statement.discard();
                }
                GangPlacement kept = trial.attempt(pending(big, bigPods));
                GangPlacement fresh = new GangTrial(snapshot).attempt(pending(big, bigPods));
                assertThat(kept.unschedulable()).as("seed %d round %d", seed, round).isNotNull();
                assertThat(kept.message()).as("seed %d round %d", seed, round).isEqualTo(fresh.message());
            }
        }
    }

    /** 2 to 13 nodes of random sizes, some with GPUs, some unschedulable, some tainted. */
    private static List<NodeInfo> randomNodes(Random random) {
        List<NodeInfo> nodes = new ArrayList<>();
        for (int i = 0; i < 2 + random.nextInt(12); i++) {
            nodes.add(new NodeInfo(String.format("node-%02d", i), Map.of("zone", "z" + random.nextInt(2)),
                    ResourceVector.builder().cpuMillis(1000L * (2 + random.nextInt(31)))
                            .memoryBytes(GI * (2 + random.nextInt(63))).pods(3 + random.nextInt(20))
                            .set("nvidia.com/gpu", random.nextInt(3) * 4L).build(),
                    random.nextInt(10) > 0, random.nextInt(10) == 0,
                    random.nextInt(4) == 0 ? List.of(GPU_ONLY) : random.nextInt(3) == 0 ? List.of(SPOT) : List.of()));
        }
        return nodes;
    }

    private static List<PodInfo> randomPods(Random random, GangInfo gang) {
        List<PodInfo> shapes = new ArrayList<>();
        for (int s = 0; s < 1 + random.nextInt(3); s++) {
            ResourceVector requests = ResourceVector.builder().cpuMillis(250L * (1 + random.nextInt(16)))
                    .memoryBytes(GI / 2 * (1 + random.nextInt(8))).set("nvidia.com/gpu", random.nextInt(3)).build();
            Map<String, String> selector = random.nextBoolean() ? Map.of() : Map.of("zone", "z" + random.nextInt(2));
            List<Toleration> tolerations = random.nextBoolean() ? List.of()
                    : List.of(new Toleration(random.nextBoolean() ? "dedicated" : "", Toleration.EXISTS, null, null));
            List<PreferredTerm> preferred = random.nextBoolean() ? List.of() : List.of(new PreferredTerm(
                    1 + random.nextInt(100), new NodeSelectorTerm(List.of(new NodeSelectorRequirement("zone",
                    NodeSelectorRequirement.Operator.In, List.of("z" + random.nextInt(2)))), List.of())));
            shapes.add(new PodInfo("ns", "shape", gang.key(), "", 0, requests,
                    new PlacementConstraints(selector, List.of(), tolerations, preferred)));
        }
        List<PodInfo> pods = new ArrayList<>();
        for (int p = 0; p < 1 + random.nextInt(40); p++) {
            PodInfo shape = shapes.get(random.nextInt(shapes.size()));
            pods.add(new PodInfo("ns", String.format("%s-p-%02d", gang.key().name(), p), gang.key(), "", 0,
                    shape.requests(), shape.constraints()));
        }
        return pods;
    }

    private static ClusterState stateOf(List<NodeInfo> nodes) {
        ClusterState state = new ClusterState();
        nodes.forEach(state::putNode);
        return state;
    }

    /** How many of the pods a full scan per pod would place; leaves the snapshot as it was. */
    private static int countFitting(ClusterSnapshot snapshot, List<PodInfo> pods) {
        List<PodPlacement> placements = placeEach(snapshot, pods);
        undo(snapshot, placements);
        return placements.size();
    }

    /** Places pod by pod; keeps the placements if the quorum is met, else undoes them and returns null. */
    private static List<PodPlacement> fullScanPerPod(ClusterSnapshot snapshot, List<PodInfo> pods, int minMember) {
        List<PodPlacement> placements = placeEach(snapshot, pods);
        if (placements.size() < minMember) {
            undo(snapshot, placements);
            return null;
        }
        return placements;
    }

    private static List<PodPlacement> placeEach(ClusterSnapshot snapshot, List<PodInfo> pods) {
        List<PodPlacement> placements = new ArrayList<>();
        for (PodInfo pod : pods) {
            NodeState node = mostAllocated(snapshot.nodeArray(), pod);
            if (node != null) {
                node.place(pod.requests());
                placements.add(new PodPlacement(pod, node.name()));
            }
        }
        return placements;
    }

    private static void undo(ClusterSnapshot snapshot, List<PodPlacement> placements) {
        for (PodPlacement placement : placements) {
            snapshot.node(placement.nodeName()).orElseThrow().unplace(placement.pod().requests());
        }
    }

    /**
     * Every node scored, the first highest wins: what the heaps must reproduce. With preferences, the
     * resource score on 0-100 plus NodeAffinity × 2 and TaintToleration × 3, each normalised over the
     * nodes that pass the pod's node filters.
     */
    private static NodeState mostAllocated(NodeState[] nodes, PodInfo pod) {
        PlacementConstraints constraints = pod.constraints();
        long maxAffinity = 0;
        long maxTaints = 0;
        for (NodeState node : nodes) {
            if (constraints.rejection(node.info()) == null) {
                maxAffinity = Math.max(maxAffinity, constraints.preferredAffinityWeight(node.info()));
                maxTaints = Math.max(maxTaints, constraints.intolerablePreferNoSchedule(node.info()));
            }
        }
        NodeState best = null;
        double bestScore = Double.NEGATIVE_INFINITY;
        for (NodeState node : nodes) {
            if (constraints.rejection(node.info()) == null && node.slotsFor(pod.requests()) > 0) {
                double score = node.mostAllocatedScore(pod.requests());
                if (maxAffinity > 0 || maxTaints > 0) {
                    long affinity = maxAffinity == 0 ? 0 : 100 * constraints.preferredAffinityWeight(node.info()) / maxAffinity;
                    long taints = maxTaints == 0 ? 100
                            : 100 - 100L * constraints.intolerablePreferNoSchedule(node.info()) / maxTaints;
                    score = score * 100.0 / NodeState.resourcesScored(pod.requests()) + 2 * affinity + 3 * taints;
                }
                if (score > bestScore) {
                    best = node;
                    bestScore = score;
                }
            }
        }
        return best;
    }
}
