package dev.muster.scheduler.core.cycle;

import dev.muster.scheduler.core.QueueFixtures;
import dev.muster.scheduler.core.model.GroupKey;
import dev.muster.scheduler.core.model.QueueInfo;
import dev.muster.scheduler.core.model.QueuePreemption;
import dev.muster.scheduler.core.model.ResourceVector;
import dev.muster.scheduler.core.placement.GangPlacement;
import dev.muster.scheduler.core.preemption.ReclaimOutlook;
import dev.muster.scheduler.core.queue.QueueHold;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.Map;

import static dev.muster.scheduler.core.cycle.QueueCluster.at;
import static dev.muster.scheduler.core.QueueFixtures.queue;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * "Why is my job pending" under reclaim: the planner says, for a gang that waits while other queues' gangs
 * run, whether it waits out its queue's reclaimDelay (until when), reclaims (from whom), or why reclaim
 * cannot help, as data in the plan and as the end of the gang's message. One node of 8 GPUs.
 */
class ReclaimOutlookTest {
    private static final QueuePreemption NO_DELAY =
            new QueuePreemption(QueuePreemption.WithinQueue.LOWER_PRIORITY, true, Duration.ZERO);

    @Test
    void aGangWaitsOutTheReclaimDelayUntilAnInstantThenReclaimsNamingItsVictims() {
        QueueCluster cluster = new QueueCluster(1).queue(queue("A", null, 1, 0, null))
                .queue(queue("B", null, 1, 0, null));
        cluster.submit("a1", "A", 4, 1, 4);
        cluster.submit("a2", "A", 4, 1, 4);
        cluster.cycle();
        cluster.advanceTo(at(1));
        cluster.submit("b", "B", 4, 1, 4);

        CyclePlan waiting = cluster.cycle();

        assertThat(waiting.reclaims()).singleElement().satisfies(outlook -> {
            assertThat(outlook.gang().name()).isEqualTo("b");
            assertThat(outlook.state()).isEqualTo(ReclaimOutlook.State.WAITING);
            assertThat(outlook.until()).isEqualTo(at(31));
        });
        assertThat(placementOf(waiting, "b").message()).contains("Insufficient nvidia.com/gpu").endsWith(
                " Reclaim: queue B may take back room from other queues for it once it has waited the queue's "
                        + "reclaimDelay of 30s, at 2026-01-01T00:00:31Z.");

        cluster.advanceTo(at(31));
        CyclePlan reclaiming = cluster.cycle();

        assertThat(reclaiming.reclaims()).singleElement().satisfies(outlook -> {
            assertThat(outlook.state()).isEqualTo(ReclaimOutlook.State.RECLAIMING);
            assertThat(outlook.victims()).containsExactly(
                    new ReclaimOutlook.Victim(GroupKey.podGroup("ns", "a2"), "A"));
        });
        assertThat(reclaiming.holds()).singleElement().satisfies(hold -> {
            assertThat(hold.reason()).isEqualTo(QueueHold.Reason.PREEMPTING);
            assertThat(hold.message()).isEqualTo("Reclaiming from queue A: evicting podgroup ns/a2 for it; it waits "
                    + "for their pods to terminate, and their room is held for it.");
        });
    }

    @Test
    void aQueueWithReclaimOffSaysSo() {
        QueuePreemption off = new QueuePreemption(QueuePreemption.WithinQueue.LOWER_PRIORITY, false, Duration.ZERO);
        QueueCluster cluster = new QueueCluster(1).queue(queue("A", null, 1, 0, null))
                .queue(queue("B", null, 1, 0, null, off));
        cluster.submit("a", "A", 8, 1, 8);
        cluster.cycle();
        cluster.submit("b", "B", 4, 1, 4);

        CyclePlan plan = cluster.cycle();

        assertBlocked(plan, ReclaimOutlook.Rule.RECLAIM_DISABLED,
                "Reclaim cannot help: queue B does not reclaim (its preemption.reclaim is false).");
        assertThat(cluster.evictions).isEmpty();
    }

    @Test
    void aQueueAtItsFairShareDoesNotEvictToBorrow() {
        QueueCluster cluster = new QueueCluster(1).queue(queue("A", null, 1, 0, null, NO_DELAY))
                .queue(queue("B", null, 1, 0, null, NO_DELAY));
        cluster.submit("a", "A", 4, 1, 4);
        cluster.submit("b1", "B", 4, 1, 4);
        cluster.cycle();
        cluster.submit("b2", "B", 4, 1, 4);

        CyclePlan plan = cluster.cycle();

        assertBlocked(plan, ReclaimOutlook.Rule.FAIR_SHARE_REACHED, "Reclaim cannot help: queue B would hold more "
                + "than its fair share of nvidia.com/gpu (8 of 4); a queue never evicts in order to borrow.");
        assertThat(cluster.evictions).isEmpty();
    }

    /** A holds 6 GPUs of a fair share of 4 in one pod: taking it would leave A with none. */
    @Test
    void theOtherQueuesFairShareIsNamedWhenItsOnlyVictimIsTooBig() {
        QueueCluster cluster = new QueueCluster(1).queue(queue("A", null, 1, 0, null, NO_DELAY))
                .queue(queue("B", null, 1, 0, null, NO_DELAY));
        cluster.submit("a", "A", 1, 6, 1);
        cluster.cycle();
        cluster.submit("b", "B", 1, 4, 1);

        CyclePlan plan = cluster.cycle();

        assertBlocked(plan, ReclaimOutlook.Rule.VICTIM_FAIR_SHARE,
                "Reclaim cannot help: queue A would fall below its fair share of nvidia.com/gpu (0 of 4).");
        assertThat(cluster.evictions).isEmpty();
    }

    /**
     * A holds 8 GPUs of a fair share of 4, but its guarantee of 8 cpu is all it holds of cpu: every pod of
     * it takes a cpu with its GPU, so none may go.
     */
    @Test
    void theOtherQueuesGuaranteeIsNamedWithTheResource() {
        ResourceVector cpu = ResourceVector.builder().cpuMillis(1_000).build();
        QueueCluster cluster = new QueueCluster(1, ResourceVector.builder().cpuMillis(16_000).build(),
                ResourceVector.ZERO)
                .queue(new QueueInfo("A", null, 1, ResourceVector.builder().cpuMillis(8_000).build(), null, NO_DELAY,
                        true))
                .queue(queue("B", null, 1, 0, null, NO_DELAY));
        for (int i = 0; i < 8; i++) {
            cluster.submit("a" + i, "A", 1, 1, cpu, 1, 0, null, null);
        }
        cluster.cycle();
        cluster.submit("b", "B", 1, 4, ResourceVector.ZERO, 1, 0, null, null);

        CyclePlan plan = cluster.cycle();

        assertBlocked(plan, ReclaimOutlook.Rule.GUARANTEE,
                "Reclaim cannot help: queue A would fall below its guarantee of cpu (7 of 8).");
        assertThat(cluster.evictions).isEmpty();
    }

    @Test
    void aGangNoVictimSetMakesRoomForSaysSo() {
        QueueCluster cluster = new QueueCluster(1).queue(queue("A", null, 1, 0, null, NO_DELAY))
                .queue(queue("B", null, 1, 0, null, NO_DELAY));
        cluster.submit("a", "A", 8, 1, 1);
        cluster.cycle();
        cluster.submit("b", "B", 1, 16, 1);

        CyclePlan plan = cluster.cycle();

        assertBlocked(plan, ReclaimOutlook.Rule.NO_VICTIM_SET_FITS, "Reclaim cannot help: no set of other queues' "
                + "gangs it may evict makes room for it node by node.");
    }

    /** Two nodes of 8 GPUs, 12 of them free, and a pod asking for 12: no resource is short in all, none named. */
    @Test
    void aGangShortOfNoResourceInAllNamesNoneWhenNothingIsAboveFairShare() {
        QueueCluster cluster = new QueueCluster(2).queue(queue("A", null, 1, 0, null, NO_DELAY))
                .queue(queue("B", null, 1, 0, null, NO_DELAY));
        cluster.submit("a", "A", 1, 4, 1);
        cluster.cycle();
        cluster.submit("b", "B", 1, 12, 1);

        CyclePlan plan = cluster.cycle();

        assertBlocked(plan, ReclaimOutlook.Rule.NOTHING_ABOVE_FAIR_SHARE,
                "Reclaim cannot help: no other queue holds more than its fair share.");
    }

    /** A resource no node has: every fair share of it is 0, which is no reason to give ("8 of 0"). */
    @Test
    void aGangAskingForAResourceNoNodeHasIsToldThatRatherThanAFairShareOfNothing() {
        QueueCluster cluster = new QueueCluster(1).queue(queue("A", null, 1, 0, null, NO_DELAY))
                .queue(queue("B", null, 1, 0, null, NO_DELAY));
        cluster.submit("a", "A", 1, 8, 1);
        cluster.cycle();
        cluster.submit("b", "B", 1, 4, ResourceVector.of(Map.of("huawei.com/npu-core", 8L)), 1, 0, null, null);

        CyclePlan plan = cluster.cycle();

        assertBlocked(plan, ReclaimOutlook.Rule.NOT_IN_CLUSTER, "Reclaim cannot help: no schedulable node has "
                + "huawei.com/npu-core, so evicting other queues' gangs frees none.");
    }

    @Test
    void aGangAloneOnTheClusterGetsNoReclaimNote() {
        QueueCluster cluster = new QueueCluster(1).queue(queue("A", null, 1, 0, null, NO_DELAY))
                .queue(queue("B", null, 1, 0, null, NO_DELAY));
        cluster.submit("a1", "A", 8, 1, 8);
        cluster.cycle();
        cluster.submit("a2", "A", 8, 1, 8);

        CyclePlan plan = cluster.cycle();

        assertThat(plan.reclaims()).isEmpty();
        assertThat(placementOf(plan, "a2").message()).doesNotContain("Reclaim");
    }

    private static void assertBlocked(CyclePlan plan, ReclaimOutlook.Rule rule, String message) {
        assertThat(plan.reclaims()).singleElement().satisfies(outlook -> {
            assertThat(outlook.state()).isEqualTo(ReclaimOutlook.State.BLOCKED);
            assertThat(outlook.refusal().rule()).isEqualTo(rule);
        });
        GangPlacement result = plan.placements().stream()
                .filter(p -> p.gang().key().equals(plan.reclaims().get(0).gang())).findFirst().orElseThrow();
        assertThat(result.outcome()).isEqualTo(GangPlacement.Outcome.NOT_ENOUGH_RESOURCES);
        assertThat(result.message()).endsWith(" " + message);
    }

    private static GangPlacement placementOf(CyclePlan plan, String name) {
        return plan.placements().stream().filter(p -> p.gang().key().name().equals(name)).findFirst().orElseThrow();
    }
}
