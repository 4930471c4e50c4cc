package dev.muster.scheduler.core.preemption;

import dev.muster.scheduler.core.model.GroupKey;
import dev.muster.scheduler.core.model.PendingGang;
import dev.muster.scheduler.core.model.QueuePreemption;
import dev.muster.scheduler.core.model.ResourceVector;
import dev.muster.scheduler.core.model.RunningGang;
import dev.muster.scheduler.core.placement.GangPlacement;
import dev.muster.scheduler.core.queue.GangOrder;
import dev.muster.scheduler.core.queue.QueueLedger;

import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/**
 * A cycle's preemption, after its placements: each gang that found too little room, those of leaf queues
 * below their guarantee first, then by their leaf queue's share, then by priority and age, may evict lower-priority gangs of its own queue ({@code withinQueue: LowerPriority}), else, once
 * it has waited its queue's {@code reclaimDelay}, reclaim from other queues within a {@link ReclaimBudget}.
 * The {@link VictimSearch} picks the victims and verifies node by node that the preemptor then fits; what
 * it keeps on the snapshot (victims evicted, the preemptor placed) is seen by the next preemptor's search,
 * and the ledger follows, so two preemptors never count on the same room or the same share.
 */
public final class PreemptionRound {
    private final QueueLedger ledger;
    private final Map<GroupKey, RunningGang> running;
    /** The running gangs of each leaf queue, in {@link #running}'s order: within-queue candidates. */
    private final Map<Integer, Map<GroupKey, RunningGang>> runningByLeaf = new HashMap<>();
    private final VictimSearch search;
    private final Instant now;
    private final Map<GroupKey, Instant> waitingSince;
    /** Per waiting gang while gangs of other queues run, where reclaim stands for it after the round. */
    private final Map<GroupKey, ReclaimOutlook> outlooks = new LinkedHashMap<>();

    /**
     * @param search       the cycle's victim search, which leaves out pods already terminating
     * @param waitingSince since when each gang waits; a gang absent from it starts waiting now
     */
    public PreemptionRound(QueueLedger ledger, Map<GroupKey, RunningGang> running, VictimSearch search, Instant now,
                    Map<GroupKey, Instant> waitingSince) {
        this.ledger = ledger;
        this.running = running;
        this.search = search;
        this.now = now;
        this.waitingSince = waitingSince;
        running.forEach((key, gang) -> runningByLeaf
                .computeIfAbsent(ledger.leafOf(gang.gang().queue()), leaf -> new LinkedHashMap<>()).put(key, gang));
    }

    /** A preemption made for one gang, under one rule, as evictions. */
    public record Made(PendingGang preemptor, Preemption preemption, List<Eviction> evictions) {
    }

    /** Tries each waiting gang in turn; the preemptions made, in the order made. */
    public List<Made> run(List<PendingGang> waiting) {
        List<PendingGang> order = new ArrayList<>(waiting);
        order.removeIf(gang -> leafOf(gang) < 0);
        order.sort(Comparator.comparing((PendingGang gang) -> !ledger.belowGuarantee(leafOf(gang)))
                .thenComparingDouble(gang -> ledger.share(leafOf(gang)))
                .thenComparing(PendingGang::gang, GangOrder.PRIORITY_THEN_AGE));
        List<Made> made = new ArrayList<>();
        for (PendingGang gang : order) {
            Made one = withinQueue(gang);
            if (one == null) {
                one = reclaim(gang);
            }
            if (one != null) {
                made.add(one);
            }
        }
        return made;
    }

    /**
     * Where reclaim stands, after {@link #run}, for each gang it tried that waits while gangs of other
     * queues run and did not preempt within its queue, in the order tried.
     */
    public List<ReclaimOutlook> outlooks() {
        return List.copyOf(outlooks.values());
    }

    /**
     * The result with its message followed by where reclaim stands for the gang, if it waits without
     * reclaiming; else the result as it is.
     */
    public GangPlacement explain(GangPlacement result) {
        ReclaimOutlook outlook = outlooks.get(result.gang().key());
        if (outlook == null || outlook.state() == ReclaimOutlook.State.RECLAIMING) {
            return result;
        }
        return new GangPlacement(result.gang(), result.outcome(), result.placements(), result.unplaced(),
                result.unschedulable(), result.message() + " " + outlook.message(), result.nearQuorum());
    }

    /** Where reclaim stands for the gang after the round; {@code null} if nothing was noted for it. */
    public ReclaimOutlook outlook(GroupKey gang) {
        return outlooks.get(gang);
    }

    private int leafOf(PendingGang gang) {
        return ledger.leafOf(gang.gang().queue());
    }

    private Made withinQueue(PendingGang gang) {
        int leaf = leafOf(gang);
        if (ledger.tree().queue(leaf).preemption().withinQueue() != QueuePreemption.WithinQueue.LOWER_PRIORITY) {
            return null;
        }
        Map<GroupKey, RunningGang> candidates = new LinkedHashMap<>();
        runningByLeaf.getOrDefault(leaf, Map.of()).forEach((key, other) -> {
            if (other.gang().priority() < gang.gang().priority()) {
                candidates.put(key, other);
            }
        });
        return candidates.isEmpty() ? null
                : made(gang, search.find(gang, candidates, VictimBudget.UNLIMITED), Eviction.Rule.WITHIN_QUEUE);
    }

    /**
     * Reclaims for the gang if its queue's rules let it, noting where reclaim stands for it; nothing is
     * noted when no gang of another queue runs, as reclaim is then beside the point.
     */
    private Made reclaim(PendingGang gang) {
        int leaf = leafOf(gang);
        if (runningByLeaf.keySet().stream().noneMatch(other -> other >= 0 && other != leaf)) {
            return null;
        }
        GroupKey key = gang.gang().key();
        String queue = ledger.tree().queue(leaf).name();
        QueuePreemption preemption = ledger.tree().queue(leaf).preemption();
        if (!preemption.reclaim()) {
            outlooks.put(key, ReclaimOutlook.blocked(key, queue,
                    ReclaimOutlook.Refusal.of(ReclaimOutlook.Rule.RECLAIM_DISABLED, queue, null)));
            return null;
        }
        boolean[] contended = ledger.contendedFor(gang);
        for (int d = 0; d < contended.length; d++) {
            if (contended[d] && ledger.capacity(d) == 0) {
                // No eviction frees any of it, and every queue's fair share of it is 0, which is no reason to give.
                outlooks.put(key, ReclaimOutlook.blocked(key, queue,
                        ReclaimOutlook.Refusal.of(ReclaimOutlook.Rule.NOT_IN_CLUSTER, null, ResourceVector.nameOf(d))));
                return null;
            }
        }
        ReclaimBudget budget = new ReclaimBudget(ledger, leaf, contended, ledger.askedBy(gang));
        Map<GroupKey, RunningGang> candidates = new LinkedHashMap<>();
        running.forEach((runningKey, other) -> {
            if (budget.candidate(other)) {
                candidates.put(runningKey, other);
            }
        });
        // Judged before the delay: a gang no running gang may be reclaimed for is told why now, not promised a
        // reclaim when its delay ends.
        if (candidates.isEmpty()) {
            outlooks.put(key, ReclaimOutlook.blocked(key, queue, noCandidate(leaf, contended, ledger.askedBy(gang))));
            return null;
        }
        Instant until = waitingSince.getOrDefault(key, now).plus(preemption.reclaimDelay());
        if (now.isBefore(until)) {
            outlooks.put(key, ReclaimOutlook.waiting(key, queue, until, preemption.reclaimDelay()));
            return null;
        }
        Made made = made(gang, search.find(gang, candidates, budget), Eviction.Rule.RECLAIM);
        if (made == null) {
            ReclaimOutlook.Refusal refusal = budget.firstRefusal();
            outlooks.put(key, ReclaimOutlook.blocked(key, queue, refusal != null ? refusal
                    : ReclaimOutlook.Refusal.of(ReclaimOutlook.Rule.NO_VICTIM_SET_FITS, null, null)));
        } else {
            outlooks.put(key, ReclaimOutlook.reclaiming(key, queue, made.preemption().victims().stream()
                    .map(victim -> new ReclaimOutlook.Victim(victim.key(), victim.gang().gang().queue())).toList()));
        }
        return made;
    }

    /**
     * Why no running gang may be reclaimed from: the waiting queue, or an ancestor, already holds its fair
     * share of a contended resource; else no other queue holds more than its fair share of one.
     */
    private ReclaimOutlook.Refusal noCandidate(int leaf, boolean[] contended, long[] asked) {
        List<String> contendedNames = new ArrayList<>();
        for (int d = 0; d < contended.length; d++) {
            if (!contended[d]) {
                continue;
            }
            contendedNames.add(ResourceVector.nameOf(d));
            for (int q : ledger.tree().pathUp(leaf)) {
                if (ledger.allocated(q, d) >= ledger.fair(q, d) - 1e-9) {
                    return new ReclaimOutlook.Refusal(ReclaimOutlook.Rule.FAIR_SHARE_REACHED,
                            ledger.tree().queue(q).name(), ResourceVector.nameOf(d),
                            ledger.allocated(q, d) + asked[d], ledger.fair(q, d), null);
                }
            }
        }
        // No resource short in all (the gang waits for a node big enough): none to name.
        return ReclaimOutlook.Refusal.of(ReclaimOutlook.Rule.NOTHING_ABOVE_FAIR_SHARE, null,
                contendedNames.isEmpty() ? null : String.join(", ", contendedNames));
    }

    private Made made(PendingGang gang, Optional<Preemption> found, Eviction.Rule rule) {
        if (found.isEmpty()) {
            return null;
        }
        Preemption preemption = found.get();
        int leaf = leafOf(gang);
        String standings = rule == Eviction.Rule.RECLAIM ? standingsBefore(leaf, preemption) : "";
        List<Eviction> evictions = new ArrayList<>();
        for (Preemption.Victim victim : preemption.victims()) {
            int victimLeaf = ledger.leafOf(victim.gang().gang().queue());
            victim.pods().forEach(p -> ledger.allocate(victimLeaf, p.pod().requests(), -1));
            evictions.add(new Eviction(victim.key(), victim.pods(), victim.whole(), gang.gang().key(), rule,
                    rule.reason() + ": " + preemption.message() + "." + standings));
        }
        ledger.allocate(preemption.placement());
        return new Made(gang, preemption, evictions);
    }

    /** The queues' shares before a reclaim, for its Events. */
    private String standingsBefore(int leaf, Preemption preemption) {
        StringBuilder text = new StringBuilder(" Queue ").append(ledger.tree().queue(leaf).name())
                .append(" share ").append(String.format(Locale.ROOT, "%.2f", ledger.share(leaf)));
        preemption.victims().stream().map(victim -> ledger.leafOf(victim.gang().gang().queue())).distinct()
                .forEach(q -> text.append(", queue ").append(ledger.tree().queue(q).name()).append(" share ")
                        .append(String.format(Locale.ROOT, "%.2f", ledger.share(q))));
        return text.append(" (allocation over fair share).").toString();
    }
}
