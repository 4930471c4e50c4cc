package dev.muster.scheduler.core.preemption;

import dev.muster.scheduler.core.model.PodInfo;
import dev.muster.scheduler.core.model.ResourceVector;
import dev.muster.scheduler.core.model.RunningGang;
import dev.muster.scheduler.core.queue.QueueLedger;
import dev.muster.scheduler.core.queue.QueueTree;

import java.util.List;
import java.util.Map;

/**
 * What a gang of one queue may reclaim from the others ({@code docs/queues.md}), as the {@link VictimBudget}
 * of its victim search. The two queues are compared at the level just below their common ancestor: the
 * waiting side {@code W} (the waiting queue or its ancestor there) and the victim side {@code V}. Taking
 * pods from {@code V}, with what the set took before, is allowed only if:
 *
 * <ul>
 *   <li>on every resource contended for the waiting gang ({@link QueueLedger#contendedFor}), {@code V}
 *       keeps at least its fair share (reclaim takes only what a queue holds above it), and the waiting
 *       queue, and {@code W}, hold at most their fair share with what the preemptor takes of the room
 *       freed (a queue never evicts in order to borrow);</li>
 *   <li>on every resource, {@code V} and the victim's own queue keep at least their guarantee;</li>
 *   <li>{@code W}'s share (on its dominant resource), with what the preemptor takes of the room freed, is
 *       then at most {@code V}'s without all the victims hold: a reclaim never turns the tables, so two
 *       queues cannot reclaim from each other in turn.</li>
 * </ul>
 *
 * <p>The victims lose all they hold, but the waiting side gains only what the preemptor takes of it: on
 * each resource at most what the victims free and at most what the preemptor requests. Victims that are
 * many small pods of cpu and memory free far more of these than one GPU-heavy preemptor takes; credited
 * to the waiting side, that surplus would make its share look far above the victim side's, and every
 * reclaim would be refused. The bound is the most the preemptor can take, so a reclaim allowed by it is
 * allowed by what is actually placed.
 *
 * <p>The fair-share rules leave out the resources that are not contended: where there is plenty (cpu and
 * memory on a GPU cluster, say) a queue's fair share is its demand, so no queue is above it and any pod
 * requesting some would block every reclaim, though freeing it costs no one their share.
 *
 * <p>Every rule only tightens as more is taken, so the budget is monotone, as the search wants.
 */
final class ReclaimBudget implements VictimBudget {
    /** Slack for comparing shares and fair shares, which are doubles. */
    private static final double EPSILON = 1e-9;

    private final QueueLedger ledger;
    private final QueueTree tree;
    private final int waitingLeaf;
    /** Per dimension, whether the fair-share rules apply to it: the resources contended for the waiting gang. */
    private final boolean[] contended;
    /** Per dimension, what the preemptor requests: the most it can take of the room freed. */
    private final long[] asked;
    /** The first refusal given, for the waiting gang's message; a note, never an input to an answer. */
    private ReclaimOutlook.Refusal firstRefusal;

    /**
     * @param contended per dimension, whether the fair-share rules apply ({@link QueueLedger#contendedFor})
     * @param asked     per dimension, what the preemptor's pods request ({@link QueueLedger#askedBy}); not changed
     */
    ReclaimBudget(QueueLedger ledger, int waitingLeaf, boolean[] contended, long[] asked) {
        this.ledger = ledger;
        this.tree = ledger.tree();
        this.waitingLeaf = waitingLeaf;
        this.contended = contended;
        this.asked = asked;
    }

    /** Whether the running gang's queue is one the waiting queue may reclaim from at all, before any take. */
    boolean candidate(RunningGang gang) {
        int victimLeaf = ledger.leafOf(gang.gang().queue());
        int[] sides = victimLeaf < 0 ? null : tree.sidesBelowCommonAncestor(waitingLeaf, victimLeaf);
        if (sides == null) {
            return false;
        }
        for (int d = 0; d < ledger.dims(); d++) {
            if (contended[d] && ledger.allocated(sides[1], d) > ledger.fair(sides[1], d) + EPSILON) {
                return true;
            }
        }
        return false;
    }

    @Override
    public boolean allows(RunningGang victim, List<PodInfo> pods, Map<String, ResourceVector> takenByQueue) {
        ReclaimOutlook.Refusal refusal = refusal(victim, pods, takenByQueue);
        if (refusal != null && firstRefusal == null) {
            firstRefusal = refusal;
        }
        return refusal == null;
    }

    /**
     * The first refusal the budget gave, for the waiting gang's message when no reclaim is made: the rule
     * that stopped the first victim it would have taken. {@code null} if it refused nothing.
     */
    ReclaimOutlook.Refusal firstRefusal() {
        return firstRefusal;
    }

    /** The rule that refuses taking the pods, with its figures; {@code null} when every rule allows it. */
    private ReclaimOutlook.Refusal refusal(RunningGang victim, List<PodInfo> pods,
                                           Map<String, ResourceVector> takenByQueue) {
        int victimLeaf = ledger.leafOf(victim.gang().queue());
        int[] sides = victimLeaf < 0 ? null : tree.sidesBelowCommonAncestor(waitingLeaf, victimLeaf);
        if (sides == null) {
            return ReclaimOutlook.Refusal.of(ReclaimOutlook.Rule.NOTHING_ABOVE_FAIR_SHARE, null, null);
        }
        int waitingSide = sides[0];
        int victimSide = sides[1];
        long[] these = QueueLedger.requests(pods);
        long[] fromVictimSide = these.clone();
        long[] fromVictimLeaf = these.clone();
        long[] total = these.clone();
        takenByQueue.forEach((queue, taken) -> {
            int leaf = ledger.leafOf(queue);
            QueueLedger.add(total, taken, 1);
            if (leaf >= 0 && tree.pathUp(leaf).contains(victimSide)) {
                QueueLedger.add(fromVictimSide, taken, 1);
            }
            if (leaf == victimLeaf) {
                QueueLedger.add(fromVictimLeaf, taken, 1);
            }
        });
        long[] toWaitingLeaf = takenByPreemptor(total);
        long[] toWaitingSide = takenByPreemptor(fromVictimSide);
        for (int d = 0; d < ledger.dims(); d++) {
            if (d == ResourceVector.PODS_DIM || these[d] == 0 && total[d] == 0) {
                continue;
            }
            if (below(victimLeaf, d, fromVictimLeaf[d])) {
                return belowGuarantee(victimLeaf, d, fromVictimLeaf[d]);
            }
            if (below(victimSide, d, fromVictimSide[d])) {
                return belowGuarantee(victimSide, d, fromVictimSide[d]);
            }
            if (!contended[d]) {
                continue;
            }
            if (ledger.allocated(victimSide, d) - fromVictimSide[d] < ledger.fair(victimSide, d) - EPSILON) {
                return refused(ReclaimOutlook.Rule.VICTIM_FAIR_SHARE, victimSide, d,
                        ledger.allocated(victimSide, d) - fromVictimSide[d], ledger.fair(victimSide, d));
            }
            if (ledger.allocated(waitingLeaf, d) + toWaitingLeaf[d] > ledger.fair(waitingLeaf, d) + EPSILON) {
                return refused(ReclaimOutlook.Rule.FAIR_SHARE_REACHED, waitingLeaf, d,
                        ledger.allocated(waitingLeaf, d) + toWaitingLeaf[d], ledger.fair(waitingLeaf, d));
            }
            if (ledger.allocated(waitingSide, d) + toWaitingSide[d] > ledger.fair(waitingSide, d) + EPSILON) {
                return refused(ReclaimOutlook.Rule.FAIR_SHARE_REACHED, waitingSide, d,
                        ledger.allocated(waitingSide, d) + toWaitingSide[d], ledger.fair(waitingSide, d));
            }
        }
        double waitingShare = ledger.shareWith(waitingSide, toWaitingSide, 1);
        double victimShare = ledger.shareWith(victimSide, fromVictimSide, -1);
        return waitingShare <= victimShare + EPSILON ? null
                : new ReclaimOutlook.Refusal(ReclaimOutlook.Rule.TABLES, tree.queue(waitingSide).name(), null,
                waitingShare, victimShare, tree.queue(victimSide).name());
    }

    private ReclaimOutlook.Refusal belowGuarantee(int queue, int dim, long taken) {
        return refused(ReclaimOutlook.Rule.GUARANTEE, queue, dim, ledger.allocated(queue, dim) - taken,
                tree.queue(queue).guarantee().at(dim));
    }

    private ReclaimOutlook.Refusal refused(ReclaimOutlook.Rule rule, int queue, int dim, double amount, double bound) {
        return new ReclaimOutlook.Refusal(rule, tree.queue(queue).name(), ResourceVector.nameOf(dim), amount, bound,
                null);
    }

    /** The most the preemptor takes of room freed: per dimension, what is freed, up to what it requests. */
    private long[] takenByPreemptor(long[] freed) {
        long[] taken = new long[freed.length];
        for (int d = 0; d < freed.length; d++) {
            taken[d] = Math.min(freed[d], d < asked.length ? asked[d] : 0);
        }
        return taken;
    }

    /** Whether the queue would hold less than its guarantee after giving up {@code taken}. */
    private boolean below(int queue, int dim, long taken) {
        return ledger.allocated(queue, dim) - taken < tree.queue(queue).guarantee().at(dim);
    }
}
