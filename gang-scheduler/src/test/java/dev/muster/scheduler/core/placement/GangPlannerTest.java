package dev.muster.scheduler.core.placement;

import dev.muster.scheduler.core.CoreFixtures;
import dev.muster.scheduler.core.cluster.ClusterSnapshot;
import dev.muster.scheduler.core.model.GangInfo;
import dev.muster.scheduler.core.model.GroupKey;
import dev.muster.scheduler.core.model.PendingGang;
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

class GangPlannerTest {

    private static GangInfo gang(String name, int priority, Instant createdAt) {
        return new GangInfo(GroupKey.podGroup("ns", name), 2, Map.of(), priority, createdAt);
    }

    @Test
    void higherPriorityWinsTheCapacityThoughCreatedLater() {
        ClusterSnapshot snapshot = cluster(node("node-0", 4)).snapshot();
        GangInfo old = gang("old", 0, Instant.parse("2024-01-01T00:00:00Z"));
        GangInfo urgent = gang("urgent", 100, Instant.parse("2024-06-01T00:00:00Z"));

        List<GangPlacement> results = GangPlanner.plan(snapshot,
                List.of(pending(old, pods(old, "w", 2, cpu(2))), pending(urgent, pods(urgent, "w", 2, cpu(2)))));

        assertThat(results).extracting(r -> r.gang().key().name()).containsExactly("urgent", "old");
        assertThat(results).extracting(GangPlacement::outcome)
                .containsExactly(GangPlacement.Outcome.PLACED, GangPlacement.Outcome.NOT_ENOUGH_RESOURCES);
    }

    @Test
    void amongEqualPrioritiesTheOlderGangWins() {
        ClusterSnapshot snapshot = cluster(node("node-0", 4)).snapshot();
        GangInfo younger = gang("a-younger", 5, Instant.parse("2024-06-01T00:00:00Z"));
        GangInfo older = gang("b-older", 5, Instant.parse("2024-01-01T00:00:00Z"));

        List<GangPlacement> results = GangPlanner.plan(snapshot, List.of(
                pending(younger, pods(younger, "w", 2, cpu(2))), pending(older, pods(older, "w", 2, cpu(2)))));

        assertThat(results.get(0).gang()).isEqualTo(older);
        assertThat(results.get(0).placed()).isTrue();
        assertThat(results.get(1).placed()).isFalse();
    }

    @Test
    void aFailedGangLeavesItsRoomToTheNextGang() {
        ClusterSnapshot snapshot = cluster(node("node-0", 4), node("node-1", 4)).snapshot();
        GangInfo big = gang("big", 10, Instant.EPOCH);
        GangInfo small = gang("small", 0, Instant.EPOCH);

        List<GangPlacement> results = GangPlanner.plan(snapshot, List.of(
                pending(big, pods(big, "w", 3, cpu(4))), pending(small, pods(small, "w", 2, cpu(4)))));

        assertThat(results.get(0).placed()).isTrue();
        assertThat(results.get(0).placements()).hasSize(2);
        assertThat(results.get(1).outcome()).isEqualTo(GangPlacement.Outcome.NOT_ENOUGH_RESOURCES);
    }

    @Test
    void aGangThatFailedSortsBehindGangsThatDidNotButNotBehindLowerPriorities() {
        GangInfo bigOld = gang("big-old", 5, Instant.parse("2024-01-01T00:00:00Z"));
        GangInfo smallNew = gang("small-new", 5, Instant.parse("2024-06-01T00:00:00Z"));
        GangInfo low = gang("low", 0, Instant.parse("2023-01-01T00:00:00Z"));
        PendingGang failed = pending(bigOld, pods(bigOld, "w", 2, cpu(4))).failedAt(Instant.parse("2024-07-01T00:00:00Z"));
        ClusterSnapshot snapshot = cluster(node("node-0", 4)).snapshot();

        List<GangPlacement> results = GangPlanner.plan(snapshot, List.of(failed,
                pending(low, pods(low, "w", 2, cpu(1))), pending(smallNew, pods(smallNew, "w", 2, cpu(2)))));

        assertThat(results).extracting(r -> r.gang().key().name()).containsExactly("small-new", "big-old", "low");
        assertThat(results.get(0).placed()).as("the capacity went to the gang that had not failed").isTrue();
    }

    @Test
    void failedGangsTakeTurnsByWhenTheyFailed() {
        GangInfo older = gang("older", 0, Instant.parse("2024-01-01T00:00:00Z"));
        GangInfo newer = gang("newer", 0, Instant.parse("2024-06-01T00:00:00Z"));
        ClusterSnapshot snapshot = cluster(node("node-0", 4)).snapshot();

        List<GangPlacement> results = GangPlanner.plan(snapshot, List.of(
                pending(older, pods(older, "w", 2, cpu(2))).failedAt(Instant.parse("2024-08-01T00:00:00Z")),
                pending(newer, pods(newer, "w", 2, cpu(2))).failedAt(Instant.parse("2024-07-01T00:00:00Z"))));

        assertThat(results).extracting(r -> r.gang().key().name()).containsExactly("newer", "older");
    }
}
