package dev.muster.scheduler.core;

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
 * limits, preemption within a queue and reclaim across queues, and backfill around the head gang's
 * reservation, on top of {@link GangQueue}'s coscheduling semantics (backoff, the near-quorum
 * reservation, admission), which stay as they are.
 *
 * <p>Pure and deterministic: time comes in as an argument, and the cluster as a snapshot with the running
 * gangs. Keeps, across cycles, what {@link GangQueue} keeps and since when each gang waits. Not
 * thread-safe; one cycle thread uses it.
 */
public final class QueuePlanner {
    private final CoschedulingArgs args;
    private final GangQueue gangQueue;
    /** Since when each gang that is not placed has waited: the first cycle it was tried and did not start. */
    private final Map<GroupKey, Instant> waitingSince = new HashMap<>();

    public QueuePlanner(CoschedulingArgs args) {
        this.args = args;
        this.gangQueue = new GangQueue(args);
    }

    /**
     * Plans one cycle.
     *
     * @param snapshot the cluster, with every bound pod (terminating ones included) on its node; trials
     *                 place pods on it
     * @param gangs    gangs with pods to place or waiting for admission
     * @param running  gangs with pods bound, by key, for their queue, priority, start and {@code maxRuntime}
     * @param queues   every queue (the manager keeps {@link QueueInfo#DEFAULT} among them); gangs of any
     *                 other queue are held
     * @param now      the cycle's time
     */
    public CyclePlan plan(ClusterSnapshot snapshot, Collection<PendingGang> gangs, Map<GroupKey, RunningGang> running,
                          List<QueueInfo> queues, Instant now) {
        QueueTree tree = new QueueTree(queues);
        QueueLedger ledger = new QueueLedger(tree, snapshot, gangs, running);
        QueueOrder order = new QueueOrder(ledger, new BackfillReservation(snapshot, running, args, now));
        List<GangPlacement> placements = gangQueue.plan(snapshot, gangs, now, order);
        rememberWaiting(gangs, placements, order.holds(), now);
        List<QueueStanding> standings = new ArrayList<>(tree.size());
        for (int q = 0; q < tree.size(); q++) {
            standings.add(ledger.standing(q));
        }
        return new CyclePlan(placements, List.of(), order.holds(), standings);
    }

    /** Since when the gang waits, or {@code null} if it did not wait at the end of the last cycle. */
    Instant waitingSince(GroupKey gang) {
        return waitingSince.get(gang);
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
