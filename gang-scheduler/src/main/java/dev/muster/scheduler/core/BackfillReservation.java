package dev.muster.scheduler.core;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeSet;

/**
 * Backfill around the head gang of a queue that cannot start: it gets a reservation, a start time and
 * the nodes it will start on, found by releasing the running gangs in the order they end at the latest
 * ({@link RunningGang#endsBy()}) on a copy of the snapshot until the head gang's trial places it there.
 * Gangs tried after it may then start only where they do not delay it: if they end before the start
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
 * <p>Cost: a copy of the snapshot and a trial runner per end time the bisection asks about, shared by every head gang of the cycle (head gangs are probed, which keeps nothing). A copy is
 * taken when first asked for, so a later head gang's reservation does not see what the cycle placed
 * since; reservations are computed afresh every cycle, which corrects that by the next one.
 */
final class BackfillReservation {
    private final ClusterSnapshot snapshot;
    private final Map<GroupKey, RunningGang> running;
    private final CoschedulingArgs args;
    private final Instant now;
    private final List<Reservation> reservations = new ArrayList<>();
    /** Per reservation, the statement holding its free room; absent while lifted for a trial. */
    private final Map<Reservation, PlacementStatement> holds = new HashMap<>();
    /** The reservations lifted for the gang being tried. */
    private final List<Reservation> lifted = new ArrayList<>();
    /** Per number of end times released, a trial runner on a copy with the gangs ending by then released. */
    private final Map<Integer, GangTrial> releasedTrials = new HashMap<>();
    /** When running gangs end at the latest, distinct, earliest first; {@code null} until first asked. */
    private List<Instant> ends;

    BackfillReservation(ClusterSnapshot snapshot, Map<GroupKey, RunningGang> running, CoschedulingArgs args,
                        Instant now) {
        this.snapshot = snapshot;
        this.running = running;
        this.args = args;
        this.now = now;
    }

    /**
     * Reserves for a head gang that did not fit now, if releasing running gangs in their end order makes
     * room for it; the earliest end time that does, by bisection over the distinct end times, since each
     * release only adds room.
     */
    Reservation reserve(PendingGang head, GangTrial trial) {
        List<Instant> order = ends();
        if (order.isEmpty() || !fitsAfter(head, order.size())) {
            return null;
        }
        int low = 1;
        int high = order.size();
        while (low < high) {
            int mid = (low + high) >>> 1;
            if (fitsAfter(head, mid)) {
                high = mid;
            } else {
                low = mid + 1;
            }
        }
        GangPlacement placement = trialAfter(head, low);
        Set<String> nodes = new TreeSet<>();
        placement.placements().forEach(p -> nodes.add(p.nodeName()));
        Reservation reservation = new Reservation(head.gang().key(), order.get(low - 1), nodes);
        reservations.add(reservation);
        hold(reservation, trial);
        return reservation;
    }

    /**
     * Lifts the holds of the reservations the gang would not delay (it ends before they start), so that
     * its trial may use their room; {@link #rehold} puts them back after the trial.
     */
    void liftFor(PendingGang gang) {
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
    void rehold(GangTrial trial) {
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
                long room = d == ResourceVector.PODS_DIM ? 0 : node.info().allocatable().at(d) - node.requested().at(d);
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

    private boolean fitsAfter(PendingGang head, int released) {
        GangPlacement placement = trialAfter(head, released);
        return placement.placed() || placement.outcome() == GangPlacement.Outcome.ADMITTED;
    }

    /**
     * The head gang's trial (or admission, for a workload that creates its pods once admitted) with the
     * running gangs that end by the first {@code released} end times released, keeping nothing, so that
     * the released copy and its trial runner serve every head gang of the cycle that asks about it.
     */
    private GangPlacement trialAfter(PendingGang head, int released) {
        GangTrial trial = releasedTrials.computeIfAbsent(released, n -> new GangTrial(
                releasedCopy(ends().get(n - 1)), args.scoring(), args.localityTopologyKey()));
        return trial.probe(head, !head.expected().isEmpty());
    }

    /** A copy of the snapshot without the pods of the running gangs that end by the time. */
    private ClusterSnapshot releasedCopy(Instant endedBy) {
        Set<GroupKey> keys = new HashSet<>();
        running.values().forEach(gang -> {
            if (gang.endsBy() != null && !gang.endsBy().isAfter(endedBy)) {
                keys.add(gang.gang().key());
            }
        });
        ClusterSnapshot copy = snapshot.copy();
        for (NodeState node : copy.nodeArray()) {
            for (PodInfo pod : node.snapshotPods()) {
                if (keys.contains(pod.group())) {
                    node.unplace(pod.requests());
                }
            }
        }
        return copy;
    }

    /** When running gangs end at the latest, each time once, earliest first; computed on first use. */
    private List<Instant> ends() {
        if (ends == null) {
            ends = running.values().stream().map(RunningGang::endsBy).filter(Objects::nonNull).distinct().sorted()
                    .toList();
        }
        return ends;
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
