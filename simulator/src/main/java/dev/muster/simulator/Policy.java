package dev.muster.simulator;

import dev.muster.scheduler.core.cluster.ClusterSnapshot;
import dev.muster.scheduler.core.cycle.CoschedulingArgs;
import dev.muster.scheduler.core.cycle.CyclePlan;
import dev.muster.scheduler.core.cycle.QueuePlanner;
import dev.muster.scheduler.core.model.GroupKey;
import dev.muster.scheduler.core.model.PendingGang;
import dev.muster.scheduler.core.model.PlacementConstraints;
import dev.muster.scheduler.core.model.QueueInfo;
import dev.muster.scheduler.core.model.QueuePreemption;
import dev.muster.scheduler.core.model.RunningGang;
import dev.muster.scheduler.core.placement.GangPlacement;
import dev.muster.scheduler.core.placement.GangTrial;
import dev.muster.scheduler.core.placement.PodPlacement;
import dev.muster.scheduler.core.preemption.Eviction;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;

/**
 * How one simulated scheduler runs a cycle: it places what it can of the waiting jobs on the cycle's
 * snapshot, and says what to evict, as {@code SchedulingCycle} does with the scheduler cache's. Muster and
 * greedy run the production cycle ({@link QueuePlanner}); strict FIFO is a baseline on the placement trial
 * alone, which no Muster component runs.
 */
abstract class Policy {
    /**
     * What one cycle did.
     *
     * @param placements pods placed, to bind
     * @param evictions  running jobs' pods to evict now, for a preemptor that is tried once they are gone
     * @param wakeUps    times at which a cycle could decide otherwise with no job arriving or finishing:
     *                   when a backoff, a reservation, the bar on reserving again or a reclaim delay that
     *                   this cycle started runs out, or the next tick after evictions
     */
    record Cycle(List<PodPlacement> placements, List<Eviction> evictions, List<Instant> wakeUps) {
    }

    private final boolean perPod;

    private Policy(boolean perPod) {
        this.perPod = perPod;
    }

    /**
     * The policy a spec names.
     *
     * @param queues the Queues the scheduler sees ({@link CoreRecords#queues})
     */
    static Policy of(PolicySpec spec, List<QueueInfo> queues) {
        return switch (spec.kind()) {
            case FIFO -> new StrictFifo(spec);
            case MUSTER -> new Queued(spec, queues, false);
            case GREEDY -> new Queued(spec, queues, true);
        };
    }

    /** Whether each pod is a gang of its own. */
    final boolean perPod() {
        return perPod;
    }

    /**
     * Runs one cycle at {@code now} over the waiting jobs, in submission order.
     *
     * @param running the running jobs' gangs, by key: what preemption may evict and backfill waits for
     */
    abstract Cycle cycle(ClusterSnapshot snapshot, Collection<SimJob> waiting, Map<GroupKey, RunningGang> running,
                         Instant now);

    /**
     * Gangs in submission order through the placement trial, without backfill: a gang that does not fit
     * blocks every later gang that may use the same nodes. When all jobs may use all nodes, the first gang
     * that does not fit ends the cycle; with the cluster partitioned by virtual cluster, it blocks its own
     * virtual cluster only.
     */
    private static final class StrictFifo extends Policy {
        private final PolicySpec spec;

        StrictFifo(PolicySpec spec) {
            super(false);
            this.spec = spec;
        }

        @Override
        Cycle cycle(ClusterSnapshot snapshot, Collection<SimJob> waiting, Map<GroupKey, RunningGang> running,
                    Instant now) {
            GangTrial trial = new GangTrial(snapshot, spec.args().scoring(), spec.args().localityTopologyKey());
            List<PodPlacement> placements = new ArrayList<>();
            Set<PlacementConstraints> blocked = new HashSet<>();
            for (SimJob job : waiting) {
                // A job's pods all have the same constraints, which say which nodes it may use.
                PlacementConstraints nodes = job.pods.get(0).constraints();
                if (blocked.contains(nodes)) {
                    continue;
                }
                GangPlacement result = trial.attempt(job.gang);
                if (result.placed()) {
                    placements.addAll(result.placements());
                } else if (blocked.add(nodes) && nodes.equals(PlacementConstraints.NONE)) {
                    break;
                }
            }
            return new Cycle(placements, List.of(), List.of());
        }
    }

    /**
     * The production cycle, {@link QueuePlanner}, planning every waiting gang each cycle as the live scheduler
     * does, with the running jobs as its running gangs and the policy's queues: for Muster the job's gang,
     * for greedy each pending pod as a gang of one (which, as a pod without a PodGroup, is never a running
     * gang to preempt).
     */
    private static final class Queued extends Policy {
        private final QueuePlanner planner;
        private final CoschedulingArgs args;
        private final List<QueueInfo> queues;
        private final Duration cyclePeriod;
        /** The shortest reclaim delay of the queues, if any queue may reclaim from another; else null. */
        private final Duration reclaimDelay;
        /** Gangs that failed for room and have not started since: a gang's first failure starts its reclaim delay. */
        private final Set<GroupKey> failed = new HashSet<>();

        Queued(PolicySpec spec, List<QueueInfo> queues, boolean perPod) {
            super(perPod);
            this.planner = new QueuePlanner(spec.args());
            this.args = spec.args();
            this.queues = List.copyOf(queues);
            this.cyclePeriod = spec.cyclePeriod();
            this.reclaimDelay = queues.size() < 2 ? null : queues.stream().map(QueueInfo::preemption)
                    .filter(QueuePreemption::reclaim).map(QueuePreemption::reclaimDelay).min(Duration::compareTo)
                    .orElse(null);
        }

        @Override
        Cycle cycle(ClusterSnapshot snapshot, Collection<SimJob> waiting, Map<GroupKey, RunningGang> running,
                    Instant now) {
            List<PendingGang> gangs = new ArrayList<>(waiting.size());
            for (SimJob job : waiting) {
                if (!perPod()) {
                    gangs.add(job.gang);
                    continue;
                }
                for (int i = 0; i < job.pods.size(); i++) {
                    if (job.nodeOf[i] == null) {
                        gangs.add(job.podGangs[i]);
                    }
                }
            }
            List<PodPlacement> placements = new ArrayList<>();
            List<Instant> wakeUps = new ArrayList<>();
            GroupKey holderBefore = planner.reservationHolder();
            CyclePlan plan = planner.plan(snapshot, gangs, running, queues, now);
            for (GangPlacement result : plan.placements()) {
                GroupKey key = result.gang().key();
                if (result.placed()) {
                    placements.addAll(result.placements());
                    failed.remove(key);
                }
                // The cycle backs off a gang that failed far from its quorum, or whose reservation ran out.
                if (result.outcome() == GangPlacement.Outcome.NOT_ENOUGH_RESOURCES) {
                    if (!args.podGroupBackoff().isZero()) {
                        wakeUps.add(now.plus(args.podGroupBackoff()));
                    }
                    // From its first failure on, the gang may reclaim once its queue's delay has passed.
                    if (failed.add(key) && reclaimDelay != null) {
                        wakeUps.add(now.plus(reclaimDelay));
                    }
                }
            }
            GroupKey holder = planner.reservationHolder();
            if (!Objects.equals(holder, holderBefore)) {
                // A new reservation runs out after the waiting time (the trace's gangs set no timeout of their
                // own); one that ran out bars its gang from reserving again for as long as it was held.
                wakeUps.add(now.plus(args.permitWaitingTime()));
            }
            if (!plan.evictions().isEmpty()) {
                // The victims are gone by the next tick (no grace period); the preemptor is tried then.
                wakeUps.add(now.plus(cyclePeriod));
            }
            return new Cycle(placements, plan.evictions(), wakeUps);
        }
    }
}
