package dev.muster.simulator;

import org.junit.jupiter.api.Test;

import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Small traces whose outcome is worked out by hand, on two nodes of 8 GPUs. Times are seconds from the
 * first submission.
 */
class SimulationTest {
    private static final Instant T0 = Instant.parse("2017-10-01T00:00:00Z");

    /**
     * Job 1 takes one node for 100 s; job 2, a gang of two 8-GPU pods, needs both nodes; job 3 needs one node
     * for 30 s and comes after job 2.
     */
    private static final List<TraceJob> HEAD_BLOCKS = List.of(
            job(1, 0, 100, 8, "a"),
            job(2, 10, 50, 16, "a"),
            job(3, 20, 30, 8, "b"));

    @Test
    void strictFifoHoldsTheSmallJobBehindTheBigOne() {
        SimResult result = run(HEAD_BLOCKS, "fifo", false);

        // Job 2 starts when job 1 ends (100) and job 3 only after job 2 (150), though a node was free from 20.
        assertThat(waits(result)).isEqualTo(Map.of(1L, 0.0, 2L, 90.0, 3L, 130.0));
        assertThat(jcts(result)).isEqualTo(Map.of(1L, 100.0, 2L, 140.0, 3L, 160.0));
        assertThat(result.makespanSeconds()).isEqualTo(180.0);
        assertThat(result.partialGpuMs()).isZero();
    }

    @Test
    void musterRunsTheSmallJobOnTheFreeNodeWithoutDelayingTheBigOne() {
        SimResult result = run(HEAD_BLOCKS, "muster", false);

        // Job 2 failed at 10, so job 3, which has not failed, is tried first at 20 and fits.
        assertThat(waits(result)).isEqualTo(Map.of(1L, 0.0, 2L, 90.0, 3L, 0.0));
        assertThat(jcts(result)).isEqualTo(Map.of(1L, 100.0, 2L, 140.0, 3L, 30.0));
        assertThat(result.makespanSeconds()).isEqualTo(150.0);
        assertThat(result.partialGpuMs()).isZero();
    }

    @Test
    void greedyHoldsHalfOfTheGangIdleAndBlocksTheSmallJob() {
        SimResult result = run(HEAD_BLOCKS, "greedy", false);

        // Job 2's first pod takes the free node at 10 and holds its 8 GPUs idle until its second pod fits at
        // 100; job 3 gets a node only when job 2 ends.
        assertThat(waits(result)).isEqualTo(Map.of(1L, 0.0, 2L, 90.0, 3L, 130.0));
        assertThat(jcts(result)).isEqualTo(Map.of(1L, 100.0, 2L, 140.0, 3L, 160.0));
        assertThat(result.partialGpuMs()).isEqualTo(8 * 90_000L);
        assertThat(result.utilisation()).isEqualTo((8 * 100 + 16 * 50 + 8 * 30) / (16.0 * 180));
    }

    @Test
    void aPartitionedClusterBlocksOnlyTheHeadsOwnVirtualCluster() {
        // Each VC has one node: VC a's job 2 needs 16 GPUs and can never start; VC b's job 3 is not held by it.
        SimCluster cluster = SimCluster.fromVcCsv("vc.csv", new java.io.BufferedReader(
                new java.io.StringReader("vc,node num\na,1\nb,1\n")));
        SimInput input = SimInput.of(HEAD_BLOCKS, cluster, false, true);
        SimResult result = new Simulation(input, PolicySpec.parse("fifo"), () -> false).run();

        assertThat(waits(result)).isEqualTo(Map.of(1L, 0.0, 3L, 0.0));
        assertThat(result.neverStarted()).isEqualTo(1);
        assertThat(result.averageWait("b")).isEqualTo(0.0);
    }

    @Test
    void oneGpuPodsSpreadABigJobOverBothNodes() {
        // 12 one-GPU pods: 8 on one node and 4 on the other, so the 4-GPU job fits beside them at once.
        List<TraceJob> jobs = List.of(job(1, 0, 100, 12, "a"), job(2, 5, 10, 4, "a"));
        SimResult result = run(jobs, "fifo", true);

        assertThat(waits(result)).isEqualTo(Map.of(1L, 0.0, 2L, 0.0));
        assertThat(jcts(result)).isEqualTo(Map.of(1L, 100.0, 2L, 10.0));
    }

    @Test
    void aGangThatNeverFitsEndsTheRunThoughItsBackoffKeepsRunningOut() {
        // 24 GPUs on 16: tried, backed off for 30 s, tried again, ... until the quiet window shows it never fits.
        List<TraceJob> jobs = List.of(job(1, 0, 100, 24, "a"), job(2, 10, 50, 8, "a"));
        SimResult result = run(jobs, "muster:podGroupBackoff=30s", false);

        assertThat(result.neverStarted()).isEqualTo(1);
        assertThat(jcts(result)).isEqualTo(Map.of(2L, 50.0));
        assertThat(result.makespanSeconds()).isEqualTo(60.0);
    }

    @Test
    void aStopEndsTheRunWithAPartialResult() {
        SimResult result = new Simulation(SimInput.of(HEAD_BLOCKS, SimCluster.grid(2, 8), false, false),
                PolicySpec.parse("muster"), () -> true).run();

        assertThat(result.stopped()).isTrue();
        assertThat(result.outcomes()).isEmpty();
    }

    static SimResult run(List<TraceJob> jobs, String policy, boolean oneGpuPods) {
        SimInput input = SimInput.of(jobs, SimCluster.grid(2, 8), oneGpuPods, false);
        return new Simulation(input, PolicySpec.parse(policy), () -> false).run();
    }

    static TraceJob job(long id, long submitSecond, long duration, int gpus, String vc) {
        return new TraceJob(id, T0.plusSeconds(submitSecond), duration, gpus, vc);
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
