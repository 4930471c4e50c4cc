package dev.muster.scheduler.core.cycle;

import dev.muster.scheduler.core.CoreFixtures;
import dev.muster.scheduler.core.cluster.ClusterSnapshot;
import dev.muster.scheduler.core.model.GangInfo;
import dev.muster.scheduler.core.model.GroupKey;
import dev.muster.scheduler.core.model.NodeInfo;
import dev.muster.scheduler.core.model.PendingGang;
import dev.muster.scheduler.core.model.PodInfo;
import dev.muster.scheduler.core.model.ResourceVector;
import dev.muster.scheduler.core.placement.GangPlacement.Outcome;
import dev.muster.scheduler.core.placement.GangPlacement;
import dev.muster.scheduler.core.placement.NodeScoring;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;

import static dev.muster.scheduler.core.CoreFixtures.cluster;
import static dev.muster.scheduler.core.CoreFixtures.cpu;
import static dev.muster.scheduler.core.CoreFixtures.node;
import static dev.muster.scheduler.core.CoreFixtures.pending;
import static dev.muster.scheduler.core.CoreFixtures.pods;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * Backoff, reject percentage, reservations and their waiting time, with time passed in, through the production
 * cycle ({@link QueuePlanner}) with the default queue only.
 */
class GangQueueTest {
    private static final Instant T0 = Instant.parse("2025-01-01T00:00:00Z");

    private static CoschedulingArgs args(int waitSeconds, int backoffSeconds, int rejectPercentage) {
        return new CoschedulingArgs(Duration.ofSeconds(waitSeconds), Duration.ofSeconds(backoffSeconds),
                rejectPercentage, NodeScoring.MOST_ALLOCATED);
    }

    private static GangInfo gang(String name, int minMember, int priority, Duration scheduleTimeout) {
        return new GangInfo(GroupKey.podGroup("ns", name), minMember, Map.of(), priority,
                T0.minusSeconds(1000 - name.length()), scheduleTimeout);
    }

    /** Three nodes of 4 cpu take three 3-cpu pods; a gang of four such pods is 25% short. */
    private static ClusterSnapshot threeNodes() {
        return cluster(node("node-0", 4), node("node-1", 4), node("node-2", 4)).snapshot();
    }

    private static PendingGang fourOfThreeCpu(GangInfo gang) {
        return pending(gang, pods(gang, "w", 4, cpu(3)));
    }

    private static Map<String, Outcome> outcomes(List<GangPlacement> results) {
        Map<String, Outcome> outcomes = new java.util.TreeMap<>();
        results.forEach(r -> outcomes.put(r.gang().key().name(), r.outcome()));
        return outcomes;
    }

    @Test
    void aGangThatFailsFarFromItsQuorumBacksOffForTheBackoffTime() {
        DefaultQueueCycles queue = new DefaultQueueCycles(args(60, 10, 10));
        PendingGang big = fourOfThreeCpu(gang("big", 4, 0, null));

        assertThat(queue.plan(threeNodes(), List.of(big), T0)).singleElement()
                .satisfies(r -> assertThat(r.outcome()).isEqualTo(Outcome.NOT_ENOUGH_RESOURCES));
        List<GangPlacement> during = queue.plan(threeNodes(), List.of(big), T0.plusSeconds(9));
        assertThat(during).singleElement().satisfies(r -> {
            assertThat(r.outcome()).isEqualTo(Outcome.BACKED_OFF);
            assertThat(r.message()).contains("Insufficient cpu").endsWith("Backing off until 2025-01-01T00:00:10Z.");
        });
        assertThat(queue.plan(threeNodes(), List.of(big), T0.plusSeconds(10))).singleElement()
                .satisfies(r -> assertThat(r.outcome()).isEqualTo(Outcome.NOT_ENOUGH_RESOURCES));
    }

    @Test
    void withoutBackoffAFailedGangIsTriedEveryCycle() {
        DefaultQueueCycles queue = new DefaultQueueCycles(args(60, 0, 10));
        PendingGang big = fourOfThreeCpu(gang("big", 4, 0, null));

        queue.plan(threeNodes(), List.of(big), T0);

        assertThat(outcomes(queue.plan(threeNodes(), List.of(big), T0.plusSeconds(1))))
                .containsEntry("big", Outcome.NOT_ENOUGH_RESOURCES);
    }

    @Test
    void theHeadGangNearItsQuorumReservesItsRoomAndIsTriedFirstUntilItFits() {
        DefaultQueueCycles queue = new DefaultQueueCycles(args(60, 10, 30));
        PendingGang near = fourOfThreeCpu(gang("near", 4, 0, null));
        GangInfo urgentInfo = gang("urgent", 1, 100, null);
        PendingGang urgent = pending(urgentInfo, pods(urgentInfo, "w", 1, cpu(2)));
        ClusterSnapshot first = threeNodes();

        List<GangPlacement> results = queue.plan(first, List.of(near), T0);

        assertThat(results.get(0).outcome()).isEqualTo(Outcome.RESERVED);
        assertThat(results.get(0).placements()).hasSize(3);
        assertThat(results.get(0).message()).contains("Reserved 3 of the 4 pod(s)");
        assertThat(first.nodes()).allSatisfy(n -> assertThat(n.free(ResourceVector.CPU)).isEqualTo(1000));
        assertThat(queue.reservationHolder()).isEqualTo(near.gang().key());

        // A higher-priority gang arriving later does not get the reserved room.
        results = queue.plan(threeNodes(), List.of(urgent, near), T0.plusSeconds(5));
        assertThat(results).extracting(r -> r.gang().key().name()).containsExactly("near", "urgent");
        assertThat(outcomes(results)).isEqualTo(Map.of("near", Outcome.RESERVED, "urgent", Outcome.NOT_ENOUGH_RESOURCES));

        ClusterSnapshot grown = cluster(node("node-0", 4), node("node-1", 4), node("node-2", 4), node("node-3", 4))
                .snapshot();
        assertThat(outcomes(queue.plan(grown, List.of(near), T0.plusSeconds(10)))).containsEntry("near", Outcome.PLACED);
        assertThat(queue.reservationHolder()).isNull();
    }

    @Test
    void onlyOneGangHoldsAReservationAndOtherNearGangsDoNotBackOff() {
        DefaultQueueCycles queue = new DefaultQueueCycles(args(60, 10, 30));
        // Each gang has a pool of three 4-cpu nodes of its own, so both come within one pod of the quorum.
        PendingGang older = inPool(gang("older", 4, 0, null), "a");
        PendingGang newer = inPool(gang("newer-one", 4, 0, null), "b");
        ClusterSnapshot pools = cluster(pooled("a-0", "a"), pooled("a-1", "a"), pooled("a-2", "a"),
                pooled("b-0", "b"), pooled("b-1", "b"), pooled("b-2", "b")).snapshot();

        List<GangPlacement> results = queue.plan(pools, List.of(newer, older), T0);

        assertThat(outcomes(results)).isEqualTo(Map.of("older", Outcome.RESERVED, "newer-one", Outcome.NOT_ENOUGH_RESOURCES));
        assertThat(results.get(1).nearQuorum()).isTrue();
        assertThat(outcomes(queue.plan(pools, List.of(newer, older), T0.plusSeconds(1))))
                .as("the near gang was not backed off").containsEntry("newer-one", Outcome.NOT_ENOUGH_RESOURCES);
    }

    private static NodeInfo pooled(String name, String pool) {
        return node(name, 4, Map.of("pool", pool));
    }

    private static PendingGang inPool(GangInfo gang, String pool) {
        return pending(gang, pods(gang, "w", 4, cpu(3)).stream().map(p -> new PodInfo(p.namespace(), p.name(),
                p.group(), p.task(), 0, p.requests(), Map.of("pool", pool))).toList());
    }

    @Test
    void aReservationIsReleasedAfterTheWaitingTimeAndTheGangBacksOffAndMayNotReserveAgainAtOnce() {
        DefaultQueueCycles queue = new DefaultQueueCycles(args(30, 10, 30));
        PendingGang near = fourOfThreeCpu(gang("near", 4, 0, null));
        GangInfo smallInfo = gang("small", 1, 0, null);
        PendingGang small = pending(smallInfo, pods(smallInfo, "w", 1, cpu(3)));

        queue.plan(threeNodes(), List.of(near), T0);
        assertThat(outcomes(queue.plan(threeNodes(), List.of(near), T0.plusSeconds(29))))
                .containsEntry("near", Outcome.RESERVED);

        List<GangPlacement> released = queue.plan(threeNodes(), List.of(near, small), T0.plusSeconds(30));

        assertThat(outcomes(released)).isEqualTo(Map.of("near", Outcome.NOT_ENOUGH_RESOURCES, "small", Outcome.PLACED));
        assertThat(queue.reservationHolder()).isNull();
        GangPlacement backedOff = queue.plan(threeNodes(), List.of(near), T0.plusSeconds(35)).get(0);
        assertThat(backedOff.outcome()).isEqualTo(Outcome.BACKED_OFF);
        assertThat(backedOff.message()).startsWith("Its reservation was released after 30s");
        assertThat(outcomes(queue.plan(threeNodes(), List.of(near), T0.plusSeconds(45))))
                .as("no new reservation within one waiting time").containsEntry("near", Outcome.NOT_ENOUGH_RESOURCES);
        assertThat(outcomes(queue.plan(threeNodes(), List.of(near), T0.plusSeconds(61))))
                .containsEntry("near", Outcome.RESERVED);
    }

    @Test
    void aPodGroupsScheduleTimeoutOverridesThePermitWaitingTime() {
        DefaultQueueCycles queue = new DefaultQueueCycles(args(60, 0, 30));
        PendingGang near = fourOfThreeCpu(gang("near", 4, 0, Duration.ofSeconds(5)));

        queue.plan(threeNodes(), List.of(near), T0);
        assertThat(queue.reservationHolder()).isNotNull();

        assertThat(outcomes(queue.plan(threeNodes(), List.of(near), T0.plusSeconds(5))))
                .containsEntry("near", Outcome.NOT_ENOUGH_RESOURCES);
        assertThat(queue.reservationHolder()).isNull();
    }

    @Test
    void aRejectPercentageOfZeroNeverCountsAFailureAsNear() {
        DefaultQueueCycles queue = new DefaultQueueCycles(args(60, 10, 0));
        GangInfo info = gang("almost", 10, 0, null);
        // Nine 1-cpu slots for ten pods: 10% short.
        PendingGang almost = pending(info, pods(info, "w", 10, cpu(1)));

        GangPlacement result = queue.plan(cluster(node("node-0", 9)).snapshot(), List.of(almost), T0).get(0);

        assertThat(result.outcome()).isEqualTo(Outcome.NOT_ENOUGH_RESOURCES);
        assertThat(result.nearQuorum()).isFalse();
        assertThat(queue.plan(cluster(node("node-0", 9)).snapshot(), List.of(almost), T0.plusSeconds(1)).get(0).outcome())
                .isEqualTo(Outcome.BACKED_OFF);
    }

    @Test
    void gangsThatAreGoneAreForgotten() {
        DefaultQueueCycles queue = new DefaultQueueCycles(args(60, 10, 30));
        PendingGang near = fourOfThreeCpu(gang("near", 4, 0, null));
        queue.plan(threeNodes(), List.of(near), T0);

        queue.plan(threeNodes(), List.of(), T0.plusSeconds(1));

        assertThat(queue.reservationHolder()).isNull();
    }
}
