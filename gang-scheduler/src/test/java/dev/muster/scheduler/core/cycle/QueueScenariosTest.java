package dev.muster.scheduler.core.cycle;

import dev.muster.scheduler.core.QueueFixtures;
import dev.muster.scheduler.core.model.QueueInfo;
import dev.muster.scheduler.core.model.QueuePreemption;
import dev.muster.scheduler.core.model.ResourceVector;
import dev.muster.scheduler.core.placement.PodPlacement;
import dev.muster.scheduler.core.preemption.Eviction;
import dev.muster.scheduler.core.queue.QueueHold;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.time.Duration;
import java.util.List;

import static dev.muster.scheduler.core.QueueFixtures.cpuAndMemory;
import static dev.muster.scheduler.core.cycle.QueueCluster.at;
import static dev.muster.scheduler.core.QueueFixtures.queue;
import static org.assertj.core.api.Assertions.assertThat;

/** The seven queue scenarios of docs/queues.md in virtual time, on nodes of 8 GPUs, with their exact numbers. */
class QueueScenariosTest {
    private static final Duration SECOND = Duration.ofSeconds(1);
    private static final QueuePreemption DEFAULTS = QueuePreemption.DEFAULTS;

    @Test
    void scenario1HeavierQueueReclaimsWholeGangsThenNothingMoves() {
        assertScenario1(new QueueCluster(4));
    }

    /**
     * Scenario 1 with pods that also request cpu and memory, of which the nodes have plenty: only the
     * GPUs are contended, so the cpu and memory B would take beyond A's fair share of them (A's demand,
     * nothing being short) do not block the reclaim, and the evictions are the GPU-only ones.
     */
    @Test
    void scenario1WithCpuAndMemoryRequestedBesidesTheGpus() {
        ResourceVector plenty = ResourceVector.builder().cpuMillis(64_000).memoryBytes(256L << 30).build();
        ResourceVector perPod = ResourceVector.builder().cpuMillis(1_000).memoryBytes(1L << 30).build();
        assertScenario1(new QueueCluster(4, plenty, perPod));
    }

    private static void assertScenario1(QueueCluster cluster) {
        cluster.queue(queue("A", null, 1, 0, null, DEFAULTS)).queue(queue("B", null, 3, 0, null, DEFAULTS));
        for (int i = 1; i <= 8; i++) {
            cluster.submit("a" + i, "A", 4, 1, 4);
        }
        cluster.cycle();
        assertThat(cluster.gpus("A")).isEqualTo(32);

        cluster.advanceTo(at(1));
        for (int i = 1; i <= 6; i++) {
            cluster.submit("b" + i, "B", 4, 1, 4);
        }
        cluster.runUntil(at(40), SECOND);

        assertThat(cluster.evictions).hasSize(6).allSatisfy(e -> {
            assertThat(e.wholeGang()).isTrue();
            assertThat(e.rule()).isEqualTo(Eviction.Rule.RECLAIM);
        });
        assertThat(cluster.evictions).extracting(e -> e.victim().name())
                .containsExactlyInAnyOrder("a3", "a4", "a5", "a6", "a7", "a8");
        assertThat(cluster.gpus("A")).isEqualTo(8);
        assertThat(cluster.gpus("B")).isEqualTo(24);

        cluster.runUntil(at(40 + 600), SECOND);
        assertThat(cluster.evictions).hasSize(6);
        assertThat(cluster.gpus("A")).isEqualTo(8);
        assertThat(cluster.gpus("B")).isEqualTo(24);
    }

    /**
     * Many small jobs, each a GPU with cpu and memory, against one node-sized GPU pod asking for little
     * cpu: A (weight 1) runs sixteen 1-GPU jobs of 3 cpu and 12 GiB on two nodes, B (weight 1) submits
     * one 8-GPU pod of half a cpu. The victims free 24 cpu and 96 GiB, far more than B takes, yet B
     * stays within its fair share (8 GPUs, half a cpu, 2 GiB): one node's worth of A's jobs is evicted,
     * B runs, and nothing moves after.
     */
    @Test
    void manySmallCpuJobsGiveWayToOneGpuHeavyPodAskingLittleCpu() {
        QueueCluster cluster = new QueueCluster(2, cpuAndMemory(64_000, 256), ResourceVector.ZERO)
                .queue(queue("A", null, 1, 0, null, DEFAULTS)).queue(queue("B", null, 1, 0, null, DEFAULTS));
        for (int i = 1; i <= 16; i++) {
            cluster.submit("a" + i, "A", 1, 1, cpuAndMemory(3_000, 12), 1, 0, null, null);
        }
        cluster.cycle();
        assertThat(cluster.gpus("A")).isEqualTo(16);

        cluster.advanceTo(at(1));
        cluster.submit("big", "B", 1, 8, cpuAndMemory(500, 2), 1, 0, null, null);
        cluster.runUntil(at(60), SECOND);

        assertThat(cluster.evictions).hasSize(8).allSatisfy(e -> {
            assertThat(e.wholeGang()).isTrue();
            assertThat(e.rule()).isEqualTo(Eviction.Rule.RECLAIM);
            assertThat(e.preemptor().name()).isEqualTo("big");
        });
        assertThat(cluster.job("big").bound).hasSize(1);
        assertThat(List.of(cluster.gpus("A"), cluster.gpus("B"))).containsExactly(8L, 8L);

        cluster.runUntil(at(60 + 600), SECOND);
        assertThat(cluster.evictions).hasSize(8);
        assertThat(List.of(cluster.gpus("A"), cluster.gpus("B"))).containsExactly(8L, 8L);
    }

    /**
     * A node-sized pod that waits only because the free GPUs are split across nodes: three nodes, A running
     * sixteen 1-GPU jobs of 4 cpu (6, 6 and 4 a node, 8 GPUs free in all), B and C each submitting an 8-GPU
     * pod of half a cpu. The GPUs are short for the three queues' demand (fair shares 8 each), the cpu is
     * not: A's cpu is not held to its fair share of cpu (its demand), so B, the older, reclaims the 4 jobs
     * of the node with 4 GPUs free and runs there.
     */
    @Test
    void aGpuPodWaitingOnSplitFreeRoomReclaimsThoughTheVictimsFreeCpuNobodyLacks() {
        QueueCluster cluster = new QueueCluster(3, cpuAndMemory(64_000, 256), ResourceVector.ZERO)
                .queue(queue("A", null, 1, 0, null, DEFAULTS)).queue(queue("B", null, 1, 0, null, DEFAULTS))
                .queue(queue("C", null, 1, 0, null, DEFAULTS));
        int[] perNode = {6, 6, 4};
        int job = 0;
        for (int node = 0; node < perNode.length; node++) {
            for (int i = 0; i < perNode[node]; i++) {
                cluster.bind(cluster.submit("a" + job++, "A", 1, 1, cpuAndMemory(4_000, 8), 1, 0, null, null),
                        "n" + (node + 1));
            }
        }
        cluster.submit("b", "B", 1, 8, cpuAndMemory(500, 2), 1, 0, null, null);
        cluster.submit("c", "C", 1, 8, cpuAndMemory(500, 2), 1, 0, null, null);
        cluster.runUntil(at(60), SECOND);

        assertThat(cluster.evictions).filteredOn(e -> e.preemptor().name().equals("b")).hasSize(4)
                .allSatisfy(e -> assertThat(e.pods()).extracting(PodPlacement::nodeName).containsOnly("n3"));
        assertThat(cluster.job("b").bound.values()).containsExactly("n3");
    }

    /**
     * A node-sized pod preempts on a node with 2 GPUs free and 6 held by a lower-priority job: its
     * placement counts on the free 2 as well as on the victims' 6. A small job arriving while the victims
     * terminate does not take the free 2 GPUs, so the preemptor binds once they are gone, and nothing is
     * evicted a second time.
     */
    @Test
    void roomFreeWhenTheVictimsWereChosenStaysPromisedWhileTheyTerminate() {
        QueueCluster cluster = new QueueCluster(1).queue(queue(QueueInfo.DEFAULT, null, 1, 0, null, DEFAULTS));
        cluster.termination = Duration.ofSeconds(5);
        cluster.bind(cluster.submit("low", QueueInfo.DEFAULT, 6, 1, 6, 0, null, null), "n1");
        cluster.submit("big", QueueInfo.DEFAULT, 1, 8, 1, 100, null, null);
        cluster.cycle();
        assertThat(cluster.evictions).extracting(e -> e.victim().name()).containsExactly("low");

        cluster.advanceTo(at(1));
        cluster.submit("small", QueueInfo.DEFAULT, 2, 1, 2, 50, null, null);
        cluster.runUntil(at(30), SECOND);

        assertThat(cluster.evictions).extracting(e -> e.victim().name()).containsExactly("low");
        assertThat(cluster.job("big").bound).hasSize(1);
        assertThat(cluster.job("small").bound).isEmpty();
    }

    /**
     * Scenario 1 with B's gangs as a Muster Job's: their pods are created only once the gang is admitted,
     * a few cycles later, and evicted pods take a while to leave. A gang admitted through its promise
     * keeps the room it was admitted to until its pods bind there: a gang of higher priority arriving
     * meanwhile does not take it, and no gang preempts twice.
     */
    @Test
    void scenario1GangsAdmittedThroughTheirPromiseKeepTheirRoom() {
        QueuePreemption noWithinQueue = new QueuePreemption(QueuePreemption.WithinQueue.NEVER, true,
                DEFAULTS.reclaimDelay());
        QueueCluster cluster = new QueueCluster(4).queue(queue("A", null, 1, 0, null, DEFAULTS))
                .queue(queue("B", null, 3, 0, null, noWithinQueue));
        cluster.termination = Duration.ofSeconds(5);
        for (int i = 1; i <= 8; i++) {
            cluster.submit("a" + i, "A", 4, 1, 4);
        }
        cluster.cycle();
        cluster.advanceTo(at(1));
        for (int i = 1; i <= 6; i++) {
            cluster.submit("b" + i, "B", 4, 1, 4).creationDelay = Duration.ofSeconds(3);
        }
        cluster.runUntil(at(36), SECOND);
        assertThat(cluster.jobs.values()).filteredOn(job -> job.admittedAt != null).isNotEmpty();
        cluster.submit("c", "B", 4, 1, 4, 5, null, null);
        cluster.runUntil(at(40 + 600), SECOND);

        assertThat(cluster.evictions).extracting(e -> e.victim().name())
                .containsExactlyInAnyOrder("a3", "a4", "a5", "a6", "a7", "a8");
        assertThat(cluster.evictions).extracting(e -> e.preemptor().name())
                .containsExactlyInAnyOrder("b1", "b2", "b3", "b4", "b5", "b6");
        for (int i = 1; i <= 6; i++) {
            assertThat(cluster.job("b" + i).bound).as("b" + i).hasSize(4);
        }
        assertThat(cluster.job("c").bound).isEmpty();
        assertThat(cluster.gpus("A")).isEqualTo(8);
        assertThat(cluster.gpus("B")).isEqualTo(24);
    }

    /**
     * Scenario 1 as the manager runs it: every gang is a Muster Job's, whose pods are created only once the
     * gang is admitted, and the evicted pods leave their nodes one by one, at random within the spread. While
     * a preemptor waits for the last of its victims, the room the first ones freed stays its own, and the
     * room freed for another preemptor on the same node stays that one's: the evicted gangs, waiting for
     * admission again, take none of it, and nothing is evicted a second time.
     */
    @ParameterizedTest(name = "termination {0} ms + up to {1} ms, pods created {2} ms after admission, cycle every {3} ms")
    @CsvSource({"1000, 3200, 600, 500", "0, 800, 0, 100", "0, 1600, 0, 200", "500, 2400, 300, 100",
            "1000, 800, 900, 200", "0, 3200, 600, 100"})
    void scenario1WithVictimsLeavingOneByOneAndEveryGangWaitingForAdmission(long termination, long spread,
                                                                            long creation, long period) {
        QueueCluster cluster = new QueueCluster(4).queue(queue("A", null, 1, 0, null, DEFAULTS))
                .queue(queue("B", null, 3, 0, null, DEFAULTS));
        cluster.termination = Duration.ofMillis(termination);
        cluster.terminationSpread = Duration.ofMillis(spread);
        for (int i = 1; i <= 8; i++) {
            cluster.submit("a" + i, "A", 4, 1, 4).creationDelay = Duration.ofMillis(creation);
        }
        cluster.runUntil(at(8), SECOND);
        assertThat(cluster.gpus("A")).isEqualTo(32);
        for (int i = 1; i <= 6; i++) {
            cluster.submit("b" + i, "B", 4, 1, 4).creationDelay = Duration.ofMillis(creation);
        }
        cluster.runUntil(at(8 + 600), Duration.ofMillis(period));

        assertThat(cluster.evictions).extracting(e -> e.victim().name())
                .containsExactlyInAnyOrder("a3", "a4", "a5", "a6", "a7", "a8");
        assertThat(cluster.evictedPods()).isEqualTo(24);
        assertThat(cluster.gpus("A")).isEqualTo(8);
        assertThat(cluster.gpus("B")).isEqualTo(24);
    }

    @Test
    void scenario2GuaranteeReclaimsFromBothQueuesDownToTheirFairShares() {
        QueueCluster cluster = new QueueCluster(5).queue(queue("prod", null, 1, 16, null, DEFAULTS))
                .queue(queue("research", null, 1, 0, null, DEFAULTS)).queue(queue("batch", null, 2, 0, null, DEFAULTS));
        cluster.submit("p0", "prod", 1, 4, 1);
        for (int i = 0; i < 10; i++) {
            cluster.submit("r" + i, "research", 1, 4, 1);
        }
        for (int i = 0; i < 10; i++) {
            cluster.submit("b" + i, "batch", 1, 4, 1);
        }
        cluster.runUntil(at(60), SECOND);
        assertThat(List.of(cluster.gpus("prod"), cluster.gpus("research"), cluster.gpus("batch")))
                .containsExactly(4L, 12L, 24L);
        assertThat(cluster.evictions).isEmpty();

        for (int i = 1; i <= 5; i++) {
            cluster.submit("p" + i, "prod", 1, 4, 1);
        }
        cluster.runUntil(at(60 + 120), SECOND);

        assertThat(List.of(cluster.gpus("prod"), cluster.gpus("research"), cluster.gpus("batch")))
                .containsExactly(16L, 8L, 16L);
        assertThat(evictedGpus(cluster, "r")).isEqualTo(4);
        assertThat(evictedGpus(cluster, "b")).isEqualTo(8);
    }

    private static long evictedGpus(QueueCluster cluster, String prefix) {
        return cluster.evictions.stream().filter(e -> e.victim().name().startsWith(prefix))
                .mapToLong(e -> e.pods().stream().mapToLong(p -> p.pod().requests().get(QueueFixtures.GPU)).sum())
                .sum();
    }

    /** Four nodes, each full with one 8×1 gang: L1, L2 (priority 100, min 8), L3 (100, min 4), L4 (50, min 8). */
    private static QueueCluster scenario3() {
        QueueCluster cluster = new QueueCluster(4).queue(queue(QueueInfo.DEFAULT, null, 1, 0, null, DEFAULTS));
        cluster.bind(cluster.submit("L1", QueueInfo.DEFAULT, 8, 1, 8, 100, null, null), "n1");
        cluster.bind(cluster.submit("L2", QueueInfo.DEFAULT, 8, 1, 8, 100, null, null), "n2");
        cluster.bind(cluster.submit("L3", QueueInfo.DEFAULT, 8, 1, 4, 100, null, null), "n3");
        cluster.bind(cluster.submit("L4", QueueInfo.DEFAULT, 8, 1, 8, 50, null, null), "n4");
        return cluster;
    }

    @Test
    void scenario3AWholeNodeGangEvictsTheLowestPriorityGangWhole() {
        QueueCluster cluster = scenario3();
        cluster.advanceTo(at(1));
        cluster.submit("H", QueueInfo.DEFAULT, 1, 8, 1, 1000, null, null);
        cluster.runUntil(at(3), SECOND);

        assertThat(cluster.evictions).singleElement().satisfies(e -> {
            assertThat(e.victim().name()).isEqualTo("L4");
            assertThat(e.wholeGang()).isTrue();
            assertThat(e.pods()).hasSize(8);
            assertThat(e.rule()).isEqualTo(Eviction.Rule.WITHIN_QUEUE);
        });
        assertThat(cluster.nodeOf("H")).isEqualTo("n4");
    }

    @Test
    void scenario3ASmallGangTakesOnlySurplusMembers() {
        QueueCluster cluster = scenario3();
        cluster.advanceTo(at(1));
        cluster.submit("H", QueueInfo.DEFAULT, 4, 1, 4, 1000, null, null);
        cluster.runUntil(at(3), SECOND);

        assertThat(cluster.evictions).singleElement().satisfies(e -> {
            assertThat(e.victim().name()).isEqualTo("L3");
            assertThat(e.wholeGang()).isFalse();
            assertThat(e.pods()).hasSize(4);
        });
        assertThat(cluster.job("L3").bound).hasSize(4);
        assertThat(cluster.job("L4").bound).hasSize(8);
        assertThat(cluster.nodeOf("H")).isEqualTo("n3");
    }

    @Test
    void scenario4SurplusMembersSplitOneNodeGangEvenly() {
        QueueCluster cluster = new QueueCluster(2).queue(queue("A", null, 1, 0, null, DEFAULTS))
                .queue(queue("B", null, 1, 0, null, DEFAULTS));
        cluster.submit("a", "A", 8, 2, 2);
        cluster.cycle();
        assertThat(cluster.gpus("A")).isEqualTo(16);
        cluster.advanceTo(at(1));
        cluster.submit("b", "B", 8, 2, 2);
        cluster.runUntil(at(600), SECOND);

        assertThat(cluster.evictedPods()).isEqualTo(4);
        assertThat(cluster.evictions).allSatisfy(e -> assertThat(e.wholeGang()).isFalse());
        assertThat(cluster.gpus("A")).isEqualTo(8);
        assertThat(cluster.gpus("B")).isEqualTo(8);
    }

    /**
     * Scenario 5: running 8-GPU jobs end at t = 60, 30, 90 and 120 on n1 to n4; queued in order BIG (2×8,
     * maxRuntime 60), then 1×8 jobs j1 (maxRuntime 20), j2 (40) and j3 (none).
     */
    private static QueueCluster scenario5() {
        QueueCluster cluster = new QueueCluster(4).queue(queue(QueueInfo.DEFAULT, null, 1, 0, null, DEFAULTS));
        long[] ends = {60, 30, 90, 120};
        for (int i = 0; i < 4; i++) {
            Duration runtime = Duration.ofSeconds(ends[i]);
            cluster.bind(cluster.submit("r" + (i + 1), QueueInfo.DEFAULT, 1, 8, 1, 0, runtime, runtime), "n" + (i + 1));
        }
        cluster.submit("BIG", QueueInfo.DEFAULT, 2, 8, 2, 0, Duration.ofSeconds(60), Duration.ofSeconds(60));
        cluster.submit("j1", QueueInfo.DEFAULT, 1, 8, 1, 0, Duration.ofSeconds(20), Duration.ofSeconds(20));
        cluster.submit("j2", QueueInfo.DEFAULT, 1, 8, 1, 0, Duration.ofSeconds(40), Duration.ofSeconds(40));
        cluster.submit("j3", QueueInfo.DEFAULT, 1, 8, 1, 0, null, Duration.ofSeconds(100));
        return cluster;
    }

    @Test
    void scenario5BackfillStartsShortJobsBeforeTheReservedBigOne() {
        QueueCluster cluster = scenario5();

        cluster.runUntil(at(59), SECOND);
        assertThat(cluster.job("j1").endedAt).isEqualTo(at(50));
        assertThat(cluster.job("j2").startedAt).isNull();
        assertThat(cluster.job("j3").startedAt).isNull();
        cluster.runUntil(at(60), SECOND);

        assertThat(cluster.job("BIG").startedAt).isEqualTo(at(60));
        assertThat(cluster.nodeOf("BIG")).isEqualTo("n1,n2");
        cluster.runUntil(at(200), SECOND);
        assertThat(cluster.evictions).isEmpty();
    }

    @Test
    void scenario5TheShortJobStartsAt30OnTheNodeThatFreedUp() {
        QueueCluster cluster = scenario5();

        cluster.runUntil(at(30), SECOND);

        assertThat(cluster.job("j1").startedAt).isEqualTo(at(30));
        assertThat(cluster.nodeOf("j1")).isEqualTo("n2");
        assertThat(cluster.job("BIG").startedAt).isNull();
        cluster.runUntil(at(200), SECOND);
        assertThat(cluster.nodeOf("j2")).isEqualTo("n3");
        assertThat(cluster.job("j2").startedAt).isEqualTo(at(90));
    }

    @Test
    void scenario6HierarchyReclaimsWithinTheOrgAndLeavesTheOtherOrgAlone() {
        List<QueueInfo> queues = List.of(queue("orgA", null, 1, 0, 24L, DEFAULTS),
                queue("A1", "orgA", 1, 0, null, DEFAULTS), queue("A2", "orgA", 3, 0, null, DEFAULTS),
                queue("orgB", null, 1, 0, null, DEFAULTS));
        QueueCluster all = cluster(queues);
        submit(all, "A1", 16);
        submit(all, "A2", 16);
        submit(all, "orgB", 16);
        all.runUntil(at(60), SECOND);
        assertThat(List.of(all.gpus("A1"), all.gpus("A2"), all.gpus("orgB"))).containsExactly(4L, 12L, 16L);

        QueueCluster smallB = cluster(queues);
        submit(smallB, "A1", 16);
        submit(smallB, "A2", 16);
        submit(smallB, "orgB", 2);
        smallB.runUntil(at(60), SECOND);
        assertThat(List.of(smallB.gpus("A1"), smallB.gpus("A2"), smallB.gpus("orgB"))).containsExactly(6L, 18L, 4L);
        assertThat(smallB.lastPlan.holds()).anySatisfy(hold -> {
            assertThat(hold.reason()).isEqualTo(QueueHold.Reason.QUEUE_LIMIT);
            assertThat(hold.message()).contains("orgA", "nvidia.com/gpu", "24");
        });

        QueueCluster reclaim = cluster(queues);
        submit(reclaim, "A1", 8);
        submit(reclaim, "orgB", 8);
        reclaim.cycle();
        assertThat(List.of(reclaim.gpus("A1"), reclaim.gpus("orgB"))).containsExactly(16L, 16L);
        reclaim.advanceTo(at(1));
        submit(reclaim, "A2", 6);
        reclaim.runUntil(at(120), SECOND);

        assertThat(List.of(reclaim.gpus("A1"), reclaim.gpus("A2"), reclaim.gpus("orgB"))).containsExactly(4L, 12L, 16L);
        assertThat(reclaim.evictions).hasSize(6).allSatisfy(e -> assertThat(e.victim().name()).startsWith("A1"));
    }

    private static QueueCluster cluster(List<QueueInfo> queues) {
        QueueCluster cluster = new QueueCluster(4);
        queues.forEach(cluster::queue);
        return cluster;
    }

    /** Jobs of 1×2 GPUs. */
    private static void submit(QueueCluster cluster, String queue, int jobs) {
        for (int i = 0; i < jobs; i++) {
            cluster.submit(queue + "-" + cluster.jobs.size(), queue, 1, 2, 1);
        }
    }

    /** 32 GPUs: prod (guarantee 16) uses 16; research runs two 8-GPU gangs at priority 100. */
    private static QueueCluster scenario7(QueuePreemption research) {
        QueueCluster cluster = new QueueCluster(4).queue(queue("prod", null, 1, 16, null, DEFAULTS))
                .queue(queue("research", null, 1, 0, null, research));
        cluster.submit("p1", "prod", 1, 8, 1);
        cluster.submit("p2", "prod", 1, 8, 1);
        cluster.submit("r1", "research", 1, 8, 1, 100, null, null);
        cluster.submit("r2", "research", 1, 8, 1, 100, null, null);
        cluster.cycle();
        cluster.advanceTo(at(1));
        cluster.submit("h", "research", 1, 8, 1, 1000, null, null);
        return cluster;
    }

    @Test
    void scenario7APriorityGangEvictsItsOwnQueuesNewestGangAndNotTheGuaranteedQueue() {
        QueueCluster cluster = scenario7(DEFAULTS);
        cluster.runUntil(at(120), SECOND);

        assertThat(cluster.evictions).singleElement().satisfies(e -> {
            assertThat(e.victim().name()).isEqualTo("r2");
            assertThat(e.rule()).isEqualTo(Eviction.Rule.WITHIN_QUEUE);
        });
        assertThat(cluster.gpus("prod")).isEqualTo(16);
        assertThat(cluster.job("h").startedAt).isNotNull();
    }

    @Test
    void scenario7WithoutPreemptionWithinTheQueueNothingIsEvicted() {
        QueueCluster cluster = scenario7(new QueuePreemption(QueuePreemption.WithinQueue.NEVER, true, null));
        cluster.runUntil(at(120), SECOND);

        assertThat(cluster.evictions).isEmpty();
        assertThat(cluster.gpus("prod")).isEqualTo(16);
        assertThat(cluster.job("h").startedAt).isNull();
    }
}
