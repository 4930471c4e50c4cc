package dev.muster.simulator;

import java.util.List;

/**
 * What one policy's run produced.
 *
 * @param policy        the policy as given
 * @param input         what was replayed
 * @param outcomes      jobs that started, in the order they finished or, for those still running at the end,
 *                      started
 * @param neverStarted  jobs still waiting at the end
 * @param firstSubmit   the first submission, epoch milliseconds
 * @param end           virtual time reached: the last completion, or where the run was stopped
 * @param stopped       whether the run was stopped before every job finished (a partial result)
 * @param runningGpuMs  GPU time of running jobs, GPU-milliseconds
 * @param partialGpuMs  GPU time held by placed pods of jobs whose other pods were not yet placed
 * @param vcGpuMs       per virtual cluster, GPU time of its running jobs
 * @param evictions     how many times a running job was evicted (preempted) and went back to waiting
 * @param lostGpuMs     GPU time of evicted runs: work done and thrown away, GPU-milliseconds
 * @param cycles        scheduling cycles run
 * @param samples       the time series the charts plot: one sample every {@link SimInput#samplePeriod()} from
 *                      the first submission
 */
public record SimResult(String policy, SimInput input, List<JobOutcome> outcomes, int neverStarted, long firstSubmit,
                        long end, boolean stopped, long runningGpuMs, long partialGpuMs, long[] vcGpuMs,
                        long evictions, long lostGpuMs, long cycles, List<Sample> samples) {

    public SimResult {
        outcomes = List.copyOf(outcomes);
        samples = List.copyOf(samples);
    }

    /**
     * One job that started.
     *
     * @param job    the job
     * @param start  when its last pod was placed, epoch milliseconds
     * @param finish when it finished, epoch milliseconds; -1 if it had not when the run ended
     * @param nodes  per pod, the node it ran on
     */
    public record JobOutcome(TraceJob job, long start, long finish, List<String> nodes) {
        public JobOutcome {
            nodes = List.copyOf(nodes);
        }

        /** Seconds from submission to start. */
        public double waitSeconds() {
            return (start - job.submit().toEpochMilli()) / 1000.0;
        }

        /** Seconds from submission to completion (job completion time). */
        public double jctSeconds() {
            return (finish - job.submit().toEpochMilli()) / 1000.0;
        }

        /** Whether it finished. */
        public boolean finished() {
            return finish >= 0;
        }
    }

    /**
     * The state of the run at one time.
     *
     * @param runningGpus GPUs of running jobs
     * @param heldGpus    GPUs held by placed pods of jobs not yet running
     * @param queue       jobs waiting for all their pods to be placed
     * @param vcGpus      per virtual cluster, GPUs of its running jobs
     */
    public record Sample(long runningGpus, long heldGpus, int queue, long[] vcGpus) {
    }

    /** Jobs that finished. */
    public List<JobOutcome> finished() {
        return outcomes.stream().filter(JobOutcome::finished).toList();
    }

    /** Waits of all jobs that started, in seconds. */
    public double[] waits() {
        return outcomes.stream().mapToDouble(JobOutcome::waitSeconds).toArray();
    }

    /** Completion times of the jobs that finished, in seconds. */
    public double[] jcts() {
        return finished().stream().mapToDouble(JobOutcome::jctSeconds).toArray();
    }

    /** From the first submission to {@link #end()}, in seconds. */
    public double makespanSeconds() {
        return (end - firstSubmit) / 1000.0;
    }

    /** Running jobs' GPU time over the cluster's GPU time during the makespan, 0 to 1. */
    public double utilisation() {
        long span = end - firstSubmit;
        return span <= 0 ? 0 : runningGpuMs / ((double) input.cluster().totalGpus() * span);
    }

    /** Average wait of the virtual cluster's jobs that started, in seconds; NaN if none did. */
    public double averageWait(String vc) {
        return outcomes.stream().filter(o -> o.job().vc().equals(vc)).mapToDouble(JobOutcome::waitSeconds)
                .average().orElse(Double.NaN);
    }

    /** Average completion time of the virtual cluster's jobs that finished, in seconds; NaN if none did. */
    public double averageJct(String vc) {
        return finished().stream().filter(o -> o.job().vc().equals(vc)).mapToDouble(JobOutcome::jctSeconds)
                .average().orElse(Double.NaN);
    }

    /** The virtual cluster's share of running jobs' GPU time, 0 to 1. */
    public double gpuShare(String vc) {
        int index = input.vcIndex(vc);
        return runningGpuMs == 0 || index < 0 ? 0 : vcGpuMs[index] / (double) runningGpuMs;
    }
}
