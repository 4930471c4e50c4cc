package dev.muster.scheduler.core.cycle;

import dev.muster.scheduler.core.QueueFixtures;
import dev.muster.scheduler.core.cluster.NodeState;
import dev.muster.scheduler.core.model.GroupKey;
import dev.muster.scheduler.core.model.QueueInfo;
import dev.muster.scheduler.core.model.QueuePreemption;
import dev.muster.scheduler.core.model.ResourceVector;
import dev.muster.scheduler.core.placement.GangPlacement;
import dev.muster.scheduler.core.preemption.Eviction;
import dev.muster.scheduler.core.queue.QueueStanding;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;

import static dev.muster.scheduler.core.QueueFixtures.cpuAndMemory;
import static dev.muster.scheduler.core.cycle.QueueCluster.at;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * Random clusters, queues and jobs, checked after every cycle: no gang is left with 0 < running < min;
 * no queue stays below its guarantee while it asks for it and free room could start its gang (any queue),
 * or others hold room above their fair shares (a queue that may reclaim); every eviction's room is taken
 * by its preemptor; and no two queues reclaim from each other in turn unless the fair shares they are
 * compared by changed, or a job of either came or ended, in between.
 *
 * <p>Jobs come in different shapes, so that victims and preemptors differ: many small cpu-heavy pods,
 * memory-heavy ones, plain ones, and GPU-heavy pods (half a node, a whole node) asking for little cpu.
 * Nodes have cpu and memory enough for any mix of them, so the GPUs alone decide who fits; a rule that
 * counted the cpu or memory the victims free as the preemptor's would hold a queue below its guarantee.
 */
class QueuePropertiesTest {
    private static final int SEEDS = 40;
    private static final Duration SECOND = Duration.ofSeconds(1);
    private static final Duration DELAY = Duration.ofSeconds(5);
    private static final Duration TERMINATION = Duration.ofSeconds(2);
    /** Jobs are submitted in the first minute; the run goes on for 90 s more. */
    private static final long SUBMIT_UNTIL = 60;
    private static final long RUN_UNTIL = 150;

    /** Per node besides its 8 GPUs: enough cpu and memory for 8 pods of any shape below. */
    private static final ResourceVector NODE_EXTRA = cpuAndMemory(64_000, 256);
    /** Job shapes, per pod, and the most pods a job of the shape has. */
    private static final List<Shape> SHAPES = List.of(
            new Shape(1, cpuAndMemory(500, 1), 4),
            new Shape(1, cpuAndMemory(7_000, 4), 8),
            new Shape(1, cpuAndMemory(1_000, 28), 4),
            new Shape(4, cpuAndMemory(500, 1), 2),
            new Shape(8, cpuAndMemory(500, 1), 1));
    /** The most GPUs a job holds: a whole victim gang's worth. */
    private static final long LARGEST_GANG = 8;

    /** Pods of {@code gpus} GPUs and {@code extra} besides, up to {@code maxPods} a job. */
    private record Shape(long gpus, ResourceVector extra, int maxPods) {
    }

    @Test
    void queueInvariantsHoldOnRandomWorkloads() {
        for (long seed = 1; seed <= SEEDS; seed++) {
            run(seed);
        }
    }

    private static void run(long seed) {
        Random random = new Random(seed);
        int nodes = 2 + random.nextInt(5);
        QueueCluster cluster = new QueueCluster(nodes, NODE_EXTRA, ResourceVector.ZERO);
        cluster.termination = TERMINATION;
        List<String> leaves = queues(random, cluster, nodes * 8);
        Map<Instant, List<Runnable>> submissions = new HashMap<>();
        // Teams run workloads of their own kind: each queue's jobs mostly have its shape.
        Map<String, Shape> usual = new HashMap<>();
        leaves.forEach(leaf -> usual.put(leaf, SHAPES.get(random.nextInt(SHAPES.size()))));
        int jobs = 10 + random.nextInt(30);
        for (int j = 0; j < jobs; j++) {
            String queue = leaves.get(random.nextInt(leaves.size()));
            Shape shape = random.nextInt(4) > 0 ? usual.get(queue) : SHAPES.get(random.nextInt(SHAPES.size()));
            int pods = 1 + random.nextInt(shape.maxPods());
            int min = 1 + random.nextInt(pods);
            int priority = random.nextInt(3) * 100;
            Duration runtime = random.nextInt(3) == 0 ? null : Duration.ofSeconds(20 + random.nextInt(120));
            Duration maxRuntime = runtime == null || random.nextBoolean() ? null : runtime;
            String name = "j" + j;
            submissions.computeIfAbsent(at(random.nextInt((int) SUBMIT_UNTIL)), t -> new ArrayList<>())
                    .add(() -> cluster.submit(name, queue, pods, shape.gpus(), shape.extra(), min, priority,
                            maxRuntime, runtime));
        }
        Checks checks = new Checks(seed, cluster);
        while (!cluster.now.isAfter(at(RUN_UNTIL))) {
            cluster.advanceTo(cluster.now);
            submissions.getOrDefault(cluster.now, List.of()).forEach(Runnable::run);
            int before = cluster.evictions.size();
            cluster.cycle();
            checks.afterCycle(cluster.evictions.subList(before, cluster.evictions.size()));
            cluster.now = cluster.now.plus(SECOND);
        }
    }

    /** A root or two with a few leaves; guarantees in multiples of 4 GPUs that fit the cluster. */
    private static List<String> queues(Random random, QueueCluster cluster, int gpus) {
        List<String> leaves = new ArrayList<>();
        long guaranteed = 0;
        int tops = 2 + random.nextInt(2);
        for (int t = 0; t < tops; t++) {
            String top = "q" + t;
            boolean parent = random.nextInt(3) == 0;
            long guarantee = guaranteed + 8 <= gpus / 2 && random.nextBoolean() ? 4 * (1 + random.nextInt(2)) : 0;
            guaranteed += guarantee;
            QueuePreemption preemption = new QueuePreemption(random.nextInt(4) == 0
                    ? QueuePreemption.WithinQueue.NEVER : QueuePreemption.WithinQueue.LOWER_PRIORITY,
                    random.nextInt(5) > 0, DELAY);
            int weight = 1 + random.nextInt(3);
            cluster.queue(QueueFixtures.queue(top, null, weight, parent ? 0 : guarantee, null, preemption));
            if (parent) {
                for (int c = 0; c < 2; c++) {
                    cluster.queue(QueueFixtures.queue(top + "-" + c, top, 1 + random.nextInt(3), 0, null, preemption));
                    leaves.add(top + "-" + c);
                }
            } else {
                leaves.add(top);
            }
        }
        return leaves;
    }

    /** A reclaim: when, and the fair shares of the two sides compared then. */
    private record Reclaim(Instant at, long fairFrom, long fairTo) {
    }

    /** The invariants, with what they remember across cycles. */
    private static final class Checks {
        private final long seed;
        private final QueueCluster cluster;
        /** Per preemptor, its bound pods when pods were evicted for it, and by when it must have more. */
        private final Map<GroupKey, Integer> boundAtEviction = new HashMap<>();
        private final Map<GroupKey, Instant> mustTakeBy = new HashMap<>();
        /** Each queue's last reclaim from another, by "from->to" pair of queues. */
        private final Map<String, Reclaim> reclaims = new HashMap<>();
        /** Per queue with a guarantee, since when free room it could start a gang in has stood unused. */
        private final Map<String, Instant> unusedSince = new HashMap<>();
        /** Per queue, since when it has been below its guarantee while asking for it. */
        private final Map<String, Instant> belowSince = new HashMap<>();

        Checks(long seed, QueueCluster cluster) {
            this.seed = seed;
            this.cluster = cluster;
        }

        void afterCycle(List<Eviction> evictions) {
            String where = "seed " + seed + " at " + cluster.now;
            for (QueueCluster.Job job : cluster.jobs.values()) {
                if (job.endedAt == null) {
                    assertThat(job.bound.size()).as("%s: gang %s bound pods", where, job.gang.key().name())
                            .satisfiesAnyOf(n -> assertThat(n).isZero(),
                                    n -> assertThat(n).isGreaterThanOrEqualTo(job.gang.minMember()));
                }
            }
            for (Eviction eviction : evictions) {
                QueueCluster.Job preemptor = cluster.jobs.get(eviction.preemptor());
                boundAtEviction.putIfAbsent(eviction.preemptor(), preemptor.bound.size());
                mustTakeBy.putIfAbsent(eviction.preemptor(), cluster.now.plus(TERMINATION).plusSeconds(2));
                if (eviction.rule() == Eviction.Rule.RECLAIM) {
                    String from = cluster.jobs.get(eviction.victim()).gang.queue();
                    String to = preemptor.gang.queue();
                    String[] sides = sides(from, to);
                    Reclaim now = new Reclaim(cluster.now, fairShare(sides[0]), fairShare(sides[1]));
                    Reclaim reverse = reclaims.get(to + "->" + from);
                    assertThat(reverse == null || now.fairFrom() != reverse.fairTo() || now.fairTo() != reverse.fairFrom()
                            || lastChange(sides).isAfter(reverse.at()))
                            .as("%s: %s reclaims from %s after the reverse at %s, though neither side's fair share "
                                    + "changed and no job of either came or ended since", where, to, from, reverse)
                            .isTrue();
                    reclaims.put(from + "->" + to, now);
                }
            }
            for (var it = mustTakeBy.entrySet().iterator(); it.hasNext(); ) {
                Map.Entry<GroupKey, Instant> due = it.next();
                QueueCluster.Job preemptor = cluster.jobs.get(due.getKey());
                if (preemptor.bound.size() > boundAtEviction.get(due.getKey()) || preemptor.endedAt != null) {
                    it.remove();
                    boundAtEviction.remove(due.getKey());
                } else {
                    assertThat(cluster.now).as("%s: %s did not take the room evicted for it", where,
                            due.getKey().name()).isBefore(due.getValue());
                }
            }
            guarantees(where);
        }

        /**
         * When a job of the queues under either side last ended or was submitted: until then the two sides'
         * allocations move only by placements into room evictions freed, so with their fair shares unchanged
         * a reclaim in reverse would be a loop.
         */
        private Instant lastChange(String[] sides) {
            Instant last = Instant.MIN;
            for (QueueCluster.Job job : cluster.jobs.values()) {
                String side = sideOf(job.gang.queue());
                if (!side.equals(sides[0]) && !side.equals(sides[1]) && !job.gang.queue().equals(sides[0])
                        && !job.gang.queue().equals(sides[1])) {
                    continue;
                }
                last = job.gang.createdAt().isAfter(last) ? job.gang.createdAt() : last;
                last = job.endedAt != null && job.endedAt.isAfter(last) ? job.endedAt : last;
            }
            return last;
        }

        /**
         * The two queues compared when {@code from} and {@code to} reclaim from each other: those just below
         * their common ancestor (their top queues if these differ, else themselves).
         */
        private String[] sides(String from, String to) {
            String topFrom = sideOf(from);
            String topTo = sideOf(to);
            return topFrom.equals(topTo) ? new String[]{from, to} : new String[]{topFrom, topTo};
        }

        /** The top queue above a queue, or the queue itself at the top. */
        private String sideOf(String queue) {
            String at = queue;
            while (true) {
                String name = at;
                String parent = cluster.queues.stream().filter(q -> q.name().equals(name)).findFirst()
                        .map(QueueInfo::parent).orElse(null);
                if (parent == null) {
                    return at;
                }
                at = parent;
            }
        }

        private long fairShare(String queue) {
            return cluster.lastPlan.standings().stream().filter(standing -> standing.name().equals(queue))
                    .mapToLong(standing -> standing.fairShare().get(QueueFixtures.GPU)).findFirst().orElse(0);
        }

        /**
         * Every queue with a guarantee, reclaim or not, goes first into free room while below it: a queue
         * below its guarantee with a pending gang of 1-GPU pods that fits within the guarantee and in the
         * GPUs free after a cycle (not held by a near-quorum reservation; pods of 1 GPU fit any free GPU, the
         * nodes having cpu and memory for any mix) may see that room stand unused for a few cycles at most
         * (room promised to a preemptor, or reserved by backfill for a head gang tried before it).
         */
        private void startsFirstInFreeRoom(String where) {
            long free = 0;
            for (NodeState node : cluster.state.snapshot().nodeArray()) {
                free += Math.max(0, node.free(QueueFixtures.GPU));
            }
            for (GangPlacement result : cluster.lastPlan.placements()) {
                if (result.outcome() == GangPlacement.Outcome.RESERVED) {
                    free -= result.placements().stream().mapToLong(p -> p.pod().requests().get(QueueFixtures.GPU)).sum();
                }
            }
            for (QueueInfo queue : cluster.queues) {
                long guarantee = queue.guarantee().get(QueueFixtures.GPU);
                long held = cluster.gpus(queue.name());
                long smallest = smallestWaitingGang(queue.name());
                if (guarantee == 0 || smallest <= 0 || held + smallest > guarantee || smallest > free) {
                    unusedSince.remove(queue.name());
                    continue;
                }
                Instant since = unusedSince.computeIfAbsent(queue.name(), q -> cluster.now);
                assertThat(cluster.now).as("%s: queue %s holds %d of its guarantee %d while %d GPUs stand free",
                        where, queue.name(), held, guarantee, free).isBefore(since.plus(TERMINATION).plusSeconds(3));
            }
        }

        /**
         * The GPUs of the queue's smallest gang of 1-GPU pods that has not started; -1 if none waits. Gangs of
         * larger pods need the room on one node, which free room or others' surplus split across nodes may
         * not give, so they are left out of the liveness checks (the other checks cover them).
         */
        private long smallestWaitingGang(String queue) {
            return cluster.jobs.values().stream()
                    .filter(job -> job.gang.queue().equals(queue) && job.endedAt == null && job.startedAt == null
                            && job.gpusEach == 1)
                    .mapToLong(job -> job.pending.size() * job.gpusEach).min().orElse(-1);
        }

        /**
         * A queue below its guarantee while a pending gang of it fits within the guarantee may stay so only
         * as long as preemption needs (the reclaim delay, termination, a cycle or two), unless the room
         * others hold above their fair shares is less than that gang plus a whole victim gang's worth
         * (victims come in gangs of up to {@link #LARGEST_GANG} GPUs, and no queue is taken below its fair
         * share). The victims' cpu and memory, whatever their shape, never stop it.
         */
        private void guarantees(String where) {
            startsFirstInFreeRoom(where);
            Map<String, QueueStanding> standings = new HashMap<>();
            cluster.lastPlan.standings().forEach(s -> standings.put(s.name(), s));
            for (QueueInfo queue : cluster.queues) {
                long guarantee = queue.guarantee().get(QueueFixtures.GPU);
                long held = cluster.gpus(queue.name());
                long smallest = smallestWaitingGang(queue.name());
                boolean asks = guarantee > 0 && queue.preemption().reclaim() && smallest > 0
                        && held + smallest <= guarantee;
                long excess = 0;
                for (QueueStanding other : standings.values()) {
                    if (!other.name().equals(queue.name()) && cluster.queues.stream()
                            .anyMatch(q -> q.name().equals(other.name()) && q.parent() == null)) {
                        excess += Math.max(0, other.allocated().get(QueueFixtures.GPU)
                                - other.fairShare().get(QueueFixtures.GPU));
                    }
                }
                if (!asks || excess < smallest + LARGEST_GANG) {
                    belowSince.remove(queue.name());
                    continue;
                }
                Instant since = belowSince.computeIfAbsent(queue.name(), q -> cluster.now);
                assertThat(cluster.now).as("%s: queue %s holds %d of its guarantee %d", where, queue.name(), held,
                        guarantee).isBefore(since.plus(DELAY).plus(TERMINATION).plusSeconds(3));
            }
        }
    }
}
