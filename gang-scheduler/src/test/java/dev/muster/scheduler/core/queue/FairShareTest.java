package dev.muster.scheduler.core.queue;

import dev.muster.scheduler.core.CoreFixtures;
import dev.muster.scheduler.core.QueueFixtures;
import dev.muster.scheduler.core.cluster.ClusterState;
import dev.muster.scheduler.core.model.GangInfo;
import dev.muster.scheduler.core.model.NodeInfo;
import dev.muster.scheduler.core.model.PendingGang;
import dev.muster.scheduler.core.model.QueueInfo;
import dev.muster.scheduler.core.model.ResourceVector;
import dev.muster.scheduler.core.model.RunningGang;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import static dev.muster.scheduler.core.QueueFixtures.GPU;
import static dev.muster.scheduler.core.QueueFixtures.gang;
import static dev.muster.scheduler.core.QueueFixtures.gpuCluster;
import static dev.muster.scheduler.core.QueueFixtures.gpuPods;
import static dev.muster.scheduler.core.QueueFixtures.queue;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

/** Fair shares of scenarios 2 and 6 of docs/queues.md, and the water-filling's edges. */
class FairShareTest {

    /** Pending demand only: {@code gpus} GPUs of the queue as 1-GPU pods of one gang per queue. */
    private static PendingGang demand(String queue, int gpus) {
        GangInfo gang = gang(queue + "-demand", queue, 1, 0, 0, null);
        return CoreFixtures.pending(gang, gpuPods(gang, gpus, 1));
    }

    private static Map<String, Long> fairShares(int nodes, List<QueueInfo> queues, PendingGang... demands) {
        QueueLedger ledger = new QueueLedger(new QueueTree(queues), gpuCluster(nodes).snapshot(), List.of(demands),
                Map.of());
        Map<String, Long> shares = new java.util.TreeMap<>();
        for (int q = 0; q < ledger.tree().size(); q++) {
            QueueStanding standing = ledger.standing(q);
            shares.put(standing.name(), standing.fairShare().get(GPU));
        }
        return shares;
    }

    @Test
    void scenario2GuaranteeAsFarAsItAsksThenWeights() {
        List<QueueInfo> queues = List.of(queue("prod", null, 1, 16, null), queue("research", null, 1, 0, null),
                queue("batch", null, 2, 0, null));

        assertThat(fairShares(5, queues, demand("prod", 4), demand("research", 40), demand("batch", 40)))
                .isEqualTo(Map.of("prod", 4L, "research", 12L, "batch", 24L));
        assertThat(fairShares(5, queues, demand("prod", 24), demand("research", 40), demand("batch", 40)))
                .isEqualTo(Map.of("prod", 16L, "research", 8L, "batch", 16L));
    }

    @Test
    void scenario6HierarchyWithALimitLeavesItsExcessIdle() {
        List<QueueInfo> queues = List.of(queue("orgA", null, 1, 0, 24L), queue("A1", "orgA", 1, 0, null),
                queue("A2", "orgA", 3, 0, null), queue("orgB", null, 1, 0, null));

        assertThat(fairShares(4, queues, demand("A1", 32), demand("A2", 32), demand("orgB", 32)))
                .isEqualTo(Map.of("orgA", 16L, "A1", 4L, "A2", 12L, "orgB", 16L));
        assertThat(fairShares(4, queues, demand("A1", 32), demand("A2", 32), demand("orgB", 4)))
                .isEqualTo(Map.of("orgA", 24L, "A1", 6L, "A2", 18L, "orgB", 4L));
        // A1 and orgB each run 16, A2 asks for 12: A1's share within orgA is 4.
        assertThat(fairShares(4, queues, demand("A1", 16), demand("A2", 12), demand("orgB", 16)))
                .isEqualTo(Map.of("orgA", 16L, "A1", 4L, "A2", 12L, "orgB", 16L));
    }

    @Test
    void waterFillingGivesCapsWhenThereIsRoomAndScalesGuaranteesThatDoNotFit() {
        double[] weights = {1, 1};
        assertThat(FairShare.waterFill(10, weights, new double[]{0, 0}, new double[]{3, 4})).containsExactly(3, 4);
        assertThat(FairShare.waterFill(10, weights, new double[]{10, 10}, new double[]{20, 20}))
                .containsExactly(5, 5);
        assertThat(FairShare.waterFill(32, new double[]{1, 1, 1}, new double[]{0, 0, 0},
                new double[]{40, 40, 40})).containsExactly(new double[]{32.0 / 3, 32.0 / 3, 32.0 / 3}, within(1e-9));
    }

    @Test
    void aQueueHoldingWhatItHasNoFairShareOfHasAnInfiniteShare() {
        List<QueueInfo> queues = new ArrayList<>(List.of(queue("a", null, 1, 0, null)));
        ClusterState state = gpuCluster(1);
        GangInfo running = gang("r", "a", 1, 0, 0, null);
        state.occupy("n01", gpuPods(running, 1, 8).get(0));
        state.removeNode("n01");
        state.putNode(new NodeInfo("n01", Map.of(), ResourceVector.builder().pods(110).build(), true, false));
        QueueLedger ledger = new QueueLedger(new QueueTree(queues), state.snapshot(), List.of(),
                Map.of(running.key(), new RunningGang(running, QueueFixtures.T0, 0)));

        assertThat(ledger.share(0)).isInfinite();
    }
}
