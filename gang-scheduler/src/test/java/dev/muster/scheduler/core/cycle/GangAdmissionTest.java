package dev.muster.scheduler.core.cycle;

import dev.muster.scheduler.core.CoreFixtures;
import dev.muster.scheduler.core.cluster.ClusterSnapshot;
import dev.muster.scheduler.core.cluster.ClusterState;
import dev.muster.scheduler.core.model.GangInfo;
import dev.muster.scheduler.core.model.GroupKey;
import dev.muster.scheduler.core.model.NodeInfo;
import dev.muster.scheduler.core.model.PendingGang;
import dev.muster.scheduler.core.model.PodInfo;
import dev.muster.scheduler.core.model.ResourceVector;
import dev.muster.scheduler.core.placement.GangPlacement.Outcome;
import dev.muster.scheduler.core.placement.GangPlacement;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import static dev.muster.scheduler.core.CoreFixtures.cluster;
import static dev.muster.scheduler.core.CoreFixtures.pods;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * Admission of gangs whose workload creates its pods only once admitted: node by node, against room not
 * promised to gangs admitted before, with the promise held across cycles until the gang is placed, times
 * out, or is withdrawn; through the production cycle ({@link QueuePlanner}) with the default queue only.
 */
class GangAdmissionTest {
    private static final Instant T0 = Instant.parse("2025-01-01T00:00:00Z");
    private static final String GPU = "nvidia.com/gpu";
    private static final Duration TIMEOUT = Duration.ofSeconds(60);

    private final DefaultQueueCycles queue =
            new DefaultQueueCycles(CoschedulingArgs.defaults().withAdmissionTimeout(TIMEOUT));

    private static ResourceVector gpus(long count) {
        return ResourceVector.builder().cpuMillis(1000).set(GPU, count).build();
    }

    private static NodeInfo gpuNode(String name, long gpus) {
        return new NodeInfo(name, Map.of(), ResourceVector.builder().cpuMillis(32_000).memoryBytes(64 * CoreFixtures.GI)
                .pods(110).set(GPU, gpus).build(), true, false);
    }

    private static ClusterSnapshot gpuNodes(int count, long gpusEach) {
        NodeInfo[] nodes = new NodeInfo[count];
        for (int i = 0; i < count; i++) {
            nodes[i] = gpuNode("node-" + i, gpusEach);
        }
        return cluster(nodes).snapshot();
    }

    private static GangInfo gang(String name, int minMember, int priority) {
        return new GangInfo(GroupKey.podGroup("ns", name), minMember, Map.of(), priority, T0.minusSeconds(100));
    }

    /** A gang none of whose pods exist yet: all are expected. */
    private static PendingGang waiting(GangInfo gang, int pods, long gpusEach) {
        return new PendingGang(gang, List.of(), 0, Map.of(), null, pods(gang, "worker", pods, gpus(gpusEach)));
    }

    /** The same gang with its first {@code created} pods created (pending), the rest still expected. */
    private static PendingGang partlyCreated(PendingGang gang, int created) {
        List<PodInfo> all = new ArrayList<>(gang.pending());
        all.addAll(gang.expected());
        return new PendingGang(gang.gang(), all.subList(0, created), 0, Map.of(), null,
                all.subList(created, all.size()));
    }

    private static GangPlacement only(List<GangPlacement> results, String name) {
        return results.stream().filter(r -> r.gang().key().name().equals(name)).findFirst().orElseThrow();
    }

    @Test
    void aGangThatFitsOnlyBySumIsNotAdmitted() {
        // 12 GPUs free in total for 12 requested, but no node has the 6 one pod needs.
        PendingGang llm = waiting(gang("llm", 2, 0), 2, 6);

        GangPlacement result = only(queue.plan(gpuNodes(3, 4), List.of(llm), T0), "llm");

        assertThat(result.outcome()).isEqualTo(Outcome.NOT_ENOUGH_RESOURCES);
        assertThat(result.message()).startsWith("0/3 nodes are available: 3 Insufficient nvidia.com/gpu.");
        assertThat(queue.admitted()).isEmpty();
    }

    @Test
    void aGangThatFitsNodeByNodeIsAdmittedWithoutBindingAnything() {
        PendingGang llm = waiting(gang("llm", 2, 0), 2, 6);

        GangPlacement result = only(queue.plan(gpuNodes(3, 8), List.of(llm), T0), "llm");

        assertThat(result.outcome()).isEqualTo(Outcome.ADMITTED);
        assertThat(result.placed()).as("an admission is not a placement to bind").isFalse();
        assertThat(result.placements()).hasSize(2);
        assertThat(result.message()).isEqualTo("Admitted: the 2 pod(s) minMember 2 needs fit node by node; "
                + "their room is held until they are created and placed.");
        assertThat(queue.admitted()).containsExactly(llm.gang().key());
    }

    @Test
    void roomPromisedToAnAdmittedGangGoesToNoGangAdmittedOrPlacedAfterIt() {
        PendingGang first = waiting(gang("first", 2, 0), 2, 8);
        queue.plan(gpuNodes(2, 8), List.of(first), T0);

        // Even a higher-priority gang, with its pods created, does not take the promised room.
        GangInfo urgentInfo = gang("urgent", 1, 1000);
        PendingGang urgent = new PendingGang(urgentInfo, pods(urgentInfo, "worker", 1, gpus(8)), 0, Map.of());
        PendingGang second = waiting(gang("second", 1, 0), 1, 8);
        List<GangPlacement> results = queue.plan(gpuNodes(2, 8), List.of(urgent, second, first), T0.plusSeconds(1));

        assertThat(only(results, "first").outcome()).isEqualTo(Outcome.ADMITTED);
        assertThat(only(results, "urgent").outcome()).isEqualTo(Outcome.NOT_ENOUGH_RESOURCES);
        assertThat(only(results, "second").outcome()).isEqualTo(Outcome.NOT_ENOUGH_RESOURCES);
        assertThat(queue.admitted()).containsExactly(first.gang().key());
    }

    @Test
    void anAdmittedGangStaysAdmittedWhileItsPodsAreCreatedAndIsPlacedOnceAllExist() {
        PendingGang llm = waiting(gang("llm", 3, 0), 3, 4);
        queue.plan(gpuNodes(2, 8), List.of(llm), T0);

        GangPlacement halfway = only(queue.plan(gpuNodes(2, 8), List.of(partlyCreated(llm, 2)), T0.plusSeconds(1)),
                "llm");
        assertThat(halfway.outcome()).isEqualTo(Outcome.ADMITTED);
        assertThat(halfway.unplaced()).as("the created pods wait for the last one").hasSize(2);

        GangPlacement done = only(queue.plan(gpuNodes(2, 8), List.of(partlyCreated(llm, 3)), T0.plusSeconds(2)),
                "llm");
        assertThat(done.outcome()).isEqualTo(Outcome.PLACED);
        assertThat(done.placements()).extracting(p -> p.pod().name())
                .containsExactlyInAnyOrder("llm-worker-0", "llm-worker-1", "llm-worker-2");
        assertThat(queue.admitted()).isEmpty();
    }

    @Test
    void onlyTheQuorumIsPromisedSoTheRestOfTheRoomStaysFreeForOthers() {
        // minMember 2 of 4 replicas: 2 × 8 GPUs are promised, and the third node stays free.
        PendingGang elastic = waiting(gang("elastic", 2, 0), 4, 8);
        PendingGang other = waiting(gang("other", 1, 0), 1, 8);

        List<GangPlacement> results = queue.plan(gpuNodes(3, 8), List.of(elastic, other), T0);

        assertThat(only(results, "elastic").placements()).hasSize(2);
        assertThat(only(results, "other").outcome()).isEqualTo(Outcome.ADMITTED);
    }

    @Test
    void eachTasksMinimumIsPartOfThePromise() {
        GangInfo info = new GangInfo(GroupKey.podGroup("ns", "ps"), 2, Map.of("ps", 1, "worker", 1), 0, T0);
        List<PodInfo> expected = new ArrayList<>(pods(info, "worker", 3, gpus(8)));
        expected.addAll(pods(info, "ps", 1, gpus(0)));
        PendingGang ps = new PendingGang(info, List.of(), 0, Map.of(), null, expected);

        GangPlacement result = only(queue.plan(gpuNodes(1, 8), List.of(ps), T0), "ps");

        assertThat(result.outcome()).isEqualTo(Outcome.ADMITTED);
        assertThat(result.placements()).extracting(p -> p.pod().task()).containsExactlyInAnyOrder("ps", "worker");
    }

    @Test
    void anAdmittedGangNotPlacedWithinTheTimeoutLosesItsRoomAndIsNotAdmittedAgainAtOnce() {
        PendingGang slow = waiting(gang("slow", 1, 0), 1, 8);
        PendingGang next = waiting(gang("next", 1, 0), 1, 8);
        queue.plan(gpuNodes(1, 8), List.of(slow), T0);
        assertThat(only(queue.plan(gpuNodes(1, 8), List.of(slow, next), T0.plus(TIMEOUT).minusSeconds(1)), "next")
                .outcome()).isEqualTo(Outcome.NOT_ENOUGH_RESOURCES);

        List<GangPlacement> expired = queue.plan(gpuNodes(1, 8), List.of(slow, next), T0.plus(TIMEOUT));

        assertThat(only(expired, "slow").outcome()).isEqualTo(Outcome.NOT_ENOUGH_RESOURCES);
        assertThat(only(expired, "slow").message()).isEqualTo("Admitted at 2025-01-01T00:00:00Z but not placed "
                + "within the admission timeout of 60s; the room held for it is released.");
        assertThat(only(expired, "next").outcome()).as("the released room goes to the next gang").isEqualTo(Outcome.ADMITTED);

        GangPlacement barred = only(queue.plan(gpuNodes(2, 8), List.of(slow, next), T0.plus(TIMEOUT).plusSeconds(1)),
                "slow");
        assertThat(barred.outcome()).isEqualTo(Outcome.BACKED_OFF);
        assertThat(barred.message()).endsWith("not admitted again until 2025-01-01T00:02:00Z.");
        assertThat(only(queue.plan(gpuNodes(2, 8), List.of(slow, next), T0.plus(TIMEOUT.multipliedBy(2))), "slow")
                .outcome()).isEqualTo(Outcome.ADMITTED);
    }

    @Test
    void anAdmittedGangWhoseWorkloadStopsWaitingIsWithdrawnOnce() {
        PendingGang suspended = waiting(gang("suspended", 1, 0), 1, 8);
        queue.plan(gpuNodes(1, 8), List.of(suspended), T0);

        List<GangPlacement> results = queue.plan(gpuNodes(1, 8), List.of(), T0.plusSeconds(1));

        assertThat(results).singleElement().satisfies(r -> {
            assertThat(r.outcome()).isEqualTo(Outcome.WITHDRAWN);
            assertThat(r.gang().key().name()).isEqualTo("suspended");
        });
        assertThat(queue.admitted()).isEmpty();
        assertThat(queue.plan(gpuNodes(1, 8), List.of(), T0.plusSeconds(2))).isEmpty();
    }

    @Test
    void anAdmittedGangWhoseRoomIsTakenBySomeoneElseGoesBackToWaiting() {
        PendingGang llm = waiting(gang("llm", 2, 0), 2, 8);
        queue.plan(gpuNodes(2, 8), List.of(llm), T0);

        // A pod of another scheduler took one node's GPUs.
        ClusterState shrunk = cluster(gpuNode("node-0", 8), gpuNode("node-1", 8));
        shrunk.occupy("node-1", gpus(8));
        GangPlacement result = only(queue.plan(shrunk.snapshot(), List.of(llm), T0.plusSeconds(1)), "llm");

        assertThat(result.outcome()).isEqualTo(Outcome.NOT_ENOUGH_RESOURCES);
        assertThat(queue.admitted()).isEmpty();
    }

    @Test
    void boundPodsCountTowardTheQuorumSoOnlyTheMissingOnesArePromised() {
        GangInfo info = gang("llm", 3, 0);
        List<PodInfo> all = pods(info, "worker", 3, gpus(8));
        // Two pods are bound; the third was deleted before it ran and waits to be created again.
        PendingGang llm = new PendingGang(info, List.of(), 2, Map.of("worker", 2), null, all.subList(2, 3));

        GangPlacement result = only(queue.plan(gpuNodes(1, 8), List.of(llm), T0), "llm");

        assertThat(result.outcome()).isEqualTo(Outcome.ADMITTED);
        assertThat(result.placements()).extracting(p -> p.pod().name()).containsExactly("llm-worker-2");
    }
}
