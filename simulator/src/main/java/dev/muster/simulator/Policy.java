package dev.muster.simulator;

import dev.muster.scheduler.core.ClusterSnapshot;
import dev.muster.scheduler.core.CoschedulingArgs;
import dev.muster.scheduler.core.GangPlacement;
import dev.muster.scheduler.core.GangQueue;
import dev.muster.scheduler.core.GangTrial;
import dev.muster.scheduler.core.GroupKey;
import dev.muster.scheduler.core.PendingGang;
import dev.muster.scheduler.core.PlacementConstraints;
import dev.muster.scheduler.core.PodPlacement;

import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashSet;
import java.util.List;
import java.util.Objects;
import java.util.Set;

/**
 * How one simulated scheduler runs a cycle, on the placement core: it places what it can of the waiting
 * jobs on the cycle's snapshot, as {@code SchedulingCycle} does with the scheduler cache's.
 */
abstract class Policy {
    /**
     * What one cycle did.
     *
     * @param placements pods placed, to bind
     * @param wakeUps    times at which a cycle could decide otherwise with no job arriving or finishing:
     *                   when a backoff, a reservation or the bar on reserving again that this cycle
     *                   started runs out
     */
    record Cycle(List<PodPlacement> placements, List<Instant> wakeUps) {
    }

    private final boolean perPod;

    private Policy(boolean perPod) {
        this.perPod = perPod;
    }

    /** The policy a spec names. */
    static Policy of(PolicySpec spec) {
        return switch (spec.kind()) {
            case FIFO -> new StrictFifo(spec);
            case MUSTER -> new Queued(spec, false);
            case GREEDY -> new Queued(spec, true);
        };
    }

    /** Whether each pod is a gang of its own. */
    final boolean perPod() {
        return perPod;
    }

    /** Runs one cycle at {@code now} over the waiting jobs, in submission order. */
    abstract Cycle cycle(ClusterSnapshot snapshot, Collection<SimJob> waiting, Instant now);

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
        Cycle cycle(ClusterSnapshot snapshot, Collection<SimJob> waiting, Instant now) {
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
            return new Cycle(placements, List.of());
        }
    }

    /**
     * The scheduler's own queue, {@link GangQueue}, planning every waiting gang each cycle as production
     * does: for Muster the job's gang, for greedy each pending pod as a gang of one.
     */
    private static final class Queued extends Policy {
        private final GangQueue queue;
        private final CoschedulingArgs args;

        Queued(PolicySpec spec, boolean perPod) {
            super(perPod);
            this.queue = new GangQueue(spec.args());
            this.args = spec.args();
        }

        @Override
        Cycle cycle(ClusterSnapshot snapshot, Collection<SimJob> waiting, Instant now) {
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
            GroupKey holderBefore = queue.reservationHolder();
            for (GangPlacement result : queue.plan(snapshot, gangs, now)) {
                if (result.placed()) {
                    placements.addAll(result.placements());
                }
                // GangQueue backs off a gang that failed far from its quorum, or whose reservation ran out.
                if (result.outcome() == GangPlacement.Outcome.NOT_ENOUGH_RESOURCES && !args.podGroupBackoff().isZero()) {
                    wakeUps.add(now.plus(args.podGroupBackoff()));
                }
            }
            GroupKey holder = queue.reservationHolder();
            if (!Objects.equals(holder, holderBefore)) {
                // A new reservation runs out after the waiting time (the trace's gangs set no timeout of their
                // own); one that ran out bars its gang from reserving again for as long as it was held.
                wakeUps.add(now.plus(args.permitWaitingTime()));
            }
            return new Cycle(placements, wakeUps);
        }
    }
}
