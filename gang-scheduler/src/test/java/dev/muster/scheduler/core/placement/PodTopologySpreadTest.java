package dev.muster.scheduler.core.placement;

import dev.muster.scheduler.core.CoreFixtures;
import dev.muster.scheduler.core.cluster.ClusterSnapshot;
import dev.muster.scheduler.core.cluster.ClusterState;
import dev.muster.scheduler.core.model.GangInfo;
import dev.muster.scheduler.core.model.GroupKey;
import dev.muster.scheduler.core.model.InterPodTerms;
import dev.muster.scheduler.core.model.NodeInfo;
import dev.muster.scheduler.core.model.NodeSelectorRequirement;
import dev.muster.scheduler.core.model.PlacementConstraints;
import dev.muster.scheduler.core.model.PodInfo;
import dev.muster.scheduler.core.model.SpreadConstraint;
import dev.muster.scheduler.core.model.UnschedulableMessage;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import static dev.muster.scheduler.core.CoreFixtures.ZONE;
import static dev.muster.scheduler.core.CoreFixtures.cluster;
import static dev.muster.scheduler.core.CoreFixtures.cpu;
import static dev.muster.scheduler.core.CoreFixtures.gang;
import static dev.muster.scheduler.core.CoreFixtures.node;
import static dev.muster.scheduler.core.CoreFixtures.pending;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * Topology spread constraints, counting the cluster's pods and the gang's own: DoNotSchedule ones filter,
 * ScheduleAnyway ones score.
 */
class PodTopologySpreadTest {
    private static final List<NodeSelectorRequirement> APP_SPREAD = List.of(
            new NodeSelectorRequirement("app", NodeSelectorRequirement.Operator.In, List.of("spread")));

    private static NodeInfo zoned(String name, String zone) {
        return zone == null ? node(name, 16) : node(name, 16, Map.of(ZONE, zone));
    }

    private static List<PodInfo> spreading(GangInfo gang, int count, SpreadConstraint constraint,
                                           PlacementConstraints constraints) {
        List<PodInfo> pods = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            pods.add(new PodInfo("ns", gang.key().name() + "-" + i, gang.key(), "", 0, cpu(1), constraints,
                    Map.of("app", "spread"), new InterPodTerms(List.of(), List.of(), List.of(), List.of(constraint))));
        }
        return pods;
    }

    private static SpreadConstraint zoneSpread(int maxSkew, int minDomains, boolean honorAffinity) {
        return new SpreadConstraint(maxSkew, ZONE, APP_SPREAD, minDomains, honorAffinity, false);
    }

    private static Map<String, Long> perZone(GangPlacement result) {
        return result.placements().stream().collect(java.util.stream.Collectors.groupingBy(
                p -> p.nodeName().startsWith("a") ? "a" : "b", java.util.TreeMap::new,
                java.util.stream.Collectors.counting()));
    }

    @Test
    void sixPodsWithMaxSkewOneOverTwoZonesLandThreeAndThreeThoughBinPackingWouldStackThem() {
        ClusterSnapshot snapshot = cluster(zoned("a-0", "a"), zoned("a-1", "a"), zoned("b-0", "b"), zoned("b-1", "b"))
                .snapshot();
        GangInfo gang = gang("spread", 6);

        GangPlacement result = new GangTrial(snapshot).attempt(pending(gang,
                spreading(gang, 6, zoneSpread(1, 1, true), PlacementConstraints.NONE)));

        assertThat(result.placed()).isTrue();
        assertThat(perZone(result)).isEqualTo(Map.of("a", 3L, "b", 3L));
    }

    private static List<PodInfo> preferringSpread(GangInfo gang, int count) {
        List<PodInfo> pods = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            pods.add(new PodInfo("ns", gang.key().name() + "-" + i, gang.key(), "", 0, cpu(1),
                    PlacementConstraints.NONE, Map.of("app", "spread"),
                    new InterPodTerms(List.of(), List.of(), List.of(), List.of(), List.of(zoneSpread(1, 1, true)))));
        }
        return pods;
    }

    @Test
    void scheduleAnywaySpreadOutweighsBinPackingSoSixPodsLandThreeAndThree() {
        ClusterSnapshot snapshot = cluster(zoned("a-0", "a"), zoned("a-1", "a"), zoned("b-0", "b"), zoned("b-1", "b"))
                .snapshot();
        GangInfo gang = gang("spread", 6);

        GangPlacement result = new GangTrial(snapshot).attempt(pending(gang, preferringSpread(gang, 6)));

        assertThat(result.placed()).isTrue();
        assertThat(perZone(result)).isEqualTo(Map.of("a", 3L, "b", 3L));
        // Within a zone the spread score is the same for every node, so bin-packing still stacks the pods.
        assertThat(result.placements()).extracting(PodPlacement::nodeName)
                .containsOnly("a-0", "b-0");
    }

    @Test
    void scheduleAnywaySpreadOnlyScoresSoPodsGoWhereThereIsRoomWhateverTheSkew() {
        NodeInfo small = node("b-0", 2);
        ClusterSnapshot snapshot = cluster(zoned("a-0", "a"),
                new NodeInfo("b-0", Map.of(ZONE, "b"), small.allocatable(), true, false)).snapshot();
        GangInfo gang = gang("spread", 6);

        GangPlacement result = new GangTrial(snapshot).attempt(pending(gang, preferringSpread(gang, 6)));

        assertThat(result.placed()).isTrue();
        assertThat(perZone(result)).isEqualTo(Map.of("a", 4L, "b", 2L));
    }

    @Test
    void runningPodsOfTheNamespaceThatTheSelectorSelectsCount() {
        ClusterState state = cluster(zoned("a-0", "a"), zoned("b-0", "b"));
        GangInfo running = gang("running", 1);
        state.occupy("a-0", new PodInfo("ns", "old", running.key(), "", 0, cpu(1), PlacementConstraints.NONE,
                Map.of("app", "spread"), InterPodTerms.NONE));
        state.occupy("a-0", new PodInfo("other", "foreign", GroupKey.podGroup("other", "g"), "", 0, cpu(1),
                PlacementConstraints.NONE, Map.of("app", "spread"), InterPodTerms.NONE));
        GangInfo gang = gang("spread", 3);

        GangPlacement result = new GangTrial(state.snapshot()).attempt(pending(gang,
                spreading(gang, 3, zoneSpread(1, 1, true), PlacementConstraints.NONE)));

        assertThat(perZone(result)).isEqualTo(Map.of("a", 1L, "b", 2L));
    }

    @Test
    void fewerDomainsThanMinDomainsCountTheEmptiestAsEmpty() {
        ClusterSnapshot snapshot = cluster(zoned("a-0", "a"), zoned("b-0", "b")).snapshot();
        GangInfo gang = gang("spread", 3);

        GangPlacement result = new GangTrial(snapshot).attempt(pending(gang,
                spreading(gang, 3, zoneSpread(1, 3, true), PlacementConstraints.NONE)));

        assertThat(result.placed()).isFalse();
        assertThat(result.unschedulable().message())
                .isEqualTo("0/2 nodes are available: 2 node(s) didn't match pod topology spread constraints.");
    }

    @Test
    void aNodeWithoutTheKeyIsRejectedForIt() {
        ClusterState state = cluster(zoned("a-0", "a"), zoned("x", null));
        state.occupy("a-0", cpu(16));
        GangInfo gang = gang("spread", 1);

        GangPlacement result = new GangTrial(state.snapshot()).attempt(pending(gang,
                spreading(gang, 1, zoneSpread(1, 1, true), PlacementConstraints.NONE)));

        assertThat(result.unschedulable().message()).isEqualTo("0/2 nodes are available: 1 Insufficient cpu, "
                + "1 node(s) didn't match pod topology spread constraints (missing required label).");
    }

    @Test
    void theNodeAffinityPolicyDecidesWhetherDomainsThePodCannotUseCount() {
        PlacementConstraints inA = PlacementConstraints.ofNodeSelector(Map.of(ZONE, "a"));
        GangInfo honoured = gang("honoured", 3);
        GangInfo ignored = gang("ignored", 2);

        GangPlacement honour = new GangTrial(cluster(zoned("a-0", "a"), zoned("b-0", "b")).snapshot())
                .attempt(pending(honoured, spreading(honoured, 3, zoneSpread(1, 1, true), inA)));
        GangPlacement ignore = new GangTrial(cluster(zoned("a-0", "a"), zoned("b-0", "b")).snapshot())
                .attempt(pending(ignored, spreading(ignored, 2, zoneSpread(1, 1, false), inA)));

        // Honoured, zone b is not the pods' to use and does not count; ignored, its zero caps zone a at one.
        assertThat(honour.placements()).hasSize(3);
        assertThat(ignore.placed()).isFalse();
        assertThat(ignore.unschedulable().reasonCounts()).containsExactly(
                Map.entry(UnschedulableMessage.NODE_SELECTOR_MISMATCH, 1), Map.entry(PodTopologySpread.SKEW, 1));
    }
}
