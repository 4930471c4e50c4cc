package dev.muster.simulator;

import dev.muster.scheduler.core.model.QueueInfo;
import dev.muster.scheduler.core.model.QueuePreemption;
import dev.muster.scheduler.core.model.ResourceVector;
import org.junit.jupiter.api.Test;

import java.io.BufferedReader;
import java.io.StringReader;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

import static dev.muster.simulator.SimulationTest.job;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * Teams (virtual clusters) as Muster Queues, against the static partition and one shared pool: two teams of
 * one 8-GPU node each, worked out by hand. Times are seconds from the first submission.
 */
class TeamQueuesTest {
    private static final SimCluster TWO_TEAMS = SimCluster.fromVcCsv("vc.csv",
            new BufferedReader(new StringReader("vc,node num\na,1\nb,1\n")));

    /** Team a submits two jobs of a node each; team b submits nothing. */
    private static final List<TraceJob> B_IDLE = List.of(job(1, 0, 100, 8, "a"), job(2, 0, 100, 8, "a"));

    /** As {@link #B_IDLE}, with long jobs, and team b wants its node at 10 s for 50 s. */
    private static final List<TraceJob> B_COMES_BACK = List.of(
            job(1, 0, 1000, 8, "a"), job(2, 0, 1000, 8, "a"), job(3, 10, 50, 8, "b"));

    @Test
    void withQueuesTheBusyTeamBorrowsTheIdleTeamsNode() {
        SimResult queues = run(B_IDLE, "muster:vcs=queues");

        assertThat(waits(queues)).isEqualTo(Map.of(1L, 0.0, 2L, 0.0));
        assertThat(queues.evictions()).isZero();
        assertThat(queues.gpuShare("a")).isEqualTo(1.0);
    }

    @Test
    void partitionedTheBusyTeamCannotUseTheIdleTeamsNode() {
        SimResult partitioned = run(B_IDLE, "muster:vcs=partition");

        assertThat(waits(partitioned)).isEqualTo(Map.of(1L, 0.0, 2L, 100.0));
        assertThat(partitioned.makespanSeconds()).isEqualTo(200.0);
    }

    @Test
    void withReclaimTheIdleTeamGetsItsGuaranteeBackWhenItSubmits() {
        SimResult queues = run(B_COMES_BACK, "muster:vcs=queues");

        // Job 3 finds no room at 10; after its queue's reclaim delay (30 s) it evicts one of team a's jobs,
        // which is gone by the next tick, 41, when job 3 starts. The evicted job restarts from scratch when
        // job 3 ends (91): team a is at its guarantee with one node and cannot take the node back sooner.
        assertThat(waits(queues)).containsEntry(3L, 31.0);
        assertThat(jcts(queues)).containsEntry(3L, 81.0);
        assertThat(queues.evictions()).isEqualTo(1);
        assertThat(queues.lostGpuMs()).isEqualTo(8 * 40_000L);
        assertThat(waits(queues).entrySet().stream().filter(e -> e.getKey() != 3).map(Map.Entry::getValue))
                .containsExactlyInAnyOrder(0.0, 91.0);
        assertThat(jcts(queues).entrySet().stream().filter(e -> e.getKey() != 3).map(Map.Entry::getValue))
                .containsExactlyInAnyOrder(1000.0, 1091.0);

        SimResult partitioned = run(B_COMES_BACK, "muster:vcs=partition");
        assertThat(waits(partitioned)).isEqualTo(Map.of(1L, 0.0, 2L, 1000.0, 3L, 0.0));
        assertThat(partitioned.evictions()).isZero();

        // One shared pool with no queues: job 3 waits for a node to free up, nobody is evicted.
        SimResult shared = run(B_COMES_BACK, "muster:vcs=shared");
        assertThat(waits(shared)).isEqualTo(Map.of(1L, 0.0, 2L, 0.0, 3L, 990.0));
        assertThat(shared.evictions()).isZero();
    }

    @Test
    void aShorterReclaimDelayGivesTheGuaranteeBackSooner() {
        SimResult queues = run(B_COMES_BACK, "muster:vcs=queues,reclaimDelay=5s");

        // Job 3 fails at 10, reclaims at 15 and starts at 16; the evicted job restarts when it ends, at 66.
        assertThat(waits(queues)).containsEntry(3L, 6.0);
        assertThat(waits(queues).values()).containsExactlyInAnyOrder(0.0, 66.0, 6.0);
        assertThat(queues.lostGpuMs()).isEqualTo(8 * 15_000L);
    }

    @Test
    void theTeamsQueuesAreGuaranteedTheirNodesAndATraceWithoutTeamsHasOnlyTheDefaultQueue() {
        SimInput input = SimInput.of(B_COMES_BACK, TWO_TEAMS, false, false);
        ResourceVector oneNode = ResourceVector.builder().cpuMillis(64_000).memoryBytes(512L << 30)
                .set(CoreRecords.GPU, 8).build();

        assertThat(CoreRecords.queues(input, PolicySpec.Teams.QUEUES, null)).containsExactly(
                QueueInfo.of(QueueInfo.DEFAULT, 1),
                new QueueInfo("vc-a", null, 1, oneNode, null, QueuePreemption.DEFAULTS, true),
                new QueueInfo("vc-b", null, 1, oneNode, null, QueuePreemption.DEFAULTS, true));
        assertThat(CoreRecords.queues(input, PolicySpec.Teams.PARTITION, null)).containsExactly(QueueInfo.of(QueueInfo.DEFAULT, 1));
        assertThat(CoreRecords.queueOf(job(4, 0, 1, 1, ""), PolicySpec.Teams.QUEUES)).isEqualTo(QueueInfo.DEFAULT);
        assertThat(CoreRecords.queueOf(job(4, 0, 1, 1, "b"), PolicySpec.Teams.QUEUES)).isEqualTo("vc-b");
        assertThat(CoreRecords.queueOf(job(4, 0, 1, 1, "b"), PolicySpec.Teams.SHARED)).isEqualTo(QueueInfo.DEFAULT);
    }

    @Test
    void theReportGivesEachTeamsCompletionTimeAndWaitPerPolicy() {
        SimInput input = SimInput.of(B_COMES_BACK, TWO_TEAMS, false, false);
        Report report = new Report(input, List.of(run(B_COMES_BACK, "muster:vcs=partition"),
                run(B_COMES_BACK, "muster:vcs=queues")));

        // Team a: JCT (1000 + 2000) / 2 and (1000 + 1091) / 2, waits (0 + 1000) / 2 and (0 + 91) / 2; its GPU
        // time 16,000 GPU-s partitioned, 16,320 with queues (the evicted run's 320 included), against team b's 400.
        assertThat(report.perVc().markdown()).contains(
                "| a | 2 | 50.0% | 1,500 | 500 | 97.6% | 1,046 | 46 | 97.6% |",
                "| b | 1 | 50.0% | 50 | 0 | 2.4% | 81 | 31 | 2.4% |");
        assertThat(report.summary().markdown().lines().filter(line -> line.startsWith("| muster:vcs=queues | 3/3 |")))
                .singleElement().satisfies(line -> assertThat(line).endsWith("| 0 | 1 | 0 |"));
    }

    private static SimResult run(List<TraceJob> jobs, String policy) {
        return new Simulation(SimInput.of(jobs, TWO_TEAMS, false, false), PolicySpec.parse(policy), () -> false).run();
    }

    private static Map<Long, Double> waits(SimResult result) {
        return result.outcomes().stream()
                .collect(Collectors.toMap(o -> o.job().id(), SimResult.JobOutcome::waitSeconds));
    }

    private static Map<Long, Double> jcts(SimResult result) {
        return result.finished().stream()
                .collect(Collectors.toMap(o -> o.job().id(), SimResult.JobOutcome::jctSeconds));
    }
}
