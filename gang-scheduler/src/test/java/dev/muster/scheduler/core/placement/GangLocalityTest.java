package dev.muster.scheduler.core.placement;

import dev.muster.scheduler.core.CoreFixtures;
import dev.muster.scheduler.core.cluster.ClusterSnapshot;
import dev.muster.scheduler.core.model.GangInfo;
import dev.muster.scheduler.core.model.PodInfo;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;

import static dev.muster.scheduler.core.CoreFixtures.ZONE;
import static dev.muster.scheduler.core.CoreFixtures.cluster;
import static dev.muster.scheduler.core.CoreFixtures.cpu;
import static dev.muster.scheduler.core.CoreFixtures.gang;
import static dev.muster.scheduler.core.CoreFixtures.node;
import static dev.muster.scheduler.core.CoreFixtures.pending;
import static dev.muster.scheduler.core.CoreFixtures.pods;
import static dev.muster.scheduler.core.CoreFixtures.zoned;
import static org.assertj.core.api.Assertions.assertThat;

/** Gang locality: a gang's quorum goes into one topology domain when one holds it. */
class GangLocalityTest {
    /** Zone a: 4 + 2 free cpu (room for three 2-cpu pods); zone b: three empty 4-cpu nodes. */
    private static ClusterSnapshot twoZones() {
        ClusterSnapshot snapshot = cluster(zoned("a-0", 4, "a"), zoned("a-1", 4, "a"),
                zoned("b-0", 4, "b"), zoned("b-1", 4, "b"), zoned("b-2", 4, "b")).snapshot();
        snapshot.node("a-1").orElseThrow().place(cpu(2));
        return snapshot;
    }

    private static List<String> nodesOf(GangPlacement result) {
        return result.placements().stream().map(PodPlacement::nodeName).toList();
    }

    @Test
    void withoutLocalityBinPackingSpreadsTheGangOverZones() {
        GangInfo gang = gang("train", 4);

        GangPlacement result = new GangTrial(twoZones()).attempt(pending(gang, pods(gang, "w", 4, cpu(2))));

        assertThat(nodesOf(result)).containsExactly("a-1", "a-0", "a-0", "b-0");
    }

    @Test
    void withLocalityTheQuorumGoesIntoTheOneZoneThatHoldsIt() {
        GangInfo gang = gang("train", 4);

        GangPlacement result = new GangTrial(twoZones(), NodeScoring.MOST_ALLOCATED, ZONE)
                .attempt(pending(gang, pods(gang, "w", 4, cpu(2))));

        assertThat(result.placed()).isTrue();
        assertThat(nodesOf(result)).containsExactly("b-0", "b-0", "b-1", "b-1");
        assertThat(result.placements()).allSatisfy(p -> assertThat(p.pod().nodeSelector()).isEmpty());
    }

    @Test
    void amongZonesThatHoldTheQuorumTheTightestWins() {
        GangInfo gang = gang("small", 2);

        GangPlacement result = new GangTrial(twoZones(), NodeScoring.MOST_ALLOCATED, ZONE)
                .attempt(pending(gang, pods(gang, "w", 2, cpu(2))));

        assertThat(nodesOf(result)).containsExactly("a-1", "a-0");
    }

    @Test
    void aGangNoZoneHoldsIsPlacedAcrossZones() {
        GangInfo gang = gang("big", 8);
        ClusterSnapshot snapshot = twoZones();

        GangPlacement result = new GangTrial(snapshot, NodeScoring.MOST_ALLOCATED, ZONE)
                .attempt(pending(gang, pods(gang, "w", 8, cpu(2))));

        assertThat(result.placed()).isTrue();
        assertThat(nodesOf(result)).anyMatch(n -> n.startsWith("a-")).anyMatch(n -> n.startsWith("b-"));
    }

    @Test
    void aPodThatNamesItsZoneKeepsIt() {
        GangInfo gang = gang("pinned", 2);
        PodInfo pinned = new PodInfo("ns", "pinned-0", gang.key(), "w", 0, cpu(2), Map.of(ZONE, "a"));
        PodInfo free = new PodInfo("ns", "pinned-1", gang.key(), "w", 0, cpu(2), Map.of());
        // Zone b is tightest for the free pod's shape only if a cannot hold both; make a hold one.
        ClusterSnapshot snapshot = twoZones();
        snapshot.node("a-0").orElseThrow().place(cpu(4));

        GangPlacement result = new GangTrial(snapshot, NodeScoring.MOST_ALLOCATED, ZONE)
                .attempt(pending(gang, List.of(pinned, free)));

        assertThat(result.placed()).isTrue();
        assertThat(result.placements()).filteredOn(p -> p.pod().name().equals("pinned-0"))
                .singleElement().satisfies(p -> assertThat(p.nodeName()).isEqualTo("a-1"));
    }
}
