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
 * Gangs tried after it may then start only where they do not delay it: anywhere if they end before the
 * start ({@code now + maxRuntime <= start}), else only on nodes the reservation does not need. Gangs
 * without {@code maxRuntime} never delay a reservation: they only get the other nodes. When releasing
 * every running gang that has a {@code maxRuntime} does not make room for the head gang, there is no
 * reservation and later gangs go anywhere, as without queues.
 *
 * <p>The reserved room is counted in whole nodes: a gang that would end after the start stays off a
 * reserved node even if the head gang would leave part of it free, which keeps the start time safe
 * without tracking room within a node over time.
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
    Reservation reserve(PendingGang head) {
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
        return avoid.isEmpty() || !roomOn(avoid, gang) ? null
                : NodeNamePin.pin(gang, NodeSelectorRequirement.Operator.NotIn, avoid);
    }

    /**
     * Whether some pod of the gang fits the free room of one of the nodes by its requests. When none does,
     * keeping the gang off them changes nothing, and it is tried unpinned: a pinned pod is a new shape,
     * whose node index a trial builds anew, which is what a full cluster would pay for every waiting gang.
     */
    private boolean roomOn(Set<String> nodes, PendingGang gang) {
        Set<ResourceVector> requests = new HashSet<>();
        gang.pending().forEach(pod -> requests.add(pod.requests()));
        gang.expected().forEach(pod -> requests.add(pod.requests()));
        for (String name : nodes) {
            NodeState node = snapshot.node(name).orElse(null);
            if (node != null && requests.stream().anyMatch(request -> node.slotsFor(request) > 0)) {
                return true;
            }
        }
        return false;
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
