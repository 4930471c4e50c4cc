package dev.muster.scheduler.core;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/**
 * Backfill around the head gang of a queue that cannot start: it gets a reservation, a start time and
 * the nodes it will start on, found by releasing the running gangs in the order they end at the latest
 * ({@link RunningGang#endsBy()}) on a copy of the snapshot until the head gang's trial places it there.
 * Gangs tried after it may then start only where they do not delay it: anywhere if they end before the
 * start ({@code now + maxRuntime <= start}), else only on nodes the reservation does not need. Gangs
 * without {@code maxRuntime} never delay a reservation: they only get the other nodes. When releasing
 * every running gang that has a {@code maxRuntime} does not make room for the head gang, there is no
 * reservation and later gangs go anywhere, as without queues.
 *
 * <p>The reserved room is counted in whole nodes: a gang that would end after the start stays off a
 * reserved node even if the head gang would leave part of it free, which keeps the start time safe
 * without tracking room within a node over time.
 */
final class BackfillReservation {
    private final ClusterSnapshot snapshot;
    private final Map<GroupKey, RunningGang> running;
    private final CoschedulingArgs args;
    private final Instant now;
    private final List<Reservation> reservations = new ArrayList<>();
    /** The running gangs that end by some time, earliest first; computed on first use. */
    private List<RunningGang> ending;

    BackfillReservation(ClusterSnapshot snapshot, Map<GroupKey, RunningGang> running, CoschedulingArgs args,
                        Instant now) {
        this.snapshot = snapshot;
        this.running = running;
        this.args = args;
        this.now = now;
    }

    /**
     * Reserves for a head gang that did not fit now, if releasing running gangs in their end order makes
     * room for it; the fewest released, by bisection, since each release only adds room.
     */
    Reservation reserve(PendingGang head) {
        List<RunningGang> order = ending();
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
        ClusterSnapshot released = releasedCopy(order.subList(0, low));
        GangPlacement placement = trial(released, head);
        Set<String> nodes = new TreeSet<>();
        placement.placements().forEach(p -> nodes.add(p.nodeName()));
        Reservation reservation = new Reservation(head.gang().key(), order.get(low - 1).endsBy(), nodes);
        reservations.add(reservation);
        return reservation;
    }

    /** The gang as it may be tried without delaying any reservation: pinned off the nodes it must leave. */
    LocalityDomains.Pinned restrict(PendingGang gang) {
        Duration runtime = gang.gang().maxRuntime();
        Set<String> avoid = new HashSet<>();
        for (Reservation reservation : reservations) {
            if (!reservation.gang().equals(gang.gang().key())
                    && (runtime == null || now.plus(runtime).isAfter(reservation.start()))) {
                avoid.addAll(reservation.nodes());
            }
        }
        return avoid.isEmpty() ? null : NodeNamePin.pin(gang, NodeSelectorRequirement.Operator.NotIn, avoid);
    }

    private boolean fitsAfter(PendingGang head, int released) {
        GangPlacement placement = trial(releasedCopy(ending().subList(0, released)), head);
        return placement.placed() || placement.outcome() == GangPlacement.Outcome.ADMITTED;
    }

    /** The head gang's trial, or its admission when its workload creates its pods once admitted. */
    private GangPlacement trial(ClusterSnapshot copy, PendingGang head) {
        GangTrial trial = new GangTrial(copy, args.scoring(), args.localityTopologyKey());
        return head.expected().isEmpty() ? trial.attempt(head) : trial.admit(head);
    }

    private ClusterSnapshot releasedCopy(List<RunningGang> released) {
        Set<GroupKey> keys = new HashSet<>();
        released.forEach(gang -> keys.add(gang.gang().key()));
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

    private List<RunningGang> ending() {
        if (ending == null) {
            ending = running.values().stream().filter(gang -> gang.endsBy() != null)
                    .sorted(Comparator.comparing(RunningGang::endsBy)
                            .thenComparing(RunningGang::gang, GangOrder.PRIORITY_THEN_AGE))
                    .toList();
        }
        return ending;
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
