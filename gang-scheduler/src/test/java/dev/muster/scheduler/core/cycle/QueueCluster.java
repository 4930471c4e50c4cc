package dev.muster.scheduler.core.cycle;

import dev.muster.scheduler.core.QueueFixtures;
import dev.muster.scheduler.core.cluster.ClusterState;
import dev.muster.scheduler.core.model.GangInfo;
import dev.muster.scheduler.core.model.GroupKey;
import dev.muster.scheduler.core.model.PendingGang;
import dev.muster.scheduler.core.model.PodInfo;
import dev.muster.scheduler.core.model.QueueInfo;
import dev.muster.scheduler.core.model.ResourceVector;
import dev.muster.scheduler.core.model.RunningGang;
import dev.muster.scheduler.core.placement.GangPlacement;
import dev.muster.scheduler.core.placement.PodPlacement;
import dev.muster.scheduler.core.preemption.Eviction;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;

import static dev.muster.scheduler.core.QueueFixtures.T0;

/**
 * A small cluster in virtual time for queue scenarios: jobs of GPU pods, a fake clock, cycles of a
 * {@link QueuePlanner} whose placements are bound and whose evictions are carried out (the pods leave
 * their nodes after a termination delay; a gang evicted whole goes back to pending with its pods
 * recreated, surplus members are recreated as pending pods of their gang), and jobs that end after their
 * runtime.
 */
final class QueueCluster {
    final ClusterState state = new ClusterState();
    final QueuePlanner planner;
    final List<QueueInfo> queues = new ArrayList<>();
    final Map<GroupKey, Job> jobs = new LinkedHashMap<>();
    /** Every eviction made, in order. */
    final List<Eviction> evictions = new ArrayList<>();
    /** How long an evicted pod takes to leave its node. */
    Duration termination = Duration.ZERO;
    /**
     * Up to how much later than {@link #termination} each evicted pod leaves its node, drawn at random
     * (seeded): kubelets stop pods one by one, so the victims' room is freed piece by piece.
     */
    Duration terminationSpread = Duration.ZERO;
    private final Random spread = new Random(14);
    Instant now = T0;
    CyclePlan lastPlan;
    private final List<Terminating> terminating = new ArrayList<>();
    private int podGeneration;

    /** What every pod requests besides its GPUs. */
    private final ResourceVector podExtra;

    /**
     * Nodes of 8 GPUs with {@code nodeExtra} allocatable besides, and pods requesting {@code podExtra}
     * besides their GPUs.
     */
    QueueCluster(int nodes, ResourceVector nodeExtra, ResourceVector podExtra) {
        for (int i = 1; i <= nodes; i++) {
            state.putNode(QueueFixtures.gpuNode("n" + i, nodeExtra));
        }
        this.podExtra = podExtra;
        planner = new QueuePlanner(CoschedulingArgs.defaults());
    }

    QueueCluster(int nodes) {
        this(nodes, ResourceVector.ZERO, ResourceVector.ZERO);
    }

    /** A job of n pods of k GPUs, minMember min. */
    final class Job {
        final GangInfo gang;
        /** Its pods not bound, in creation order. */
        final List<PodInfo> pending = new ArrayList<>();
        /** Its bound pods and their nodes. */
        final Map<PodInfo, String> bound = new LinkedHashMap<>();
        /** How long it runs once started; {@code null}: until the test ends. */
        final Duration runtime;
        final long gpusEach;
        /** What each of its pods requests besides its GPUs. */
        final ResourceVector extra;
        Instant startedAt;
        /**
         * For a job whose pods are created only once its gang is admitted (a Muster Job's), how long after
         * the admission they are; {@code null}: its pods exist from the start.
         */
        Duration creationDelay;
        /** When its gang was admitted (its first admission), for a job whose pods wait for it. */
        Instant admittedAt;
        /** When it ended; its pods left their nodes then, and {@link #bound} says where they ran. */
        Instant endedAt;
        int evicted;

        Job(GangInfo gang, int pods, long gpusEach, ResourceVector extra, Duration runtime) {
            this.gang = gang;
            this.gpusEach = gpusEach;
            this.extra = extra;
            this.runtime = runtime;
            for (int i = 0; i < pods; i++) {
                pending.add(newPod());
            }
        }

        PodInfo newPod() {
            return new PodInfo("ns", gang.key().name() + "-" + podGeneration++, gang.key(), "", gang.priority(),
                    QueueFixtures.gpus(gpusEach).plus(extra), Map.of());
        }

        /** Whether its workload still waits for its gang's admission, or the delay after it, to create its pods. */
        boolean podsNotCreated(Instant now) {
            return creationDelay != null && (admittedAt == null || now.isBefore(admittedAt.plus(creationDelay)));
        }

        long gpusBound() {
            return endedAt != null ? 0 : bound.size() * gpusEach;
        }
    }

    /** One pod that was evicted and leaves its node at {@code gone}. */
    private record Terminating(PodInfo pod, String node, Instant gone) {
    }

    QueueCluster queue(QueueInfo queue) {
        queues.add(queue);
        return this;
    }

    /** Submits a job now; it is created at the current time plus {@code order} nanoseconds, to order ties. */
    Job submit(String name, String queue, int pods, long gpusEach, int min, int priority, Duration maxRuntime,
               Duration runtime) {
        return submit(name, queue, pods, gpusEach, podExtra, min, priority, maxRuntime, runtime);
    }

    /**
     * Submits a job now whose pods request {@code extra} (cpu, memory) besides their GPUs, in place of the
     * cluster's {@code podExtra}: jobs of different shapes side by side.
     */
    Job submit(String name, String queue, int pods, long gpusEach, ResourceVector extra, int min, int priority,
               Duration maxRuntime, Duration runtime) {
        GangInfo info = new GangInfo(GroupKey.podGroup("ns", name), min, Map.of(), priority,
                now.plusNanos(jobs.size()), null, null, queue, maxRuntime);
        Job job = new Job(info, pods, gpusEach, extra, runtime);
        jobs.put(info.key(), job);
        return job;
    }

    Job submit(String name, String queue, int pods, long gpusEach, int min) {
        return submit(name, queue, pods, gpusEach, min, 0, null, null);
    }

    /** Binds every pending pod of the job to the node, as if it had been scheduled there at {@code now}. */
    void bind(Job job, String node) {
        for (PodInfo pod : List.copyOf(job.pending)) {
            state.occupy(node, pod);
            job.bound.put(pod, node);
        }
        job.pending.clear();
        job.startedAt = now;
    }

    /** One cycle at the current time: plans, binds the placements, carries out the evictions. */
    CyclePlan cycle() {
        List<PendingGang> pending = new ArrayList<>();
        Map<GroupKey, RunningGang> running = new LinkedHashMap<>();
        for (Job job : jobs.values()) {
            if (job.endedAt != null) {
                continue;
            }
            if (job.podsNotCreated(now)) {
                pending.add(new PendingGang(job.gang, List.of(), job.bound.size(), Map.of(), null, job.pending));
            } else if (!job.pending.isEmpty()) {
                pending.add(new PendingGang(job.gang, job.pending, job.bound.size(), Map.of()));
            }
            if (job.startedAt != null) {
                running.put(job.gang.key(), new RunningGang(job.gang, job.startedAt, job.evicted));
            }
        }
        CyclePlan plan = planner.plan(state.snapshot(), pending, running, queues, now);
        for (GangPlacement result : plan.placements()) {
            Job admitted = jobs.get(result.gang().key());
            if (result.outcome() == GangPlacement.Outcome.ADMITTED && admitted.admittedAt == null) {
                admitted.admittedAt = now;
            }
            if (!result.placed()) {
                continue;
            }
            Job job = jobs.get(result.gang().key());
            for (PodPlacement placement : result.placements()) {
                state.occupy(placement.nodeName(), placement.pod());
                job.pending.remove(placement.pod());
                job.bound.put(placement.pod(), placement.nodeName());
            }
            if (job.startedAt == null) {
                job.startedAt = now;
            }
        }
        for (Eviction eviction : plan.evictions()) {
            evictions.add(eviction);
            Job victim = jobs.get(eviction.victim());
            for (PodPlacement pod : eviction.pods()) {
                victim.bound.remove(pod.pod());
                long late = terminationSpread.isZero() ? 0 : spread.nextLong(terminationSpread.toMillis());
                terminating.add(new Terminating(pod.pod(), pod.nodeName(), now.plus(termination).plusMillis(late)));
                victim.pending.add(victim.newPod());
            }
            if (eviction.wholeGang()) {
                victim.startedAt = null;
                victim.evicted++;
                // A Muster Job whose whole gang is preempted waits for admission again before it creates pods.
                victim.admittedAt = null;
            }
        }
        lastPlan = plan;
        terminate();
        return plan;
    }

    /** Runs a cycle every {@code period} until {@code until}, ending jobs and evicted pods on the way. */
    void runUntil(Instant until, Duration period) {
        while (!now.isAfter(until)) {
            endJobs();
            terminate();
            cycle();
            now = now.plus(period);
        }
        now = until;
    }

    /** Advances the clock to the time, ending jobs and evicted pods, without a cycle. */
    void advanceTo(Instant time) {
        now = time;
        endJobs();
        terminate();
    }

    private void endJobs() {
        for (Job job : jobs.values()) {
            if (job.endedAt == null && job.startedAt != null && job.runtime != null
                    && !now.isBefore(job.startedAt.plus(job.runtime))) {
                job.bound.forEach((pod, node) -> state.release(node, pod));
                job.endedAt = now;
            }
        }
    }

    private void terminate() {
        for (var it = terminating.iterator(); it.hasNext(); ) {
            Terminating pod = it.next();
            if (!now.isBefore(pod.gone())) {
                state.release(pod.node(), pod.pod());
                it.remove();
            }
        }
    }

    /** GPUs bound to running (not terminating) pods of the queue's jobs. */
    long gpus(String queue) {
        return jobs.values().stream().filter(job -> job.gang.queue().equals(queue)).mapToLong(Job::gpusBound).sum();
    }

    long evictedPods() {
        return evictions.stream().mapToLong(e -> e.pods().size()).sum();
    }

    Job job(String name) {
        return jobs.get(GroupKey.podGroup("ns", name));
    }

    /** The nodes the job's pods are (or were last) bound to, sorted and comma-separated. */
    String nodeOf(String name) {
        return String.join(",", new java.util.TreeSet<>(job(name).bound.values()));
    }

    static Instant at(long seconds) {
        return T0.plusSeconds(seconds);
    }

}
