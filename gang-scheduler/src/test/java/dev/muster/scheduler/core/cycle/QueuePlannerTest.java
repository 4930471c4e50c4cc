package dev.muster.scheduler.core.cycle;

import dev.muster.scheduler.core.CoreFixtures;
import dev.muster.scheduler.core.QueueFixtures;
import dev.muster.scheduler.core.cluster.ClusterState;
import dev.muster.scheduler.core.model.GangInfo;
import dev.muster.scheduler.core.model.GroupKey;
import dev.muster.scheduler.core.model.PendingGang;
import dev.muster.scheduler.core.model.PodInfo;
import dev.muster.scheduler.core.model.QueueInfo;
import dev.muster.scheduler.core.model.RunningGang;
import dev.muster.scheduler.core.placement.GangPlacement;
import dev.muster.scheduler.core.queue.QueueHold;
import dev.muster.scheduler.core.queue.QueueStanding;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;

import static dev.muster.scheduler.core.QueueFixtures.T0;
import static dev.muster.scheduler.core.QueueFixtures.gang;
import static dev.muster.scheduler.core.QueueFixtures.gpuCluster;
import static dev.muster.scheduler.core.QueueFixtures.gpuPods;
import static dev.muster.scheduler.core.QueueFixtures.queue;
import static org.assertj.core.api.Assertions.assertThat;

/** Gangs the queues hold back, and the standings of a cycle. */
class QueuePlannerTest {

    private static PendingGang pending(String name, String queue, int gpus) {
        GangInfo info = gang(name, queue, 1, 0, 0, null);
        return CoreFixtures.pending(info, gpuPods(info, 1, gpus));
    }

    private static CyclePlan plan(List<QueueInfo> queues, PendingGang... gangs) {
        return new QueuePlanner(CoschedulingArgs.defaults()).plan(gpuCluster(2).snapshot(), List.of(gangs), Map.of(),
                queues, T0);
    }

    /** The scheduler holds most of these with QueueAccess before the plan; the planner, called directly, never guesses. */
    @Test
    void aGangWhoseQueueIsNotAnOpenLeafIsReturnedUntried() {
        List<QueueInfo> queues = List.of(queue("org", null, 1, 0, null), queue("team", "org", 1, 0, null),
                queue("orphan", "gone", 1, 0, null), new QueueInfo("shut", null, 1, null, null, null, false));

        CyclePlan plan = plan(queues, pending("g1", "org", 1), pending("g2", "orphan", 1), pending("g3", "nope", 1),
                pending("g4", "shut", 1), pending("g5", "team", 1));

        assertThat(plan.holds()).extracting(hold -> hold.gang().key().name() + " " + hold.reason().reason() + ": "
                + hold.message()).containsExactlyInAnyOrder(
                "g1 QueueNotFound: queue org is not a leaf of the queue tree",
                "g2 QueueNotFound: queue orphan is not a leaf of the queue tree",
                "g3 QueueNotFound: queue nope is not a leaf of the queue tree",
                "g4 QueueClosed: queue shut is Closed: its running jobs go on, new ones wait until it is Open");
        assertThat(plan.placements()).singleElement().satisfies(r -> {
            assertThat(r.gang().key().name()).isEqualTo("g5");
            assertThat(r.placed()).isTrue();
        });
        assertThat(plan.standings()).extracting(QueueStanding::name).containsExactly("org", "shut", "team");
    }

    @Test
    void aLimitHoldsTheGangThatWouldCrossItAndNotASmallerOne() {
        CyclePlan plan = plan(List.of(queue("a", null, 1, 0, 4L)), pending("big", "a", 6), pending("small", "a", 4));

        assertThat(plan.holds()).singleElement().satisfies(hold -> {
            assertThat(hold.gang().key().name()).isEqualTo("big");
            assertThat(hold.message()).isEqualTo(
                    "Queue a holds 0 nvidia.com/gpu of its limit of 4; the gang requests 6 more"
                    + ", more than the whole limit: it cannot run in this queue unless the limit is raised.");
        });
        assertThat(plan.placements()).singleElement().satisfies(r -> assertThat(r.placed()).isTrue());
        assertThat(plan.standings()).singleElement().satisfies(standing -> {
            assertThat(standing.allocated().get(QueueFixtures.GPU)).isEqualTo(4);
            assertThat(standing.demand().get(QueueFixtures.GPU)).isEqualTo(10);
            assertThat(standing.fairShare().get(QueueFixtures.GPU)).isEqualTo(4);
            assertThat(standing.share()).isEqualTo(1.0);
            assertThat(standing.pendingGangs()).isEqualTo(2);
        });
    }

    @Test
    void aGangThatFitsTheLimitOnceOthersFinishIsHeldWithoutBeingToldItNeverRuns() {
        CyclePlan plan = plan(List.of(queue("a", null, 1, 0, 8L)), pending("first", "a", 6), pending("second", "a", 4));

        assertThat(plan.holds()).singleElement().satisfies(hold -> {
            assertThat(hold.gang().key().name()).isEqualTo("second");
            assertThat(hold.message()).isEqualTo("Queue a holds 6 nvidia.com/gpu of its limit of 8; the gang requests 4 more.");
        });
    }

    @Test
    void aLimitOfZeroCapsTheResourceItNames() {
        QueueInfo noGpus = new QueueInfo("cpu-only", null, 1, null, QueueFixtures.gpus(0), java.util.Set.of(QueueFixtures.GPU),
                null, true);

        CyclePlan plan = plan(List.of(noGpus, queue("other", null, 1, 0, null)), pending("g", "cpu-only", 1),
                pending("h", "other", 1));

        assertThat(plan.holds()).singleElement().satisfies(hold -> {
            assertThat(hold.gang().key().name()).isEqualTo("g");
            assertThat(hold.reason()).isEqualTo(QueueHold.Reason.QUEUE_LIMIT);
            assertThat(hold.message()).isEqualTo(
                    "Queue cpu-only holds 0 nvidia.com/gpu of its limit of 0; the gang requests 1 more"
                    + ", more than the whole limit: it cannot run in this queue unless the limit is raised.");
        });
        assertThat(plan.placements()).singleElement().satisfies(r -> assertThat(r.gang().key().name()).isEqualTo("h"));
        assertThat(plan.standings()).filteredOn(s -> s.name().equals("cpu-only")).singleElement().satisfies(standing -> {
            assertThat(standing.fairShare().get(QueueFixtures.GPU)).isZero();
            assertThat(standing.demand().get(QueueFixtures.GPU)).isEqualTo(1);
        });
    }

    @Test
    void aLimitGivenAsAVectorAloneCapsOnlyItsNonZeroResources() {
        QueueInfo queue = new QueueInfo("a", null, 1, null, QueueFixtures.gpus(0), null, true);

        assertThat(queue.limits(QueueFixtures.GPU)).isFalse();
        assertThat(plan(List.of(queue), pending("g", "a", 1)).placements()).singleElement()
                .satisfies(r -> assertThat(r.placed()).isTrue());
    }

    @Test
    void theOrderComparesSiblingsLevelByLevelNotLeavesAcrossTheTree() {
        // 32 GPUs. orgA (a1, a2) and b split 16 / 16; a2 runs 16 and b 8, 8 are free. Leaf against leaf,
        // a1 (0 of its 8) would go before b (8 of its 16); under the root, b (0.5) goes before orgA (1.0).
        ClusterState state = gpuCluster(4);
        Map<GroupKey, RunningGang> running = new java.util.HashMap<>();
        runOn(state, running, gang("a2-run", "a2", 2, 0, 0, null), 2, "n01", "n02");
        runOn(state, running, gang("b-run", "b", 1, 0, 0, null), 1, "n03");
        List<QueueInfo> queues = List.of(queue("orgA", null, 1, 0, null), queue("a1", "orgA", 1, 0, null),
                queue("a2", "orgA", 1, 0, null), queue("b", null, 1, 0, null));

        CyclePlan plan = new QueuePlanner(CoschedulingArgs.defaults()).plan(state.snapshot(),
                List.of(pending("a1-job", "a1", 8), pending("b-job", "b", 8), pending("b-job2", "b", 8)),
                running, queues, T0);

        assertThat(plan.placements()).filteredOn(GangPlacement::placed).singleElement()
                .satisfies(r -> assertThat(r.gang().key().name()).isEqualTo("b-job"));
    }

    /** Binds the gang's pods of 8 GPUs, one per node, as running since T0. */
    private static void runOn(ClusterState state, Map<GroupKey, RunningGang> running, GangInfo gang, int pods,
                              String... nodes) {
        List<PodInfo> bound = gpuPods(gang, pods, 8);
        for (int i = 0; i < pods; i++) {
            state.occupy(nodes[i], bound.get(i));
        }
        running.put(gang.key(), new RunningGang(gang, T0, 0));
    }
}
