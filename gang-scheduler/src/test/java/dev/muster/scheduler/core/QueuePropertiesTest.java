package dev.muster.scheduler.core;

import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;

import static dev.muster.scheduler.core.QueueCluster.at;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * Random clusters, queues and jobs, checked after every cycle: no gang is left with 0 < running < min,
 * no queue stays below its guarantee while it asks for it and others hold room above their fair shares,
 * every eviction's room is taken by its preemptor, and no two queues reclaim from each other in turn
 * while nothing else changes (no job ends or comes).
 */
class QueuePropertiesTest {
    private static final int SEEDS = 40;
    private static final Duration SECOND = Duration.ofSeconds(1);
    private static final Duration DELAY = Duration.ofSeconds(5);
    private static final Duration TERMINATION = Duration.ofSeconds(2);
    /** Jobs are submitted in the first minute; the run goes on for 90 s more. */
    private static final long SUBMIT_UNTIL = 60;
    private static final long RUN_UNTIL = 150;

    @Test
    void queueInvariantsHoldOnRandomWorkloads() {
        for (long seed = 1; seed <= SEEDS; seed++) {
            run(seed);
        }
    }

    private static void run(long seed) {
        Random random = new Random(seed);
        int nodes = 2 + random.nextInt(5);
        QueueCluster cluster = new QueueCluster(nodes);
        cluster.termination = TERMINATION;
        List<String> leaves = queues(random, cluster, nodes * 8);
        Map<Instant, List<Runnable>> submissions = new HashMap<>();
        int jobs = 10 + random.nextInt(30);
        for (int j = 0; j < jobs; j++) {
            String queue = leaves.get(random.nextInt(leaves.size()));
            int pods = 1 + random.nextInt(4);
            int min = 1 + random.nextInt(pods);
            int priority = random.nextInt(3) * 100;
            Duration runtime = random.nextInt(3) == 0 ? null : Duration.ofSeconds(20 + random.nextInt(120));
            Duration maxRuntime = runtime == null || random.nextBoolean() ? null : runtime;
            String name = "j" + j;
            submissions.computeIfAbsent(at(random.nextInt((int) SUBMIT_UNTIL)), t -> new ArrayList<>())
                    .add(() -> cluster.submit(name, queue, pods, 1, min, priority, maxRuntime, runtime));
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
            cluster.queue(QueueCluster.queue(top, null, weight, parent ? 0 : guarantee, null, preemption));
            if (parent) {
                for (int c = 0; c < 2; c++) {
                    cluster.queue(QueueCluster.queue(top + "-" + c, top, 1 + random.nextInt(3), 0, null, preemption));
                    leaves.add(top + "-" + c);
                }
            } else {
                leaves.add(top);
            }
        }
        return leaves;
    }

    /** The invariants, with what they remember across cycles. */
    private static final class Checks {
        private final long seed;
        private final QueueCluster cluster;
        /** Per preemptor, its bound pods when pods were evicted for it, and by when it must have more. */
        private final Map<GroupKey, Integer> boundAtEviction = new HashMap<>();
        private final Map<GroupKey, Instant> mustTakeBy = new HashMap<>();
        /** When each queue last reclaimed from another, by "from->to" pair of queues. */
        private final Map<String, Instant> reclaims = new HashMap<>();
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
                    Instant reverse = reclaims.get(to + "->" + from);
                    assertThat(reverse == null || lastChange().isAfter(reverse))
                            .as("%s: %s reclaims from %s after the reverse at %s, nothing ended or came since", where,
                                    to, from, reverse).isTrue();
                    reclaims.put(from + "->" + to, cluster.now);
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
         * When a job last ended or was submitted: until then allocations move only by placements into room
         * evictions freed, so a reclaim in reverse would be a loop.
         */
        private Instant lastChange() {
            Instant last = Instant.MIN;
            for (QueueCluster.Job job : cluster.jobs.values()) {
                last = job.gang.createdAt().isAfter(last) ? job.gang.createdAt() : last;
                last = job.endedAt != null && job.endedAt.isAfter(last) ? job.endedAt : last;
            }
            return last;
        }

        /**
         * A queue below its guarantee while a pending gang of it fits within the guarantee may stay so only
         * as long as preemption needs (the reclaim delay, termination, a cycle or two), unless the room
         * others hold above their fair shares is less than that gang plus a whole victim gang's worth
         * (victims come in gangs of up to 4 GPUs, and no queue is taken below its fair share).
         */
        private void guarantees(String where) {
            Map<String, QueueStanding> standings = new HashMap<>();
            cluster.lastPlan.standings().forEach(s -> standings.put(s.name(), s));
            for (QueueInfo queue : cluster.queues) {
                long guarantee = queue.guarantee().get(QueueFixtures.GPU);
                long held = cluster.gpus(queue.name());
                long smallest = cluster.jobs.values().stream()
                        .filter(job -> job.gang.queue().equals(queue.name()) && job.endedAt == null
                                && job.startedAt == null)
                        .mapToLong(job -> job.pending.size() * job.gpusEach).min().orElse(-1);
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
                if (!asks || excess < smallest + 4) {
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
