package dev.muster.simulator;

import dev.muster.scheduler.core.cluster.ClusterState;
import dev.muster.scheduler.core.model.GroupKey;
import dev.muster.scheduler.core.model.NodeInfo;
import dev.muster.scheduler.core.model.PodInfo;
import dev.muster.scheduler.core.model.QueueInfo;
import dev.muster.scheduler.core.model.RunningGang;
import dev.muster.scheduler.core.placement.PodPlacement;
import dev.muster.scheduler.core.preemption.Eviction;

import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.PriorityQueue;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.BooleanSupplier;

/**
 * One policy's replay of a trace in virtual time: a discrete-event loop over job arrivals, job completions
 * and the queue's timers. At each event time, after the completions and arrivals of that instant, one
 * scheduling cycle runs on a snapshot of {@link ClusterState}, as the live scheduler's cycle does on its
 * cache's, and the pods it places are counted on their nodes until their job finishes or is evicted. An
 * evicted job's pods leave their nodes at once (no grace period) and the job waits again from scratch, in its
 * queue's place by its submission; its work so far is lost. Between events nothing changes, so no cycle
 * runs, except when a timer of the cycle runs out (a backoff, a reservation, a reclaim delay, or the tick
 * after evictions), which can change the outcome: a cycle runs then, at the first tick of the cycle period
 * from the epoch, as the live scheduler's periodic cycle would notice it. Deterministic: nothing depends on
 * wall time or hashing order.
 */
public final class Simulation {
    private static final Comparator<SimJob> BY_END = Comparator
            .comparingLong((SimJob job) -> job.start + job.job.duration() * 1000)
            .thenComparingLong(job -> job.job.id());

    private final SimInput input;
    private final PolicySpec spec;
    private final PolicySpec.Teams teams;
    private final Policy policy;
    private final BooleanSupplier stop;
    private final ClusterState state = new ClusterState();
    /** Jobs waiting for (the rest of) their pods, in submission order. */
    private final Set<SimJob> waiting = new LinkedHashSet<>();
    /** Running jobs by when they finish. */
    private final PriorityQueue<SimJob> running = new PriorityQueue<>(BY_END);
    /** The running jobs' gangs, as the scheduler cache hands them to the cycle; greedy's pods are in none. */
    private final Map<GroupKey, RunningGang> runningGangs = new HashMap<>();
    /** The running jobs by their gang, to find the job of an eviction. */
    private final Map<GroupKey, SimJob> runningJobs = new HashMap<>();
    /** Waiting jobs by pod name, to find the job of each placement. */
    private final Map<String, SimJob> byPod = new HashMap<>();
    /** When the queue's timers run out, epoch milliseconds. */
    private final TreeSet<Long> timers = new TreeSet<>();
    /**
     * With nothing running and nothing to come, how long cycles may place nothing before the run ends: long
     * enough for any backoff to end and a reservation to be held, released and barred.
     */
    private final long quietWindow;
    /** When a job last arrived, started or finished. */
    private long lastProgress;
    /** When the last job finished. */
    private long lastFinish;
    private final List<SimResult.JobOutcome> outcomes = new ArrayList<>();
    private final long sampleMs;
    private final long[] vcRunning;
    private final long[] vcGpuMs;
    private final List<SimResult.Sample> samples = new ArrayList<>();
    private long runningGpus;
    private long heldGpus;
    private long runningGpuMs;
    private long partialGpuMs;
    private long evictions;
    private long lostGpuMs;
    private long cycles;
    private long nextSample;
    private long now;
    private volatile long reached;
    private volatile int done;

    /**
     * A run of one policy.
     *
     * @param stop checked between events: once it holds, the run ends with what it has (a partial result)
     */
    public Simulation(SimInput input, PolicySpec spec, BooleanSupplier stop) {
        this.input = input;
        this.spec = spec;
        this.teams = input.teams(spec);
        List<QueueInfo> queues = CoreRecords.queues(input, teams, spec.reclaimDelay());
        this.policy = Policy.of(spec, queues);
        this.stop = stop;
        this.sampleMs = input.samplePeriod().toMillis();
        long longestReclaimDelay = queues.stream().mapToLong(queue -> queue.preemption().reclaimDelay().toMillis())
                .max().orElse(0);
        this.quietWindow = spec.args().podGroupBackoff().plus(spec.args().permitWaitingTime().multipliedBy(2))
                .plus(spec.cyclePeriod()).toMillis() + longestReclaimDelay;
        this.vcRunning = new long[input.vcs().size()];
        this.vcGpuMs = new long[input.vcs().size()];
        for (NodeInfo node : input.cluster().nodes()) {
            state.putNode(node);
        }
    }

    /** Virtual time reached so far, epoch milliseconds; for progress reports from other threads. */
    public long reached() {
        return reached;
    }

    /** Jobs finished so far; for progress reports from other threads. */
    public int done() {
        return done;
    }

    /** Replays the trace to the last completion, or until stopped. */
    public SimResult run() {
        List<TraceJob> jobs = input.jobs();
        long first = jobs.get(0).submit().toEpochMilli();
        now = first;
        nextSample = first;
        int arrived = 0;
        boolean stopped = false;
        while (true) {
            long nextArrival = arrived < jobs.size() ? jobs.get(arrived).submit().toEpochMilli() : Long.MAX_VALUE;
            long nextEnd = running.isEmpty() ? Long.MAX_VALUE : end(running.peek());
            long next = Math.min(nextArrival, Math.min(nextEnd, timers.isEmpty() ? Long.MAX_VALUE : timers.first()));
            if (next == Long.MAX_VALUE) {
                break;
            }
            if (stop.getAsBoolean()) {
                stopped = true;
                break;
            }
            advance(next);
            timers.headSet(now, true).clear();
            boolean completed = false;
            while (!running.isEmpty() && end(running.peek()) == now) {
                finish(running.poll());
                completed = true;
            }
            int arrivedBefore = arrived;
            while (arrived < jobs.size() && jobs.get(arrived).submit().toEpochMilli() == now) {
                arrive(jobs.get(arrived++));
            }
            boolean progress = completed || arrived > arrivedBefore;
            if (!waiting.isEmpty()) {
                progress |= cycle();
            }
            if (progress) {
                lastProgress = now;
            } else if (running.isEmpty() && arrived == jobs.size() && now - lastProgress >= quietWindow) {
                // Nothing runs and nothing is to come: the jobs left did not fit the idle cluster through every
                // backoff and reservation, and never will. Their timers would only repeat the same cycle.
                timers.clear();
            }
            reached = now;
        }
        // Jobs still running at a stop are reported as started but not finished.
        List<SimJob> stillRunning = new ArrayList<>(running);
        stillRunning.sort(Comparator.comparingLong((SimJob job) -> job.start).thenComparingLong(job -> job.job.id()));
        stillRunning.forEach(job -> outcomes.add(new SimResult.JobOutcome(job.job, job.start, -1, List.of(job.nodeOf))));
        // The makespan ends with the last completion, not with the cycles that found nothing left to place.
        long end = stopped ? now : Math.max(first, lastFinish);
        advance(Math.max(now, end));
        return new SimResult(spec.label(), input, outcomes, waiting.size(), first, end, stopped,
                runningGpuMs, partialGpuMs, vcGpuMs.clone(), evictions, lostGpuMs, cycles, samples);
    }

    /** Moves virtual time on to {@code next}, accounting for the time between and sampling it. */
    private void advance(long next) {
        long span = next - now;
        runningGpuMs += runningGpus * span;
        partialGpuMs += heldGpus * span;
        for (int vc = 0; vc < vcRunning.length; vc++) {
            vcGpuMs[vc] += vcRunning[vc] * span;
        }
        for (; nextSample < next; nextSample += sampleMs) {
            samples.add(new SimResult.Sample(runningGpus, heldGpus, waiting.size(), vcRunning.clone()));
        }
        now = next;
    }

    private void arrive(TraceJob job) {
        List<PodInfo> pods = CoreRecords.pods(job, CoreRecords.podGpus(job.gpus(), input.gpusPerPod()), policy.perPod(),
                SimInput.nodeSelector(job, teams));
        SimJob sim = new SimJob(job, input.vcIndex(job.vc()), pods, policy.perPod(), CoreRecords.queueOf(job, teams));
        waiting.add(sim);
        pods.forEach(pod -> byPod.put(pod.name(), sim));
    }

    /**
     * One scheduling cycle; notes the times the queue's timers call for another with no event.
     *
     * @return whether it placed or evicted any pod
     */
    private boolean cycle() {
        cycles++;
        Policy.Cycle result = policy.cycle(state.snapshot(), waiting, runningGangs, Instant.ofEpochMilli(now));
        for (Eviction eviction : result.evictions()) {
            evict(eviction);
        }
        for (PodPlacement placement : result.placements()) {
            SimJob job = byPod.get(placement.pod().name());
            int pod = job.indexOf(placement.pod());
            job.nodeOf[pod] = placement.nodeName();
            job.placed++;
            state.occupy(placement.nodeName(), placement.pod());
            heldGpus += CoreRecords.gpus(placement.pod());
            if (job.placed == job.pods.size()) {
                start(job);
            }
        }
        // The live scheduler notices a timer at its next periodic cycle: the next tick of the cycle period.
        long period = spec.cyclePeriod().toMillis();
        result.wakeUps().forEach(time -> timers.add(-Math.floorDiv(-time.toEpochMilli(), period) * period));
        return !result.placements().isEmpty() || !result.evictions().isEmpty();
    }

    private void start(SimJob job) {
        job.start = now;
        waiting.remove(job);
        job.pods.forEach(pod -> byPod.remove(pod.name()));
        heldGpus -= job.gpus;
        runningGpus += job.gpus;
        vcRunning[job.vc] += job.gpus;
        running.add(job);
        if (!policy.perPod()) {
            GroupKey key = job.gang.gang().key();
            runningGangs.put(key, new RunningGang(job.gang.gang(), Instant.ofEpochMilli(now), job.evictions));
            runningJobs.put(key, job);
        }
    }

    /**
     * Evicts a running job whole: its pods leave their nodes now, and it waits again for all of them, from
     * scratch. A simulated gang's minMember is all its pods, so the cycle never evicts only some of them.
     */
    private void evict(Eviction eviction) {
        SimJob job = runningJobs.get(eviction.victim());
        if (job == null || !eviction.wholeGang()) {
            throw new IllegalStateException("cannot evict " + eviction.victim() + (job == null ? ": not running"
                    : ": only some of its pods, yet its minMember is all of them") + "; " + eviction.message());
        }
        running.remove(job);
        stop(job);
        evictions++;
        lostGpuMs += job.gpus * (now - job.start);
        job.evictions++;
        job.start = -1;
        job.placed = 0;
        Arrays.fill(job.nodeOf, null);
        waiting.add(job);
        job.pods.forEach(pod -> byPod.put(pod.name(), job));
    }

    private void finish(SimJob job) {
        stop(job);
        outcomes.add(new SimResult.JobOutcome(job.job, job.start, now, List.of(job.nodeOf)));
        lastFinish = now;
        done++;
    }

    /** Takes a running job's pods off their nodes and out of the running totals. */
    private void stop(SimJob job) {
        for (int i = 0; i < job.pods.size(); i++) {
            state.release(job.nodeOf[i], job.pods.get(i));
        }
        runningGpus -= job.gpus;
        vcRunning[job.vc] -= job.gpus;
        GroupKey key = job.gang.gang().key();
        runningGangs.remove(key);
        runningJobs.remove(key);
    }

    private static long end(SimJob job) {
        return job.start + job.job.duration() * 1000;
    }
}
