package dev.muster.scheduler.core.cycle;

import dev.muster.scheduler.core.cluster.ClusterSnapshot;
import dev.muster.scheduler.core.model.GroupKey;
import dev.muster.scheduler.core.model.PendingGang;
import dev.muster.scheduler.core.model.QueueInfo;
import dev.muster.scheduler.core.model.RunningGang;
import dev.muster.scheduler.core.placement.GangPlacement;
import dev.muster.scheduler.core.placement.GangTrial;
import dev.muster.scheduler.core.preemption.BackfillReservation;
import dev.muster.scheduler.core.preemption.Eviction;
import dev.muster.scheduler.core.preemption.PreemptionRound;
import dev.muster.scheduler.core.preemption.Promises;
import dev.muster.scheduler.core.preemption.ReclaimOutlook;
import dev.muster.scheduler.core.preemption.VictimSearch;
import dev.muster.scheduler.core.queue.QueueHold;
import dev.muster.scheduler.core.queue.NamespaceQuotaGate;
import dev.muster.scheduler.core.queue.QueueLedger;
import dev.muster.scheduler.core.queue.QueueStanding;
import dev.muster.scheduler.core.queue.QueueTree;

import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The scheduling cycle under queues (see {@code docs/queues.md}): fair shares, the queues' order and
 * limits, preemption within a queue and reclaim across queues, and backfill around each queue's head
 * gang, on top of {@code GangQueue}'s coscheduling semantics (backoff, the near-quorum reservation,
 * admission), which stay as they are.
 *
 * <p>A cycle: the gangs promised room by earlier evictions are tried first ({@link Promises}); then the
 * others in the queues' order ({@link QueueOrder}) through {@code GangQueue}, with backfill
 * ({@link BackfillReservation}); then the gangs that found too little room may preempt
 * ({@link PreemptionRound}). Evicted room is not bound in the cycle that frees it: the victims terminate
 * first, and the preemptor is held ({@link QueueHold.Reason#PREEMPTING}) until then.
 *
 * <p>Pure and deterministic: time comes in as an argument, and the cluster as a snapshot with the running
 * gangs. Keeps, across cycles, what {@code GangQueue} keeps, the promises, and since when each gang waits.
 * Not thread-safe; one cycle thread uses it.
 */
public final class QueuePlanner {
    private final CoschedulingArgs args;
    private final GangQueue gangQueue;
    private final Promises promises = new Promises();
    /** Since when each gang that is not placed has waited: the first cycle it was tried and did not start. */
    private final Map<GroupKey, Instant> waitingSince = new HashMap<>();

    public QueuePlanner(CoschedulingArgs args) {
        this.args = args;
        this.gangQueue = new GangQueue(args);
    }

    /**
     * The gang holding the coscheduling reservation, if any: the head gang near its quorum whose partial
     * placement keeps its room from later gangs (see {@code docs/scheduling.md}). For callers that drive
     * cycles by events rather than by a period, such as the simulator: a new or released reservation is a
     * timer whose end changes the next cycle's outcome.
     */
    public GroupKey reservationHolder() {
        return gangQueue.reservationHolder();
    }

    /** The gangs admitted and not yet placed. */
    Set<GroupKey> admitted() {
        return gangQueue.admitted();
    }

    /**
     * Plans one cycle.
     *
     * @param snapshot the cluster, with every bound pod (terminating ones included) on its node; trials
     *                 place pods on it
     * @param gangs    gangs with pods to place or waiting for admission
     * @param running  gangs with pods bound, by key, for their queue, priority, start and {@code maxRuntime};
     *                 the candidates for eviction and what backfill waits for
     * @param queues   every queue (the manager keeps {@link QueueInfo#DEFAULT} among them); gangs of any
     *                 other queue are held
     * @param now      the cycle's time
     */
    public CyclePlan plan(ClusterSnapshot snapshot, Collection<PendingGang> gangs, Map<GroupKey, RunningGang> running,
                          List<QueueInfo> queues, Instant now) {
        QueueTree tree = new QueueTree(queues);
        QueueLedger ledger = new QueueLedger(tree, snapshot, gangs, running);
        promises.retain(gangs);
        promises.attribute(ledger, snapshot);

        List<GangPlacement> placements = new ArrayList<>();
        List<QueueHold> holds = new ArrayList<>();
        // One trial runner for the whole cycle: promises, the queues' order with backfill, then the victim
        // searches, each seeing what the ones before kept, with the shape indexes built once.
        GangTrial trial = new GangTrial(snapshot, args.scoring(), args.localityTopologyKey());
        List<PendingGang> others = tryPromised(trial, snapshot, gangs, ledger, placements, holds);
        QueueOrder order = new QueueOrder(ledger, new BackfillReservation(snapshot, running, now),
                new NamespaceQuotaGate(snapshot.namespaceQuotas(), snapshot.expectedPodQuotaFacts(), gangs));
        List<GangPlacement> admittedByPromise = placements.stream()
                .filter(result -> result.outcome() == GangPlacement.Outcome.ADMITTED).toList();
        placements.addAll(gangQueue.plan(others, now, order, trial));
        // A promise ends with the admission, while the pods are still to be created: from the next cycle
        // on the gang queue holds the room, as for the gangs it admits itself, and tries the gang first.
        // Recorded after this cycle's plan, which leaves the promised gangs out and would forget them.
        admittedByPromise.forEach(result -> gangQueue.recordAdmission(result, now));
        holds.addAll(order.holds());

        List<PendingGang> waiting = new ArrayList<>();
        Set<GroupKey> failed = new HashSet<>();
        placements.forEach(result -> {
            if (result.outcome() == GangPlacement.Outcome.NOT_ENOUGH_RESOURCES) {
                failed.add(result.gang().key());
            }
        });
        others.forEach(gang -> {
            if (failed.contains(gang.gang().key())) {
                waiting.add(gang);
            }
        });
        // Pods evicted for a promise are terminating: their room is promised already, and they no longer
        // count toward their gang's quorum, so that taking more of the gang cannot break it.
        Set<String> terminating = promises.evicted();
        VictimSearch search = terminating.isEmpty() ? new VictimSearch(trial)
                : new VictimSearch(trial, pod -> terminating.contains(Promises.key(pod)));
        List<Eviction> evictions = new ArrayList<>();
        PreemptionRound round = new PreemptionRound(ledger, running, search, now, waitingSince);
        for (PreemptionRound.Made made : round.run(waiting)) {
            GroupKey key = made.preemptor().gang().key();
            promises.add(made.preemption());
            evictions.addAll(made.evictions());
            placements.removeIf(result -> result.gang().key().equals(key));
            ReclaimOutlook reclaiming = round.outlook(key);
            holds.add(new QueueHold(made.preemptor().gang(), made.preemptor().pending(), QueueHold.Reason.PREEMPTING,
                    reclaiming != null ? reclaiming.message() : "Preempting: " + made.preemption().message()
                            + "; it waits for the evicted pods to terminate, and their room is held for it."));
        }
        placements.replaceAll(round::explain);
        rememberWaiting(gangs, placements, holds, now);
        List<QueueStanding> standings = new ArrayList<>(tree.size());
        for (int q = 0; q < tree.size(); q++) {
            standings.add(ledger.standing(q));
        }
        return new CyclePlan(placements, evictions, holds, standings, round.outlooks());
    }

    /**
     * Tries the promised gangs, oldest promise first, each keeping the room its departed victims freed until
     * the last is gone; a gang admitted there is handed to the gang queue as admitted. Returns the gangs left
     * for the queues' order.
     */
    private List<PendingGang> tryPromised(GangTrial trial, ClusterSnapshot snapshot, Collection<PendingGang> gangs,
                                          QueueLedger ledger, List<GangPlacement> placements, List<QueueHold> holds) {
        List<PendingGang> others = new ArrayList<>();
        Map<GroupKey, PendingGang> promised = new HashMap<>();
        for (PendingGang gang : gangs) {
            if (promises.has(gang.gang().key())) {
                promised.put(gang.gang().key(), gang);
            } else {
                others.add(gang);
            }
        }
        if (promised.isEmpty()) {
            return others;
        }
        for (GroupKey key : List.copyOf(promises.gangs())) {
            PendingGang gang = promised.get(key);
            GangPlacement result = promises.attempt(trial, gang, snapshot);
            if (result.placed() || result.outcome() == GangPlacement.Outcome.ADMITTED) {
                promises.drop(key);
                placements.add(result);
                ledger.allocate(result);
            } else if (result.outcome() == GangPlacement.Outcome.RESERVED) {
                // Its victims still terminate; the result says how many.
                holds.add(new QueueHold(gang.gang(), gang.pending(), QueueHold.Reason.PREEMPTING, result.message()));
            } else {
                promises.drop(key);
                placements.add(new GangPlacement(gang.gang(), GangPlacement.Outcome.NOT_ENOUGH_RESOURCES, List.of(),
                        gang.pending(), result.unschedulable(),
                        "Its victims are gone, yet it does not fit on the nodes they freed (pods bound by others took "
                                + "the room); it waits in its queue again."));
            }
        }
        return others;
    }

    private void rememberWaiting(Collection<PendingGang> gangs, List<GangPlacement> placements, List<QueueHold> holds,
                                 Instant now) {
        Set<GroupKey> present = new HashSet<>();
        gangs.forEach(gang -> present.add(gang.gang().key()));
        waitingSince.keySet().retainAll(present);
        for (GangPlacement result : placements) {
            GroupKey key = result.gang().key();
            if (result.placed() || result.outcome() == GangPlacement.Outcome.ADMITTED) {
                waitingSince.remove(key);
            } else if (result.outcome() != GangPlacement.Outcome.WITHDRAWN) {
                waitingSince.putIfAbsent(key, now);
            }
        }
        holds.forEach(hold -> waitingSince.putIfAbsent(hold.gang().key(), now));
    }
}
