package dev.muster.scheduler.core;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The gangs' queue across cycles, with the coscheduling plugin's timing semantics
 * ({@link CoschedulingArgs}): which gangs failed and when (they sort behind those that did not), which
 * back off, and the one reservation a head gang near its quorum may hold.
 *
 * <ul>
 *   <li>A gang whose trial fails far from its quorum (more than {@code podGroupRejectPercentage} of
 *       minMember unplaced) backs off for {@code podGroupBackoff}, if that is positive: it is not tried
 *       until then. A gang near its quorum never backs off for failing.</li>
 *   <li>The first gang of a cycle to fail, if near its quorum and no other gang holds a reservation,
 *       keeps its partial placement as a reservation: it is tried first in every later cycle, so the
 *       room it holds goes to no other gang, until it is placed, falls below the threshold, or its
 *       waiting time ({@code scheduleTimeout} of the gang, else {@code permitWaitingTime}) passes. Then
 *       the reservation is released, the gang backs off (if backoff is on), and it may not reserve again
 *       for one more waiting time, so that it cannot hold the queue for ever. One reservation at a time
 *       means two gangs can never each hold part of what the other needs.</li>
 *   <li>A gang whose workload creates its pods only once the gang is admitted ({@link
 *       PendingGang#expected()}) is admitted when its quorum fits node by node ({@link GangTrial#admit}).
 *       Admitted gangs are tried first in every later cycle, in the order they were admitted, so the room
 *       promised to them goes to no gang admitted or placed after them. An admitted gang that is not
 *       placed within {@code admissionTimeout} loses its admission, backs off (if backoff is on) and is
 *       not admitted again for one more admission timeout; one that its workload stops waiting for is
 *       {@linkplain GangPlacement.Outcome#WITHDRAWN withdrawn}.</li>
 * </ul>
 *
 * <p>Pure and deterministic: time comes in as an argument. Not thread-safe; one cycle thread uses it.
 */
public final class GangQueue {
    private final CoschedulingArgs args;
    private final Map<GroupKey, Instant> failedAt = new HashMap<>();
    private final Map<GroupKey, Instant> backoffUntil = new HashMap<>();
    private final Map<GroupKey, String> backoffReason = new HashMap<>();
    private final Map<GroupKey, Instant> noReservationUntil = new HashMap<>();
    private final Map<GroupKey, Admission> admitted = new HashMap<>();
    private final Map<GroupKey, Instant> noAdmissionUntil = new HashMap<>();
    private GroupKey holder;
    private Instant holdingSince;

    public GangQueue(CoschedulingArgs args) {
        this.args = args;
    }

    /** The gang holding the reservation, if any. */
    public GroupKey reservationHolder() {
        return holder;
    }

    /** The gangs admitted and not yet placed. */
    public Set<GroupKey> admitted() {
        return Set.copyOf(admitted.keySet());
    }

    /**
     * Plans one cycle: gangs in backoff come back {@link GangPlacement.Outcome#BACKED_OFF} untried; the
     * others are tried in order (admitted gangs first, by when they were admitted, then the reservation
     * holder, then {@link GangOrder#QUEUE}) on the snapshot. Gangs not in {@code gangs} (placed, or gone)
     * are forgotten; an admitted one among them comes back {@link GangPlacement.Outcome#WITHDRAWN}.
     *
     * @return one result per gang: withdrawn and backed-off gangs first, then in the order tried
     */
    public List<GangPlacement> plan(ClusterSnapshot snapshot, Collection<PendingGang> gangs, Instant now) {
        List<GangPlacement> results = new ArrayList<>(gangs.size());
        forgetAbsent(gangs, results);
        List<PendingGang> toTry = new ArrayList<>(gangs.size());
        List<PendingGang> admittedFirst = new ArrayList<>();
        PendingGang holding = null;
        for (PendingGang gang : gangs) {
            GroupKey key = gang.gang().key();
            Instant until = backoffUntil.get(key);
            if (until != null && now.isBefore(until)) {
                results.add(backedOff(gang, until));
            } else if (admitted.containsKey(key)) {
                admittedFirst.add(gang);
            } else if (key.equals(holder)) {
                holding = gang;
            } else {
                Instant failed = failedAt.get(key);
                toTry.add(failed == null ? gang : gang.failedAt(failed));
            }
        }
        toTry.sort(GangOrder.QUEUE);
        if (holding != null) {
            toTry.add(0, holding);
        }
        admittedFirst.sort(Comparator.comparing((PendingGang gang) -> admitted.get(gang.gang().key()).since())
                .thenComparing(PendingGang::gang, GangOrder.PRIORITY_THEN_AGE));
        toTry.addAll(0, admittedFirst);
        GangTrial trial = new GangTrial(snapshot, args.scoring(), args.localityTopologyKey());
        boolean failureSeen = false;
        for (PendingGang gang : toTry) {
            GroupKey key = gang.gang().key();
            boolean holds = key.equals(holder);
            if (holds && !now.isBefore(holdingSince.plus(waitingTime(gang.gang())))) {
                release(key, now);
                holds = false;
            }
            boolean mayReserve = holds || holder == null && !failureSeen && !reservationBarred(key, now);
            boolean measureNearness = mayReserve || !args.podGroupBackoff().isZero();
            GangPlacement result = trial.attempt(gang, measureNearness ? args.podGroupRejectPercentage() : -1,
                    mayReserve);
            // Too few pods to place: a gang whose workload waits for admission is admitted instead. The
            // trial found that out from counts alone, before touching the snapshot.
            if (result.outcome() == GangPlacement.Outcome.NOT_ENOUGH_PODS && !gang.expected().isEmpty()) {
                result = admit(trial, gang, now);
            }
            results.add(result);
            record(result, holds, now);
            failureSeen |= !result.placed() && result.outcome() != GangPlacement.Outcome.NOT_ENOUGH_PODS
                    && result.outcome() != GangPlacement.Outcome.ADMITTED;
        }
        return results;
    }

    /** Admits the gang, unless its admission expired now or lately. */
    private GangPlacement admit(GangTrial trial, PendingGang gang, Instant now) {
        GroupKey key = gang.gang().key();
        Admission admission = admitted.get(key);
        if (admission != null && !now.isBefore(admission.since().plus(args.admissionTimeout()))) {
            admitted.remove(key);
            noAdmissionUntil.put(key, now.plus(args.admissionTimeout()));
            String why = "Admitted at " + admission.since() + " but not placed within the admission timeout of "
                    + args.admissionTimeout().toSeconds() + "s; the room held for it is released.";
            return new GangPlacement(gang.gang(), GangPlacement.Outcome.NOT_ENOUGH_RESOURCES, List.of(),
                    gang.pending(), null, why);
        }
        Instant barredUntil = noAdmissionUntil.get(key);
        if (barredUntil != null && now.isBefore(barredUntil)) {
            return new GangPlacement(gang.gang(), GangPlacement.Outcome.BACKED_OFF, List.of(), gang.pending(), null,
                    "Its admission expired without its pods being placed; not admitted again until "
                            + barredUntil + ".");
        }
        return trial.admit(gang);
    }

    private void record(GangPlacement result, boolean held, Instant now) {
        GroupKey key = result.gang().key();
        switch (result.outcome()) {
            case PLACED -> {
                failedAt.remove(key);
                admitted.remove(key);
                if (held) {
                    holder = null;
                }
            }
            case ADMITTED -> {
                failedAt.remove(key);
                admitted.putIfAbsent(key, new Admission(result.gang(), now));
            }
            case RESERVED -> {
                failedAt.put(key, now);
                admitted.remove(key);
                if (!held) {
                    holder = key;
                    holdingSince = now;
                }
            }
            case NOT_ENOUGH_RESOURCES -> {
                failedAt.put(key, now);
                // The room promised to an admitted gang is gone (taken by pods of other schedulers, or its
                // pods turned out bigger than their templates): it starts over as a Pending gang.
                admitted.remove(key);
                if (held) {
                    release(key, now);
                }
                if (!result.nearQuorum()) {
                    backOff(key, now, result.message());
                }
            }
            case NOT_ENOUGH_PODS -> admitted.remove(key);
            case BACKED_OFF, WITHDRAWN -> {
            }
        }
    }

    private void release(GroupKey key, Instant now) {
        Duration waited = Duration.between(holdingSince, now);
        holder = null;
        holdingSince = null;
        noReservationUntil.put(key, now.plus(waited));
        backOff(key, now, "Its reservation was released after " + waited.toSeconds()
                + "s without reaching the quorum.");
    }

    private void backOff(GroupKey key, Instant now, String why) {
        if (!args.podGroupBackoff().isZero()) {
            backoffUntil.put(key, now.plus(args.podGroupBackoff()));
            backoffReason.put(key, why);
        }
    }

    private boolean reservationBarred(GroupKey key, Instant now) {
        Instant until = noReservationUntil.get(key);
        return until != null && now.isBefore(until);
    }

    private Duration waitingTime(GangInfo gang) {
        return gang.scheduleTimeout() != null ? gang.scheduleTimeout() : args.permitWaitingTime();
    }

    private GangPlacement backedOff(PendingGang gang, Instant until) {
        String message = backoffReason.get(gang.gang().key()) + " Backing off until " + until + ".";
        return new GangPlacement(gang.gang(), GangPlacement.Outcome.BACKED_OFF, List.of(), gang.pending(), null,
                message);
    }

    private void forgetAbsent(Collection<PendingGang> gangs, List<GangPlacement> results) {
        Set<GroupKey> present = new HashSet<>();
        gangs.forEach(gang -> present.add(gang.gang().key()));
        for (var it = admitted.values().iterator(); it.hasNext(); ) {
            Admission admission = it.next();
            if (!present.contains(admission.gang().key())) {
                it.remove();
                results.add(new GangPlacement(admission.gang(), GangPlacement.Outcome.WITHDRAWN, List.of(), List.of(),
                        null, "No longer waits for admission: its workload stopped waiting for its pods to be "
                        + "admitted (suspended, finished or deleted); the room held for it is released."));
            }
        }
        noAdmissionUntil.keySet().retainAll(present);
        failedAt.keySet().retainAll(present);
        backoffUntil.keySet().retainAll(present);
        backoffReason.keySet().retainAll(present);
        noReservationUntil.keySet().retainAll(present);
        if (holder != null && !present.contains(holder)) {
            holder = null;
            holdingSince = null;
        }
    }

    /** An admitted gang, and since when. */
    private record Admission(GangInfo gang, Instant since) {
    }
}
