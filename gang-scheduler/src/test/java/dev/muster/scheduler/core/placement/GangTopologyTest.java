package dev.muster.scheduler.core.placement;

import dev.muster.scheduler.core.CoreFixtures;
import dev.muster.scheduler.core.cluster.ClusterSnapshot;
import dev.muster.scheduler.core.cluster.ClusterState;
import dev.muster.scheduler.core.model.GangInfo;
import dev.muster.scheduler.core.model.GangTopology;
import dev.muster.scheduler.core.model.GroupKey;
import dev.muster.scheduler.core.model.NodeInfo;
import dev.muster.scheduler.core.model.PendingGang;
import dev.muster.scheduler.core.model.PodInfo;
import org.junit.jupiter.api.Test;

import java.time.Instant;
import java.util.List;
import java.util.Map;

import static dev.muster.scheduler.core.CoreFixtures.cluster;
import static dev.muster.scheduler.core.CoreFixtures.cpu;
import static dev.muster.scheduler.core.CoreFixtures.node;
import static dev.muster.scheduler.core.CoreFixtures.pending;
import static dev.muster.scheduler.core.CoreFixtures.pods;
import static org.assertj.core.api.Assertions.assertThat;

/** A gang's own topology: levels tried tightest first, required or preferred. */
class GangTopologyTest {
    private static final String RACK = "rack";
    private static final String ZONE = "zone";

    private static NodeInfo placed(String name, String rack, String zone) {
        return node(name, 4, Map.of(RACK, rack, ZONE, zone));
    }

    /** Zone a: racks a1 and a2 of two 4-cpu nodes each; zone b: rack b1 of three. */
    private static ClusterSnapshot racks() {
        return rackState().snapshot();
    }

    private static ClusterState rackState() {
        return cluster(placed("a1-0", "a1", "a"), placed("a1-1", "a1", "a"), placed("a2-0", "a2", "a"),
                placed("a2-1", "a2", "a"), placed("b1-0", "b1", "b"), placed("b1-1", "b1", "b"),
                placed("b1-2", "b1", "b"));
    }

    /** The racks with two 2-cpu pods of the gang bound to b1-0, which fills it. */
    private static ClusterSnapshot twoBoundOnB1(GangInfo gang) {
        ClusterState state = rackState();
        for (PodInfo bound : pods(gang, "bound", 2, cpu(2))) {
            state.occupy("b1-0", bound);
        }
        return state.snapshot();
    }

    private static PendingGang withTwoBound(GangInfo gang, List<PodInfo> pending) {
        return new PendingGang(gang, pending, 2, Map.of("bound", 2));
    }

    private static GangInfo gang(String name, int minMember, GangTopology topology) {
        return new GangInfo(GroupKey.podGroup("ns", name), minMember, Map.of(), 0, Instant.EPOCH, null, topology);
    }

    private static List<String> nodesOf(GangPlacement result) {
        return result.placements().stream().map(PodPlacement::nodeName).toList();
    }

    @Test
    void aGangRequiredInOneRackThatFitsOnlyAcrossRacksWaitsAndSaysWhy() {
        GangInfo gang = gang("train", 4, new GangTopology(List.of(RACK), true));

        GangPlacement result = new GangTrial(racks()).attempt(pending(gang, pods(gang, "w", 4, cpu(4))));

        assertThat(result.outcome()).isEqualTo(GangPlacement.Outcome.NOT_ENOUGH_RESOURCES);
        assertThat(result.message()).isEqualTo("No single domain of rack holds the 4 pod(s) the quorum still needs, "
                + "and the PodGroup's topology is required.");
    }

    @Test
    void levelsAreTriedTightestFirst() {
        GangInfo small = gang("small", 3, new GangTopology(List.of(RACK, ZONE), true));
        GangInfo big = gang("big", 4, new GangTopology(List.of(RACK, ZONE), true));
        GangTrial trial = new GangTrial(racks());

        GangPlacement inARack = trial.attempt(pending(small, pods(small, "w", 3, cpu(4))));
        GangPlacement inAZone = trial.attempt(pending(big, pods(big, "w", 4, cpu(4))));

        assertThat(nodesOf(inARack)).containsExactly("b1-0", "b1-1", "b1-2");
        assertThat(nodesOf(inAZone)).containsExactlyInAnyOrder("a1-0", "a1-1", "a2-0", "a2-1");
    }

    @Test
    void aPreferredTopologyFallsBackToAnywhereAndTheGangsOwnReplacesTheDefault() {
        GangInfo preferred = gang("preferred", 5, new GangTopology(List.of(RACK), false));
        GangInfo anywhere = gang("anywhere", 2, null);

        GangPlacement spread = new GangTrial(racks()).attempt(pending(preferred, pods(preferred, "w", 5, cpu(4))));
        // The default locality (zone) would pack two pods into zone b's tightest room; the gang's own
        // rack topology wins over it.
        GangInfo ownRack = gang("own", 2, new GangTopology(List.of(RACK), true));
        GangPlacement own = new GangTrial(racks(), NodeScoring.MOST_ALLOCATED, ZONE)
                .attempt(pending(ownRack, pods(ownRack, "w", 2, cpu(4))));
        GangPlacement byDefault = new GangTrial(racks(), NodeScoring.MOST_ALLOCATED, ZONE)
                .attempt(pending(anywhere, pods(anywhere, "w", 2, cpu(4))));

        assertThat(spread.placed()).isTrue();
        assertThat(nodesOf(own)).allSatisfy(n -> assertThat(n).startsWith("a1"));
        assertThat(nodesOf(byDefault)).allSatisfy(n -> assertThat(n).startsWith("b1"));
    }

    @Test
    void aPartlyBoundGangRequiredInOneRackGoesToTheRackOfItsBoundPods() {
        GangInfo gang = gang("train", 4, new GangTopology(List.of(RACK), true));

        GangPlacement result = new GangTrial(twoBoundOnB1(gang))
                .attempt(withTwoBound(gang, pods(gang, "w", 2, cpu(2))));

        // On the racks alone, a1 would be the tightest rack that holds two pods.
        assertThat(result.placed()).isTrue();
        assertThat(nodesOf(result)).containsExactly("b1-1", "b1-1");
    }

    @Test
    void aPartlyBoundGangWaitsWhenTheRackOfItsBoundPodsCannotHoldTheRest() {
        GangInfo gang = gang("train", 5, new GangTopology(List.of(RACK), true));

        GangPlacement result = new GangTrial(twoBoundOnB1(gang))
                .attempt(withTwoBound(gang, pods(gang, "w", 3, cpu(4))));

        assertThat(result.outcome()).isEqualTo(GangPlacement.Outcome.NOT_ENOUGH_RESOURCES);
        assertThat(result.message()).isEqualTo("No single domain of rack holds the 3 pod(s) the quorum still needs "
                + "together with its 2 bound pod(s), and the PodGroup's topology is required.");
    }

    @Test
    void podsBeyondAQuorumMetByBoundPodsStayInTheirRackToo() {
        GangInfo gang = gang("train", 2, new GangTopology(List.of(RACK), true));

        GangPlacement result = new GangTrial(twoBoundOnB1(gang))
                .attempt(withTwoBound(gang, pods(gang, "w", 1, cpu(2))));

        assertThat(nodesOf(result)).containsExactly("b1-1");
    }

    @Test
    void boundPodsAcrossTwoRacksLeaveNoRackForTheRestButAZoneMay() {
        GangInfo gang = gang("train", 3, new GangTopology(List.of(RACK, ZONE), true));
        ClusterState state = rackState();
        List<PodInfo> bound = pods(gang, "bound", 2, cpu(2));
        state.occupy("a1-0", bound.get(0));
        state.occupy("a2-0", bound.get(1));

        GangPlacement result = new GangTrial(state.snapshot())
                .attempt(withTwoBound(gang, pods(gang, "w", 1, cpu(4))));

        assertThat(nodesOf(result)).singleElement().satisfies(n -> assertThat(n).startsWith("a"));
    }
}
