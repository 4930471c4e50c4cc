package dev.muster.scheduler.core.preemption;

import dev.muster.scheduler.core.cluster.ClusterSnapshot;
import dev.muster.scheduler.core.cluster.NodeState;
import dev.muster.scheduler.core.model.GroupKey;
import dev.muster.scheduler.core.model.PendingGang;
import dev.muster.scheduler.core.model.PodInfo;
import dev.muster.scheduler.core.model.ResourceVector;
import dev.muster.scheduler.core.model.RunningGang;
import dev.muster.scheduler.core.placement.GangPlacement;
import dev.muster.scheduler.core.placement.GangTrial;
import dev.muster.scheduler.core.placement.PlacementStatement;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.Deque;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeSet;

/**
 * Backfill around the head gang of a queue that cannot start: it gets a reservation, a start time and
 * the nodes it will start on, found by releasing the running gangs in the order they end at the latest
 * ({@link RunningGang#endsBy()}) until the head gang's trial places it there. Gangs tried after it may
 * then start only where they do not delay it: if they end before the start
 * ({@code now + maxRuntime <= start}), the reservation's room is lifted for their trial; otherwise the
 * room free now on the nodes it needs is held for it, so they only get other room. Gangs without
 * {@code maxRuntime} never delay a reservation. When releasing every running gang that has a
 * {@code maxRuntime} does not make room for the head gang, there is no reservation and later gangs go
 * anywhere, as without queues.
 *
 * <p>The reserved room is counted in whole nodes: all that is free on a reserved node is held, even if
 * the head gang would leave part of it free, which keeps the start time safe without tracking room
 * within a node over time. The holds stay on the snapshot for the rest of the cycle, preemption
 * included.
 *
 * <p>Cost: the releases are evictions on the cycle's own trial runner, one {@link PlacementStatement}
 * per end time, all discarded once the start is found, so no snapshot is copied and the shape indexes
 * rescore only the nodes the released gangs run on. The end times are searched by galloping (1, 2, 4, ...
 * end times released) and then bisection, since each release only adds room: what is released grows
 * with the answer, not with the number of running gangs. Only a head gang that did not fit for lack
 * of room asks; one that needs room a gang without {@code maxRuntime} holds costs releasing every
 * bounded gang once.
 */
public final class BackfillReservation {
    private final ClusterSnapshot snapshot;
    private final Map<GroupKey, RunningGang> running;
    private final Instant now;
    private final List<Reservation> reservations = new ArrayList<>();
    /** Per reservation, the statement holding its free room; absent while lifted for a trial. */
    private final Map<Reservation, PlacementStatement> holds = new HashMap<>();
    /** The reservations lifted for the gang being tried. */
    private final List<Reservation> lifted = new ArrayList<>();
    /** When running gangs end at the latest, distinct, earliest first; {@code null} until first asked. */
    private List<Instant> ends;
    /** Per end time (index into {@link #ends}), the bound pods of the running gangs that end then. */
    private List<List<Bound>> endingPods;

    /** Backfill for one cycle: its snapshot, the running gangs by key, and the cycle's time. */
    public BackfillReservation(ClusterSnapshot snapshot, Map<GroupKey, RunningGang> running, Instant now) {
        this.snapshot = snapshot;
        this.running = running;
        this.now = now;
    }

    /**
     * Reserves for a head gang that did not fit now on the cycle's trial runner, if releasing running
     * gangs in their end order makes room for it; the trial runner is as before when this returns,
     * except for the new reservation's hold.
     */
    public Reservation reserve(PendingGang head, GangTrial trial) {
        prepare();
        int count = ends.size();
        if (count == 0) {
            return null;
        }
        Releases releases = new Releases(trial);
        try {
            // Galloping: end times 1, 2, 4, 8, ... past the last that did not fit, then bisection, so that
            // what is released (and undone) grows with the answer rather than with every running gang.
            int low = 1;
            int high = low - 1;
            GangPlacement fit = null;
            for (int step = 1; high < count; step *= 2) {
                high = Math.min(count, low + step - 1);
                releases.releaseTo(high);
                fit = probe(head, trial);
                if (fit != null) {
                    break;
                }
                low = high + 1;
            }
            if (fit == null) {
                return null;
            }
            while (low < high) {
                int mid = (low + high) >>> 1;
                releases.releaseTo(mid);
                GangPlacement placement = probe(head, trial);
                if (placement != null) {
                    high = mid;
                    fit = placement;
                } else {
                    low = mid + 1;
                }
            }
            Set<String> nodes = new TreeSet<>();
            fit.placements().forEach(p -> nodes.add(p.nodeName()));
            releases.releaseTo(0);
            Reservation reservation = new Reservation(head.gang().key(), ends.get(low - 1), nodes);
            reservations.add(reservation);
            hold(reservation, trial);
            return reservation;
        } finally {
            releases.releaseTo(0);
        }
    }

    /**
     * Lifts the holds of the reservations the gang would not delay (it ends before they start), so that
     * its trial may use their room; {@link #rehold} puts them back after the trial.
     */
    public void liftFor(PendingGang gang) {
        Duration runtime = gang.gang().maxRuntime();
        if (runtime == null) {
            return;
        }
        for (Reservation reservation : reservations) {
            PlacementStatement hold = holds.get(reservation);
            if (hold != null && !now.plus(runtime).isAfter(reservation.start())) {
                hold.discard();
                holds.remove(reservation);
                lifted.add(reservation);
            }
        }
    }

    /** Holds again, with what is free on their nodes now, the reservations lifted for the last trial. */
    public void rehold(GangTrial trial) {
        lifted.forEach(reservation -> hold(reservation, trial));
        lifted.clear();
    }

    /**
     * Holds the room free now on the reservation's nodes with one placeholder pod per node, on the cycle's
     * trial runner, so that gangs tried later see it taken (a pod that requests nothing still fits the
     * free pod slots). Holding room, rather than keeping gangs off the nodes, leaves their pods' shapes,
     * and so the trial runner's node indexes, as they are.
     */
    private void hold(Reservation reservation, GangTrial trial) {
        PlacementStatement hold = trial.statement();
        for (String name : reservation.nodes()) {
            NodeState node = snapshot.node(name).orElseThrow();
            ResourceVector.Builder free = ResourceVector.builder();
            boolean any = false;
            for (int d = 0; d < node.info().allocatable().length(); d++) {
                long room = d == ResourceVector.PODS_DIM ? 0 : node.info().allocatable().at(d) - node.requested(d);
                if (room > 0) {
                    free.set(ResourceVector.nameOf(d), room);
                    any = true;
                }
            }
            if (any) {
                GroupKey gang = reservation.gang();
                hold.allocate(new PodInfo(gang.namespace(), "reserved-for-" + gang.name() + "-on-" + name, gang, "", 0,
                        free.build(), Map.of()), node);
            }
        }
        holds.put(reservation, hold);
    }

    /**
     * The head gang's trial (or admission, for a workload that creates its pods once admitted) as the
     * trial runner stands, keeping nothing; {@code null} when it does not fit.
     */
    private static GangPlacement probe(PendingGang head, GangTrial trial) {
        GangPlacement placement = trial.probe(head, !head.expected().isEmpty());
        return placement.placed() || placement.outcome() == GangPlacement.Outcome.ADMITTED ? placement : null;
    }

    /** Finds, on first use, the end times and the bound pods of the running gangs ending at each. */
    private void prepare() {
        if (ends != null) {
            return;
        }
        Map<GroupKey, Instant> endOf = new HashMap<>();
        running.forEach((key, gang) -> {
            Instant end = gang.endsBy();
            if (end != null) {
                endOf.put(key, end);
            }
        });
        ends = endOf.values().stream().distinct().sorted().toList();
        Map<Instant, Integer> endIndex = new HashMap<>();
        endingPods = new ArrayList<>(ends.size());
        for (Instant end : ends) {
            endIndex.put(end, endIndex.size());
            endingPods.add(new ArrayList<>());
        }
        Map<GroupKey, Integer> endIndexOf = new HashMap<>();
        endOf.forEach((key, end) -> endIndexOf.put(key, endIndex.get(end)));
        // A gang's pods lie next to each other on a node: it is looked up once for them.
        GroupKey lastGang = null;
        Integer lastEnd = null;
        for (NodeState node : snapshot.nodeArray()) {
            for (PodInfo pod : node.snapshotPods()) {
                if (pod.group() != lastGang && !Objects.equals(pod.group(), lastGang)) {
                    lastGang = pod.group();
                    lastEnd = endIndexOf.get(lastGang);
                }
                if (lastEnd != null) {
                    endingPods.get(lastEnd).add(new Bound(pod, node));
                }
            }
        }
    }

    /** A bound pod of a running gang, on its node. */
    private record Bound(PodInfo pod, NodeState node) {
    }

    /**
     * The running gangs released on the trial runner: those ending by the first {@code released} end
     * times, as a stack of statements, one per end time.
     */
    private final class Releases {
        private final GangTrial trial;
        private final Deque<PlacementStatement> statements = new ArrayDeque<>();
        private int released;

        Releases(GangTrial trial) {
            this.trial = trial;
        }

        /** Releases exactly the running gangs that end by the first {@code count} end times. */
        void releaseTo(int count) {
            for (; released > count; released--) {
                statements.pop().discard();
            }
            // One statement per end time, so that releasing fewer undoes only the latest.
            for (int e = released; e < count; e++) {
                PlacementStatement statement = trial.statement();
                endingPods.get(e).forEach(bound -> statement.evict(bound.pod(), bound.node()));
                statements.push(statement);
            }
            released = count;
        }
    }

    /**
     * A head gang's reservation.
     *
     * @param gang  the head gang
     * @param start when the running gangs it waits for end at the latest
     * @param nodes the nodes its trial placed it on once they end
     */
    record Reservation(GroupKey gang, Instant start, Set<String> nodes) {
    }
}
