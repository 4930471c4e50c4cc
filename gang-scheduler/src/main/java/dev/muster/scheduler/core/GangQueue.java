package dev.muster.scheduler.core;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
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
    private GroupKey holder;
    private Instant holdingSince;

    public GangQueue(CoschedulingArgs args) {
        this.args = args;
    }

    /** The gang holding the reservation, if any. */
    public GroupKey reservationHolder() {
        return holder;
    }

    /**
     * Plans one cycle: gangs in backoff come back {@link GangPlacement.Outcome#BACKED_OFF} untried; the
     * others are tried in order (the reservation holder first, then {@link GangOrder#QUEUE}) on the
     * snapshot. Gangs not in {@code gangs} (placed, or gone) are forgotten.
     *
     * @return one result per gang: backed-off gangs first, then in the order tried
     */
    public List<GangPlacement> plan(ClusterSnapshot snapshot, Collection<PendingGang> gangs, Instant now) {
        forgetAbsent(gangs);
        List<GangPlacement> results = new ArrayList<>(gangs.size());
        List<PendingGang> toTry = new ArrayList<>(gangs.size());
        PendingGang holding = null;
        for (PendingGang gang : gangs) {
            GroupKey key = gang.gang().key();
            Instant until = backoffUntil.get(key);
            if (until != null && now.isBefore(until)) {
                results.add(backedOff(gang, until));
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
            results.add(result);
            record(result, holds, now);
            failureSeen |= !result.placed() && result.outcome() != GangPlacement.Outcome.NOT_ENOUGH_PODS;
        }
        return results;
    }

    private void record(GangPlacement result, boolean held, Instant now) {
        GroupKey key = result.gang().key();
        switch (result.outcome()) {
            case PLACED -> {
                failedAt.remove(key);
                if (held) {
                    holder = null;
                }
            }
            case RESERVED -> {
                failedAt.put(key, now);
                if (!held) {
                    holder = key;
                    holdingSince = now;
                }
            }
            case NOT_ENOUGH_RESOURCES -> {
                failedAt.put(key, now);
                if (held) {
                    release(key, now);
                }
                if (!result.nearQuorum()) {
                    backOff(key, now, result.message());
                }
            }
            case NOT_ENOUGH_PODS, BACKED_OFF -> {
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

    private void forgetAbsent(Collection<PendingGang> gangs) {
        Set<GroupKey> present = new HashSet<>();
        gangs.forEach(gang -> present.add(gang.gang().key()));
        failedAt.keySet().retainAll(present);
        backoffUntil.keySet().retainAll(present);
        backoffReason.keySet().retainAll(present);
        noReservationUntil.keySet().retainAll(present);
        if (holder != null && !present.contains(holder)) {
            holder = null;
            holdingSince = null;
        }
    }
}
