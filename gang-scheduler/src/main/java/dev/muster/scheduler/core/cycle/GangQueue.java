package dev.muster.scheduler.core.cycle;

import dev.muster.scheduler.core.model.GangInfo;
import dev.muster.scheduler.core.model.GroupKey;
import dev.muster.scheduler.core.model.PendingGang;
import dev.muster.scheduler.core.placement.GangPlacement;
import dev.muster.scheduler.core.placement.GangTrial;
import dev.muster.scheduler.core.queue.GangOrder;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Iterator;
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
 * <p>Internal to {@link QueuePlanner}, the one scheduling cycle: production, the simulator and the
 * benchmarks all plan through it, so no caller can run these semantics without the queues around them.
 *
 * <p>Pure and deterministic: time comes in as an argument. Not thread-safe; one cycle thread uses it.
 */
final class GangQueue {
    private final CoschedulingArgs args;
    /** What the queue remembers of each gang between cycles, from its first verdict worth remembering. */
    private final Map<GroupKey, GangEntry> entries = new HashMap<>();
    /** The one gang holding the reservation, if any; its entry says since when. */
    private GroupKey holder;

    GangQueue(CoschedulingArgs args) {
        this.args = args;
    }

    /** The gang holding the reservation, if any. */
    GroupKey reservationHolder() {
        return holder;
    }

    /** The gangs admitted and not yet placed. */
    Set<GroupKey> admitted() {
        Set<GroupKey> admitted = new HashSet<>();
        entries.forEach((key, entry) -> {
            if (entry.heldRoom != null) {
                admitted.add(key);
            }
        });
        return Collections.unmodifiableSet(admitted);
    }

    /**
     * Plans one cycle: gangs in backoff come back {@link GangPlacement.Outcome#BACKED_OFF} untried; the
     * others are tried (admitted gangs first, by when they were admitted, then the reservation holder, then
     * the gangs that are neither, in the sequence's order and only those it yields) on the cycle's trial
     * runner, which the caller may have used before, and may use after. Gangs not in {@code gangs} (placed,
     * or gone) are forgotten; an admitted one among them comes back {@link GangPlacement.Outcome#WITHDRAWN}.
     *
     * @return one result per gang: withdrawn and backed-off gangs first, then in the order tried
     */
    List<GangPlacement> plan(Collection<PendingGang> gangs, Instant now, TrialSequence sequence, GangTrial trial) {
        List<GangPlacement> results = new ArrayList<>(gangs.size());
        forgetAbsent(gangs, results);
        List<PendingGang> toTry = new ArrayList<>(gangs.size());
        List<PendingGang> admittedFirst = new ArrayList<>();
        PendingGang holding = null;
        for (PendingGang gang : gangs) {
            GroupKey key = gang.gang().key();
            GangEntry entry = entries.get(key);
            if (entry == null) {
                toTry.add(gang);
            } else if (entry.backoffUntil != null && now.isBefore(entry.backoffUntil)) {
                results.add(backedOff(gang, entry));
            } else if (entry.heldRoom != null) {
                admittedFirst.add(gang);
            } else if (key.equals(holder)) {
                holding = gang;
            } else {
                toTry.add(entry.failedAt == null ? gang : gang.failedAt(entry.failedAt));
            }
        }
        sequence.start(toTry, trial);
        List<PendingGang> first = new ArrayList<>(admittedFirst.size() + 1);
        admittedFirst.sort(Comparator
                .comparing((PendingGang gang) -> entries.get(gang.gang().key()).heldRoom.since())
                .thenComparing(PendingGang::gang, GangOrder.PRIORITY_THEN_AGE));
        first.addAll(admittedFirst);
        if (holding != null) {
            first.add(holding);
        }
        boolean failureSeen = false;
        Iterator<PendingGang> firstOnes = first.iterator();
        for (PendingGang gang = next(firstOnes, sequence); gang != null; gang = next(firstOnes, sequence)) {
            GroupKey key = gang.gang().key();
            boolean holds = key.equals(holder);
            if (holds && !now.isBefore(entries.get(key).reservedSince.plus(waitingTime(gang.gang())))) {
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
            result = sequence.tried(result);
            results.add(result);
            record(result, holds, now);
            failureSeen |= !result.placed() && result.outcome() != GangPlacement.Outcome.NOT_ENOUGH_PODS
                    && result.outcome() != GangPlacement.Outcome.ADMITTED;
        }
        return results;
    }

    /**
     * Records an admission made outside this queue's trials, as one of its own: a gang admitted to the
     * room evicted for it ({@link QueuePlanner}'s promises). It is then tried first in later cycles, as
     * admitted gangs are, so its room goes to no gang after it, and its admission timeout runs from now.
     */
    void recordAdmission(GangPlacement admission, Instant now) {
        if (admission.outcome() != GangPlacement.Outcome.ADMITTED) {
            throw new IllegalArgumentException("Not an admission: " + admission.outcome());
        }
        record(admission, false, now);
    }

    private static PendingGang next(Iterator<PendingGang> first, TrialSequence sequence) {
        return first.hasNext() ? first.next() : sequence.next();
    }

    /** Admits the gang, unless its admission expired now or lately. */
    private GangPlacement admit(GangTrial trial, PendingGang gang, Instant now) {
        GangEntry entry = entries.get(gang.gang().key());
        HeldRoom held = entry == null ? null : entry.heldRoom;
        if (held != null && !now.isBefore(held.since().plus(args.admissionTimeout()))) {
            entry.heldRoom = null;
            entry.noAdmissionUntil = now.plus(args.admissionTimeout());
            String why = "Admitted at " + held.since() + " but not placed within the admission timeout of "
                    + args.admissionTimeout().toSeconds() + "s; the room held for it is released.";
            return new GangPlacement(gang.gang(), GangPlacement.Outcome.NOT_ENOUGH_RESOURCES, List.of(),
                    gang.pending(), null, why);
        }
        Instant barredUntil = entry == null ? null : entry.noAdmissionUntil;
        if (barredUntil != null && now.isBefore(barredUntil)) {
            return new GangPlacement(gang.gang(), GangPlacement.Outcome.BACKED_OFF, List.of(), gang.pending(), null,
                    "Its admission expired without its pods being placed; not admitted again until "
                            + barredUntil + ".");
        }
        return trial.admit(gang);
    }

    private void record(GangPlacement result, boolean held, Instant now) {
        GroupKey key = result.gang().key();
        GangEntry known = entries.get(key);
        switch (result.outcome()) {
            case PLACED -> {
                if (known != null) {
                    known.failedAt = null;
                    known.heldRoom = null;
                    known.reservedSince = null;
                }
                if (held) {
                    holder = null;
                }
            }
            case ADMITTED -> {
                GangEntry entry = entry(key);
                entry.failedAt = null;
                if (entry.heldRoom == null) {
                    entry.heldRoom = new HeldRoom(result.gang(), now);
                }
            }
            case RESERVED -> {
                GangEntry entry = entry(key);
                entry.failedAt = now;
                entry.heldRoom = null;
                if (!held) {
                    holder = key;
                    entry.reservedSince = now;
                }
            }
            case NOT_ENOUGH_RESOURCES -> {
                GangEntry entry = entry(key);
                entry.failedAt = now;
                // The room promised to an admitted gang is gone (taken by pods of other schedulers, or its
                // pods turned out bigger than their templates): it starts over as a Pending gang.
                entry.heldRoom = null;
                if (held) {
                    release(key, now);
                }
                if (!result.nearQuorum()) {
                    backOff(entry, now, result.message());
                }
            }
            case NOT_ENOUGH_PODS -> {
                if (known != null) {
                    known.heldRoom = null;
                }
            }
            case BACKED_OFF, WITHDRAWN -> {
            }
        }
    }

    private GangEntry entry(GroupKey key) {
        return entries.computeIfAbsent(key, k -> new GangEntry());
    }

    private void release(GroupKey key, Instant now) {
        GangEntry entry = entries.get(key);
        Duration waited = Duration.between(entry.reservedSince, now);
        holder = null;
        entry.reservedSince = null;
        entry.noReservationUntil = now.plus(waited);
        backOff(entry, now, "Its reservation was released after " + waited.toSeconds()
                + "s without reaching the quorum.");
    }

    private void backOff(GangEntry entry, Instant now, String why) {
        if (!args.podGroupBackoff().isZero()) {
            entry.backoffUntil = now.plus(args.podGroupBackoff());
            entry.backoffReason = why;
        }
    }

    private boolean reservationBarred(GroupKey key, Instant now) {
        GangEntry entry = entries.get(key);
        return entry != null && entry.noReservationUntil != null && now.isBefore(entry.noReservationUntil);
    }

    private Duration waitingTime(GangInfo gang) {
        return gang.scheduleTimeout() != null ? gang.scheduleTimeout() : args.permitWaitingTime();
    }

    private static GangPlacement backedOff(PendingGang gang, GangEntry entry) {
        String message = entry.backoffReason + " Backing off until " + entry.backoffUntil + ".";
        return new GangPlacement(gang.gang(), GangPlacement.Outcome.BACKED_OFF, List.of(), gang.pending(), null,
                message);
    }

    private void forgetAbsent(Collection<PendingGang> gangs, List<GangPlacement> results) {
        Set<GroupKey> present = new HashSet<>();
        gangs.forEach(gang -> present.add(gang.gang().key()));
        for (var it = entries.entrySet().iterator(); it.hasNext(); ) {
            Map.Entry<GroupKey, GangEntry> absent = it.next();
            if (present.contains(absent.getKey())) {
                continue;
            }
            it.remove();
            HeldRoom held = absent.getValue().heldRoom;
            if (held != null) {
                results.add(new GangPlacement(held.gang(), GangPlacement.Outcome.WITHDRAWN, List.of(), List.of(),
                        null, "No longer waits for admission: its workload stopped waiting for its pods to be "
                        + "admitted (suspended, finished or deleted); the room held for it is released."));
            }
        }
        if (holder != null && !present.contains(holder)) {
            holder = null;
        }
    }

    /**
     * What the queue remembers of one gang across cycles. Every time-bound state of a gang lives here, so
     * that forgetting a gang is removing its entry, and a new state is one more field.
     */
    private static final class GangEntry {
        /** When a trial last found too little room; {@code null} once placed. */
        Instant failedAt;
        /** Not tried before this; {@code null}: not backing off. */
        Instant backoffUntil;
        /** Why it backs off, repeated in every cycle's verdict until then. */
        String backoffReason;
        /** Since when it holds the reservation; {@code null} while it holds none. */
        Instant reservedSince;
        /** May not reserve again before this, after a reservation released for waiting too long. */
        Instant noReservationUntil;
        /** The room promised to it while admitted; {@code null} when not admitted. */
        HeldRoom heldRoom;
        /** May not be admitted again before this, after an admission that expired. */
        Instant noAdmissionUntil;
    }

    /** The room promised to an admitted gang: which gang, as admitted, and since when it holds it. */
    private record HeldRoom(GangInfo gang, Instant since) {
    }
}
