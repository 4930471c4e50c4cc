package dev.muster.scheduler.core.cycle;

import dev.muster.api.scheduling.v1alpha1.QueueAccess;
import dev.muster.scheduler.core.model.PendingGang;
import dev.muster.scheduler.core.placement.GangPlacement;
import dev.muster.scheduler.core.placement.GangTrial;
import dev.muster.scheduler.core.preemption.BackfillReservation;
import dev.muster.scheduler.core.queue.GangOrder;
import dev.muster.scheduler.core.queue.MinResourcesGate;
import dev.muster.scheduler.core.queue.NamespaceQuotaGate;
import dev.muster.scheduler.core.queue.QueueHold;
import dev.muster.scheduler.core.queue.QueueLedger;
import dev.muster.scheduler.core.queue.QueueTree;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * The order of a cycle under queues: level by level from the root, the next gang comes from the child
 * queue below its guarantee (while it asks for it) first, else from the one with the lowest share, ties
 * by name, down to a leaf queue; inside a queue by
 * priority, then submission ({@link GangOrder#PRIORITY_THEN_AGE}). Shares follow every gang the cycle
 * places or admits, so queues take turns as they fill.
 *
 * <p>The first gang of a queue that cannot start gets a {@link BackfillReservation}; gangs tried after
 * it do not get the room it holds unless they end before it starts.
 *
 * <p>A gang of a Closed queue is not tried (it stays pending in its queue); nor is a gang whose start would
 * take its queue or an ancestor above its limit, nor one whose pods its namespace's ResourceQuotas would refuse
 * ({@link NamespaceQuotaGate}), nor (a guard for direct callers: the scheduler holds these
 * with {@code QueueAccess} first) one whose queue is not a leaf of the tree. Each is {@linkplain #holds() held}
 * with a message.
 */
final class QueueOrder implements TrialSequence {
    private final QueueLedger ledger;
    private final BackfillReservation backfill;
    private final NamespaceQuotaGate quotas;
    private final List<QueueHold> holds = new ArrayList<>();
    /** Leaf queues whose head gang holds a backfill reservation this cycle. */
    private final Set<Integer> reserved = new HashSet<>();
    /** The gang last yielded. */
    private PendingGang current;
    /** The cycle's trial runner, on which backfill holds reserved room. */
    private GangTrial trial;
    /** Per leaf queue index, its gangs in order; sorted by index so that a scan is deterministic. */
    private final Map<Integer, Deque<PendingGang>> byQueue = new TreeMap<>();

    /**
     * @param backfill the cycle's backfill reservations
     * @param quotas   the cycle's gate of namespace ResourceQuotas
     */
    QueueOrder(QueueLedger ledger, BackfillReservation backfill, NamespaceQuotaGate quotas) {
        this.ledger = ledger;
        this.backfill = backfill;
        this.quotas = quotas;
    }

    /** The gangs held so far this cycle. */
    List<QueueHold> holds() {
        return holds;
    }

    @Override
    public void start(List<PendingGang> gangs, GangTrial cycleTrial) {
        this.trial = cycleTrial;
        Map<Integer, List<PendingGang>> lists = new TreeMap<>();
        for (PendingGang gang : gangs) {
            // The scheduler holds a gang its queue refuses (QueueAccess) before the plan, but one of a Closed
            // queue, which keeps its place there and is held here with the same message. A direct caller that
            // gives a gang whose queue is not a leaf gets it back untried, never a guess at another queue.
            int leaf = ledger.leafOf(gang.gang().queue());
            if (leaf < 0) {
                holds.add(new QueueHold(gang.gang(), gang.pending(), QueueHold.Reason.QUEUE_NOT_FOUND,
                        "queue " + gang.gang().queue() + " is not a leaf of the queue tree"));
                continue;
            }
            if (!ledger.tree().queue(leaf).open()) {
                holds.add(new QueueHold(gang.gang(), gang.pending(), QueueHold.Reason.QUEUE_CLOSED,
                        QueueAccess.closedMessage(gang.gang().queue())));
                continue;
            }
            lists.computeIfAbsent(leaf, q -> new ArrayList<>()).add(gang);
        }
        lists.forEach((leaf, list) -> {
            list.sort((a, b) -> GangOrder.PRIORITY_THEN_AGE.compare(a.gang(), b.gang()));
            byQueue.put(leaf, new ArrayDeque<>(list));
        });
    }

    @Override
    public PendingGang next() {
        while (true) {
            int leaf = nextQueue();
            if (leaf < 0) {
                return null;
            }
            PendingGang gang = byQueue.get(leaf).poll();
            String over = ledger.limitExceeded(leaf, ledger.askedBy(gang));
            if (over != null) {
                holds.add(new QueueHold(gang.gang(), gang.pending(), QueueHold.Reason.QUEUE_LIMIT, over));
                continue;
            }
            String lacking = MinResourcesGate.shortfall(gang, trial);
            if (lacking != null) {
                holds.add(new QueueHold(gang.gang(), gang.pending(), QueueHold.Reason.MIN_RESOURCES, lacking));
                continue;
            }
            String quotaExceeded = quotas.exceededBy(gang);
            if (quotaExceeded != null) {
                holds.add(new QueueHold(gang.gang(), gang.pending(), QueueHold.Reason.NAMESPACE_QUOTA, quotaExceeded));
                continue;
            }
            current = gang;
            backfill.liftFor(gang);
            return gang;
        }
    }

    /**
     * The leaf queue to take the next gang from, or -1 when every queue is done: from the root down, the
     * child (with gangs left in its subtree) below its guarantee first, else the one with the lowest
     * share, ties by name, so that siblings are compared under their parent as fair share divides
     * among them, and a deep leaf of an over-served subtree does not go before an under-served queue.
     */
    private int nextQueue() {
        QueueTree tree = ledger.tree();
        boolean[] waiting = new boolean[tree.size()];
        byQueue.forEach((leaf, gangs) -> {
            for (int q = leaf; !gangs.isEmpty() && q != QueueTree.ROOT && !waiting[q]; q = tree.parent(q)) {
                waiting[q] = true;
            }
        });
        int at = QueueTree.ROOT;
        while (at == QueueTree.ROOT || !tree.leaf(at)) {
            int best = -1;
            for (int child : tree.children(at)) {
                if (waiting[child] && (best < 0 || goesBefore(child, best))) {
                    best = child;
                }
            }
            if (best < 0) {
                return -1;
            }
            at = best;
        }
        return at;
    }

    private boolean goesBefore(int queue, int other) {
        boolean below = ledger.belowGuarantee(queue);
        if (below != ledger.belowGuarantee(other)) {
            return below;
        }
        int byShare = Double.compare(ledger.share(queue), ledger.share(other));
        return byShare != 0 ? byShare < 0 : ledger.tree().queue(queue).name().compareTo(ledger.tree().queue(other).name()) < 0;
    }

    @Override
    public GangPlacement tried(GangPlacement result) {
        boolean yielded = current != null && current.gang().key().equals(result.gang().key());
        if (yielded) {
            backfill.rehold(trial);
            // The first gang of its queue that cannot start is the queue's head: it reserves.
            int leaf = ledger.leafOf(result.gang().queue());
            if (result.outcome() == GangPlacement.Outcome.NOT_ENOUGH_RESOURCES && leaf >= 0
                    && !reserved.contains(leaf) && backfill.reserve(current, trial) != null) {
                reserved.add(leaf);
            }
        }
        if (yielded) {
            if (result.outcome() == GangPlacement.Outcome.ADMITTED) {
                quotas.admitted(current);
            }
            current = null;
        }
        if (result.outcome() == GangPlacement.Outcome.PLACED || result.outcome() == GangPlacement.Outcome.ADMITTED) {
            ledger.allocate(result);
        }
        return result;
    }
}
