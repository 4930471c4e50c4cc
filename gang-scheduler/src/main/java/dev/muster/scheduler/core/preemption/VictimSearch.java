package dev.muster.scheduler.core.preemption;

import dev.muster.scheduler.core.cluster.NodeState;
import dev.muster.scheduler.core.cluster.ResourceTally;
import dev.muster.scheduler.core.model.GangInfo;
import dev.muster.scheduler.core.model.GroupKey;
import dev.muster.scheduler.core.model.PendingGang;
import dev.muster.scheduler.core.model.PodInfo;
import dev.muster.scheduler.core.model.PodShape;
import dev.muster.scheduler.core.model.ResourceVector;
import dev.muster.scheduler.core.model.RunningGang;
import dev.muster.scheduler.core.placement.GangPlacement;
import dev.muster.scheduler.core.placement.GangTrial;
import dev.muster.scheduler.core.placement.PlacementStatement;
import dev.muster.scheduler.core.placement.PodPlacement;
import dev.muster.scheduler.core.placement.QuorumBounds;

import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.Collections;
import java.util.Comparator;
import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.function.Predicate;

/**
 * Preemption's victim search: which pods of running gangs to evict so that a waiting gang (the
 * preemptor) fits, without breaking any gang below its quorum.
 *
 * <p>A victim unit is either one <em>surplus</em> member of a running gang or the <em>whole</em> gang,
 * every member still running. A set takes a surplus member only if, without it and the set's surplus
 * members before it, the gang keeps its minMember and the member's task its minTaskMember, so no set
 * leaves a gang with {@code 0 < running < minMember} or a task below its minimum. Units are preferred in
 * this order: surplus members before whole gangs (the fewest gangs broken), then the victim gang with the
 * lowest priority, the fewest {@linkplain RunningGang#evictions() evictions}, the latest
 * {@linkplain GangInfo#createdAt() creation} ({@link #VICTIM_ORDER}); within a gang, its newest pods
 * first ({@link PodInfo#createdAt()}).
 *
 * <p>A set is weighed only if the {@link VictimBudget} allows each of its units, and kept only if the
 * preemptor's {@link GangTrial} then places (or admits) it node by node on the snapshot with the set's
 * pods evicted ({@link PlacementStatement#evict}). The search takes the shortest prefix of the allowed
 * units, in preference order, with which the preemptor's quorum fits; while that prefix holds surplus
 * members only, it grows, among surplus members, as far as more of the preemptor's pods then fit (whole
 * gangs are broken only for the preemptor's quorum). It then drops units, least preferred first and
 * again until none can go, while the preemptor still fits with at least as many pods: every unit
 * returned is needed, and no pod is evicted for room the preemptor would not take.
 *
 * <p>What the search does not try: a unit the budget refuses after the allowed units before it (in
 * preference order) is in no set weighed, so a refusing budget may hide a set it would allow; and a
 * preemptor the trial does not place with every allowed unit evicted gets no preemption, although, a
 * trial packing greedily, a smaller set might in rare cases let it fit. Short of these, when no
 * preemption is returned, no gang-safe victim set of the candidates makes the preemptor fit. The fewest
 * gangs broken is sought by taking surplus members before any gang whole, by dropping every unit not
 * needed, and, when that still breaks several gangs, by looking for one gang (the first in preference
 * order) that with surplus members makes room alone; sets breaking two or more gangs are not compared
 * with each other by count, only by the preference order.
 *
 * <p>Cost, for P pods on n nodes, V of them the candidates', U allowed units and S units kept: one pass
 * over the pods, O(P), finds the candidates' pods, and O(V log V) sorts them. Before any trial, a
 * pre-check per node and pod shape of the preemptor counts the slots of the free room, and of the free
 * room plus the room of the candidates' pods there, O(n) per shape: only pods whose eviction can add
 * such a slot become units, and a preemptor whose quorum exceeds the slots in all is rejected at once
 * (the trial's own pre-check, with every unit evicted). A trial then
 * evicts a set's pods, O(k log n) for k pods as the shape indexes rescore only the nodes touched, and
 * rejects from slot counts a set that cannot make room before placing anything. The shortest prefix is
 * found by galloping and then binary search, O(log L) trials of at most 2L units for a prefix of L, so a
 * preemptor that needs little room costs trials of few units; dropping costs O(S) trials per pass, and
 * passes repeat only when dropping one unit lets another go. The budget is asked O(U) times to filter
 * the units and O(S) per trial.
 *
 * <p>Not thread-safe: the cycle thread owns the trial runner and its snapshot.
 */
public final class VictimSearch {
    /**
     * Victim gangs in the order they are taken: the lowest priority, then the fewest evictions, then
     * the latest created; the key, last first, breaks the remaining ties so the search is deterministic.
     * Creation times have whole seconds, and gangs submitted in one second are usually named in the order
     * they were made ({@code run-1}, {@code run-2}), so among them the last name counts as the newest, as
     * for a gang's own pods.
     */
    static final Comparator<RunningGang> VICTIM_ORDER = Comparator
            .comparingInt((RunningGang running) -> running.gang().priority())
            .thenComparingInt(RunningGang::evictions)
            .thenComparing(running -> running.gang().createdAt(), Comparator.reverseOrder())
            .thenComparing(running -> running.gang().key().toString(), Comparator.reverseOrder());

    /** A gang's members newest first; an unknown creation time counts as the oldest; then by name, last first. */
    private static final Comparator<Member> NEWEST_FIRST = Comparator
            .comparing((Member member) -> member.pod().createdAt(),
                    Comparator.nullsLast(Comparator.<Instant>reverseOrder()))
            .thenComparing(member -> member.pod().name(), Comparator.reverseOrder())
            .thenComparing(member -> member.node().name());

    private final GangTrial trial;
    /** Pods evicted earlier and still terminating: neither members of their gang nor to be taken. */
    private final Predicate<PodInfo> terminating;

    /**
     * A search on the cycle's trial runner, so that what the search keeps (evictions and the preemptor's
     * placement) is seen by the trials of the gangs after it, and what earlier trials of the cycle kept
     * is seen by the search.
     */
    public VictimSearch(GangTrial trial) {
        this(trial, pod -> false);
    }

    /**
     * A search that leaves out pods already terminating (evicted in an earlier cycle): they still take
     * their room, but they no longer count toward their gang's quorum and are never taken again.
     */
    public VictimSearch(GangTrial trial, Predicate<PodInfo> terminating) {
        this.trial = Objects.requireNonNull(trial, "trial");
        this.terminating = Objects.requireNonNull(terminating, "terminating");
    }

    /**
     * Finds the victims that make room for the preemptor, as the class comment says.
     *
     * <p>When a preemption is returned, the snapshot keeps the victims' pods evicted and the preemptor's
     * placement (or admission) made, as a gang trial that places keeps its placement: the freed room is
     * the preemptor's for the rest of the cycle, and the caller evicts the victims and binds (or admits)
     * the preemptor. When none is returned, the snapshot is exactly as before.
     *
     * <p>Only pods that were bound when the snapshot was taken, and that no statement of the cycle took
     * off their node since (an earlier preemption), are taken. A gang's members are those pods; pods
     * placed earlier in the cycle are not taken.
     *
     * @param preemptor  the waiting gang: its pending pods, or, for a gang whose workload creates its pods
     *                   once admitted, the pods its quorum needs counting the {@linkplain PendingGang#expected()
     *                   expected} ones (as {@link GangTrial#admit})
     * @param candidates the running gangs the preemptor may take from, already chosen by the caller's
     *                   rules (queue, priority); the preemptor's own key is ignored
     * @param budget     what may be taken from them
     * @return the verified preemption; empty when its pods are too few for its quorum, when no allowed
     *         set makes its quorum fit, or when it fits without evictions (placing every pending pod, or
     *         admitted) or no allowed surplus member lets more of its pods fit
     */
    public Optional<Preemption> find(PendingGang preemptor, Map<GroupKey, RunningGang> candidates,
                                     VictimBudget budget) {
        Objects.requireNonNull(preemptor, "preemptor");
        Objects.requireNonNull(candidates, "candidates");
        Objects.requireNonNull(budget, "budget");
        QuorumBounds quorum = QuorumBounds.of(preemptor, -1);
        boolean admission = quorum.missingPods(preemptor) != null;
        List<PodInfo> toPlace = admission ? QuorumBounds.withExpected(preemptor) : preemptor.pending();
        if (toPlace == null || toPlace.isEmpty() || admission && preemptor.expected().isEmpty()) {
            return Optional.empty();
        }
        SlotCounts counts = new SlotCounts(toPlace, quorum.needed());
        return new Search(preemptor, admission, budget).run(counts, candidates);
    }

    /**
     * Every victim unit in preference order: surplus members of the gangs in {@link #VICTIM_ORDER},
     * each gang's newest first, then the gangs whole in that order. A gang is a whole unit if some pod of
     * the preemptor could run on one of its members' nodes with every candidate's pods there evicted. A
     * member is a surplus unit only if evicting it frees what its node is short of (a resource it
     * requests, or a pod slot) for a shape of the preemptor's pods that the free room lacks: a surplus
     * member of a gang that frees nothing useful would use up the gang's surplus in place of one that
     * does.
     *
     * @return the units; empty when, by slot counts per pod shape over the free room plus the room of
     *         every candidate's pods, the preemptor's quorum cannot fit, as the trial would find with
     *         every unit evicted
     */
    private List<Unit> units(PendingGang preemptor, SlotCounts counts, Map<GroupKey, RunningGang> candidates) {
        long[] free = new long[counts.shapes()];
        long[] withEvicted = new long[counts.shapes()];
        List<NodeRoom> rooms = new ArrayList<>();
        for (NodeState node : trial.nodes()) {
            List<PodInfo> takeable = takeable(node, preemptor.gang().key(), candidates);
            long[] now = counts.onNode(node, List.of());
            long[] with = takeable.isEmpty() ? now : counts.onNode(node, takeable);
            SlotCounts.add(free, now, 1);
            SlotCounts.add(withEvicted, with, 1);
            if (!takeable.isEmpty()) {
                rooms.add(new NodeRoom(node, takeable, now, with));
            }
        }
        if (!counts.holdQuorum(withEvicted)) {
            return List.of();
        }
        boolean[] lacking = counts.lacking(free);
        Map<GroupKey, Candidate> byKey = new HashMap<>();
        for (NodeRoom room : rooms) {
            boolean useful = SlotCounts.any(room.with());
            boolean[] shortOf = counts.shortOf(room.node(), lacking, room.now(), room.with());
            for (PodInfo pod : room.takeable()) {
                byKey.computeIfAbsent(pod.group(), key -> new Candidate(candidates.get(key)))
                        .members.add(new Member(pod, room.node(), useful, frees(pod, shortOf)));
            }
        }
        List<Candidate> gangs = new ArrayList<>(byKey.values());
        gangs.sort(Comparator.comparing(candidate -> candidate.running, VICTIM_ORDER));
        List<Unit> surplus = new ArrayList<>();
        List<Unit> whole = new ArrayList<>();
        for (Candidate gang : gangs) {
            gang.members.sort(NEWEST_FIRST);
            for (Member member : gang.members) {
                if (member.gains() && gang.keepsQuorumWithout(0, member.pod().task(), 0)) {
                    surplus.add(new Unit(gang, member));
                }
            }
            if (gang.members.stream().anyMatch(Member::useful)) {
                whole.add(new Unit(gang, null));
            }
        }
        surplus.addAll(whole);
        return surplus;
    }

    /**
     * The candidates' pods on the node that may be taken: bound when the snapshot was taken, not taken off
     * since, not terminating, and not the preemptor's.
     */
    private List<PodInfo> takeable(NodeState node, GroupKey preemptor, Map<GroupKey, RunningGang> candidates) {
        List<PodInfo> now = trial.podsOn(node);
        Set<PodInfo> bound = now == node.snapshotPods() ? null : identitySet(node.snapshotPods());
        List<PodInfo> takeable = new ArrayList<>();
        for (PodInfo pod : now) {
            if (candidates.containsKey(pod.group()) && !pod.group().equals(preemptor)
                    && (bound == null || bound.contains(pod)) && !terminating.test(pod)) {
                takeable.add(pod);
            }
        }
        return takeable;
    }

    /** Whether evicting the pod frees some of what the node is short of: a pod slot, or a resource it requests. */
    private static boolean frees(PodInfo pod, boolean[] shortOf) {
        if (shortOf[ResourceVector.PODS_DIM]) {
            return true;
        }
        ResourceVector requests = pod.requests();
        for (int d = 0; d < Math.min(requests.length(), shortOf.length); d++) {
            if (shortOf[d] && requests.at(d) > 0) {
                return true;
            }
        }
        return false;
    }

    private static Set<PodInfo> identitySet(List<PodInfo> pods) {
        Set<PodInfo> set = Collections.newSetFromMap(new IdentityHashMap<>());
        set.addAll(pods);
        return set;
    }

    /** One search: the preemptor, how it is tried, and the budget. */
    private final class Search {
        private final PendingGang work;
        private final boolean admission;
        private final VictimBudget budget;

        Search(PendingGang work, boolean admission, VictimBudget budget) {
            this.work = work;
            this.admission = admission;
            this.budget = budget;
        }

        Optional<Preemption> run(SlotCounts counts, Map<GroupKey, RunningGang> candidates) {
            GangPlacement none = probe(List.of());
            boolean fitsAlready = fits(none);
            if (fitsAlready && (admission || none.unplaced().isEmpty())) {
                return Optional.empty();
            }
            List<Unit> allowed = allowedInOrder(units(work, counts, candidates));
            int surplusCount = (int) allowed.stream().filter(unit -> !unit.whole()).count();
            List<Unit> set = choose(allowed, surplusCount, fitsAlready ? none : null);
            if (set != null && set.stream().filter(Unit::whole).count() > 1) {
                List<Unit> oneBroken = oneGangBroken(allowed, surplusCount, counts);
                set = oneBroken != null ? oneBroken : set;
            }
            if (set == null || set.isEmpty()) {
                return Optional.empty();
            }
            GangPlacement placement = trial(set, true);
            return fits(placement) ? Optional.of(preemption(set, placement)) : Optional.empty();
        }

        /**
         * The minimal set chosen from the units: the shortest prefix with which the preemptor's quorum
         * fits, grown among the units before {@code surplusEnd} (surplus members) as far as more of its
         * pods then fit, then stripped of every unit not needed.
         *
         * @param fitting the preemptor's trial with nothing evicted if it fits so, else {@code null}
         * @return the set; {@code null} if no prefix makes the quorum fit
         */
        private List<Unit> choose(List<Unit> units, int surplusEnd, GangPlacement fitting) {
            if (units.isEmpty()) {
                return null;
            }
            int quorum = fitting != null ? 0 : shortest(units, 1, units.size(), 0);
            if (quorum < 0) {
                return null;
            }
            int length = quorum;
            if (!admission && quorum < surplusEnd) {
                length = Math.max(quorum, morePods(units, quorum, surplusEnd,
                        placedWith(fitting != null ? fitting : probe(units.subList(0, quorum)))));
            }
            return minimal(withoutSurplusOfWhole(units.subList(0, length)));
        }

        /**
         * A minimal set breaking one gang only, for when the preference order broke more: the first gang,
         * in preference order, that with surplus members makes the preemptor's quorum fit. A gang is
         * tried only if slot counts say its members and every allowed surplus member evicted could hold
         * the quorum.
         *
         * @return the set; {@code null} if no single gang does
         */
        private List<Unit> oneGangBroken(List<Unit> allowed, int surplusCount, SlotCounts counts) {
            List<Unit> surplus = allowed.subList(0, surplusCount);
            SurplusRoom room = new SurplusRoom(counts, surplus);
            for (Unit gang : allowed.subList(surplusCount, allowed.size())) {
                if (!room.holdsQuorumWith(gang.gang())) {
                    continue;
                }
                List<Unit> units = new ArrayList<>(surplusCount + 1);
                units.add(gang);
                units.addAll(surplus);
                List<Unit> set = choose(units, units.size(), null);
                if (set != null && set.stream().filter(Unit::whole).count() <= 1) {
                    return set;
                }
            }
            return null;
        }

        /**
         * The shortest prefix of the surplus units, longer than {@code quorum}, with which the preemptor
         * places all its pending pods, or else as many as with every allowed surplus unit; -1 if no
         * longer prefix places more than the {@code atQuorum} pods.
         */
        private int morePods(List<Unit> allowed, int quorum, int surplusCount, int atQuorum) {
            int all = work.pending().size();
            if (atQuorum >= all) {
                return -1;
            }
            int allPlaced = shortest(allowed, quorum + 1, surplusCount, all);
            if (allPlaced >= 0) {
                return allPlaced;
            }
            int most = placedWith(probe(allowed.subList(0, surplusCount)));
            return most > atQuorum ? shortest(allowed, quorum + 1, surplusCount, most) : -1;
        }

        /**
         * The units the budget allows, asked in order, each after the allowed ones before it: a
         * prefilter, since a set of them is weighed only if the budget allows it again as a set.
         */
        private List<Unit> allowedInOrder(List<Unit> units) {
            List<Unit> allowed = new ArrayList<>();
            Taken taken = new Taken();
            for (Unit unit : units) {
                List<Member> members = taken.membersOf(unit);
                if (!members.isEmpty() && taken.allows(unit, members)) {
                    taken.take(unit, members);
                    allowed.add(unit);
                }
            }
            return allowed;
        }

        /**
         * The shortest prefix length in [from, to] with which the preemptor fits with at least
         * {@code placed} pods (0: fits at all); -1 if none does. Galloping (from, from + 1, from + 3,
         * from + 7, ...) and then a binary search, so that when a short prefix does, only short prefixes
         * are tried. Fitting is not strictly monotone in the room (a trial packs greedily), so this finds
         * a short prefix that fits, which dropping then makes minimal.
         */
        private int shortest(List<Unit> allowed, int from, int to, int placed) {
            int low = from;
            int high = from;
            for (int step = 1; placedWith(probe(allowed.subList(0, high))) < placed; step *= 2) {
                if (high == to) {
                    return -1;
                }
                low = high + 1;
                high = Math.min(to, high + step);
            }
            while (low < high) {
                int mid = (low + high) >>> 1;
                if (placedWith(probe(allowed.subList(0, mid))) >= placed) {
                    high = mid;
                } else {
                    low = mid + 1;
                }
            }
            return high;
        }

        /**
         * Drops units, least preferred first, while the preemptor still fits with at least as many pods;
         * repeats until a pass drops none, so that no single unit of the result can go.
         */
        private List<Unit> minimal(List<Unit> set) {
            List<Unit> kept = new ArrayList<>(set);
            GangPlacement current = probe(kept);
            if (!fits(current)) {
                return List.of();
            }
            boolean dropped = true;
            while (dropped) {
                dropped = false;
                for (int i = kept.size() - 1; i >= 0; i--) {
                    List<Unit> without = new ArrayList<>(kept);
                    without.remove(i);
                    GangPlacement result = probe(without);
                    if (fits(result) && result.placements().size() >= current.placements().size()) {
                        kept = without;
                        current = result;
                        dropped = true;
                    }
                }
            }
            return kept;
        }

        /** The preemptor's trial with the set evicted, keeping nothing; {@code null} if the budget refuses the set. */
        private GangPlacement probe(List<Unit> set) {
            return trial(set, false);
        }

        /**
         * The preemptor's trial with the set's pods evicted; {@code null} if the budget refuses the set.
         * With {@code keep}, a trial that fits keeps the evictions and the placement on the snapshot;
         * otherwise the snapshot is left as it was.
         */
        private GangPlacement trial(List<Unit> set, boolean keep) {
            List<Taking> takings = takings(set);
            if (takings == null) {
                return null;
            }
            PlacementStatement evictions = trial.statement();
            for (Taking taking : takings) {
                for (Member member : taking.members()) {
                    evictions.evict(member.pod(), member.node());
                }
            }
            GangPlacement result = !keep ? trial.probe(work, admission)
                    : admission ? trial.admit(work) : trial.attempt(work);
            if (keep && fits(result)) {
                evictions.commit();
            } else {
                evictions.discard();
            }
            return result;
        }

        /** The pods each unit of the set takes, asked of the budget in order; {@code null} if it refuses one. */
        private List<Taking> takings(List<Unit> set) {
            Taken taken = new Taken();
            List<Taking> takings = new ArrayList<>(set.size());
            for (Unit unit : set) {
                List<Member> members = taken.membersOf(unit);
                if (members.isEmpty()) {
                    continue;
                }
                if (!taken.allows(unit, members)) {
                    return null;
                }
                taken.take(unit, members);
                takings.add(new Taking(unit, members));
            }
            return takings;
        }

        /** How many of the preemptor's pods the trial placed; -1 if it does not fit. */
        private int placedWith(GangPlacement result) {
            return fits(result) ? result.placements().size() : -1;
        }

        private boolean fits(GangPlacement result) {
            return result != null && (admission ? result.outcome() == GangPlacement.Outcome.ADMITTED
                    : result.placed());
        }

        /** Slot counts with every allowed surplus member evicted, and with a gang's members evicted too. */
        private final class SurplusRoom {
            private final SlotCounts counts;
            private final Map<NodeState, List<PodInfo>> surplusOn = new IdentityHashMap<>();
            private final long[] total;

            SurplusRoom(SlotCounts counts, List<Unit> surplus) {
                this.counts = counts;
                for (Unit unit : surplus) {
                    surplusOn.computeIfAbsent(unit.surplus().node(), node -> new ArrayList<>())
                            .add(unit.surplus().pod());
                }
                this.total = new long[counts.shapes()];
                for (NodeState node : trial.nodes()) {
                    SlotCounts.add(total, counts.onNode(node, surplusOn.getOrDefault(node, List.of())), 1);
                }
            }

            boolean holdsQuorumWith(Candidate gang) {
                Map<NodeState, Set<PodInfo>> evictedOn = new IdentityHashMap<>();
                for (Member member : gang.members) {
                    evictedOn.computeIfAbsent(member.node(), node -> {
                        Set<PodInfo> pods = Collections.newSetFromMap(new IdentityHashMap<>());
                        pods.addAll(surplusOn.getOrDefault(node, List.of()));
                        return pods;
                    }).add(member.pod());
                }
                long[] slots = total.clone();
                evictedOn.forEach((node, pods) -> {
                    SlotCounts.add(slots, counts.onNode(node, surplusOn.getOrDefault(node, List.of())), -1);
                    SlotCounts.add(slots, counts.onNode(node, pods), 1);
                });
                return counts.holdQuorum(slots);
            }
        }

        /** The budget's view of the units taken so far. */
        private final class Taken {
            private final Map<String, ResourceVector> byQueue = new HashMap<>();
            private final Set<PodInfo> pods = Collections.newSetFromMap(new IdentityHashMap<>());
            /** Per gang, the surplus members taken, in all and per task. */
            private final Map<Candidate, Integer> surplusTaken = new IdentityHashMap<>();
            private final Map<Candidate, Map<String, Integer>> surplusTakenByTask = new IdentityHashMap<>();

            /**
             * What the unit takes after the units before it: its surplus member, unless taken already or
             * its gang would fall below its quorum without it; or the gang's members left.
             */
            List<Member> membersOf(Unit unit) {
                Candidate gang = unit.gang();
                if (unit.whole()) {
                    return gang.members.stream().filter(member -> !pods.contains(member.pod())).toList();
                }
                Member member = unit.surplus();
                String task = member.pod().task();
                boolean safe = gang.keepsQuorumWithout(surplusTaken.getOrDefault(gang, 0), task,
                        surplusTakenByTask.getOrDefault(gang, Map.of()).getOrDefault(task, 0));
                return !safe || pods.contains(member.pod()) ? List.of() : List.of(member);
            }

            boolean allows(Unit unit, List<Member> members) {
                return budget.allows(unit.gang().running, members.stream().map(Member::pod).toList(),
                        Collections.unmodifiableMap(byQueue));
            }

            void take(Unit unit, List<Member> members) {
                Candidate gang = unit.gang();
                for (Member member : members) {
                    pods.add(member.pod());
                    byQueue.merge(gang.running.gang().queue(), member.pod().requests(), ResourceVector::plus);
                }
                if (!unit.whole()) {
                    surplusTaken.merge(gang, 1, Integer::sum);
                    surplusTakenByTask.computeIfAbsent(gang, g -> new HashMap<>())
                            .merge(unit.surplus().pod().task(), 1, Integer::sum);
                }
            }
        }

        private Preemption preemption(List<Unit> set, GangPlacement placement) {
            Map<Candidate, Preemption.Victim> victims = new LinkedHashMap<>();
            for (Taking taking : takings(set)) {
                Candidate gang = taking.unit().gang();
                List<PodPlacement> pods = new ArrayList<>();
                Preemption.Victim before = victims.get(gang);
                if (before != null) {
                    pods.addAll(before.pods());
                }
                taking.members().forEach(member -> pods.add(new PodPlacement(member.pod(), member.node().name())));
                victims.put(gang, new Preemption.Victim(gang.running, taking.unit().whole(), pods));
            }
            List<Preemption.Victim> list = List.copyOf(victims.values());
            return new Preemption(list, placement, message(list));
        }

        private String message(List<Preemption.Victim> victims) {
            List<String> parts = new ArrayList<>();
            for (Preemption.Victim victim : victims) {
                String which = victim.whole() ? "all " + victim.pods().size() + " pod(s) of "
                        : victim.pods().size() + " surplus pod(s) of ";
                parts.add(which + victim.key() + " (priority " + victim.gang().gang().priority() + ")");
            }
            String listed = parts.size() == 1 ? parts.get(0)
                    : String.join(", ", parts.subList(0, parts.size() - 1)) + " and " + parts.get(parts.size() - 1);
            return "evicts " + listed + (admission ? " to admit " : " to place ") + work.gang().key();
        }
    }

    /**
     * The trial's pre-check done by arithmetic, without evicting anything: per pod shape of the
     * preemptor, how many pods the nodes hold with some pods evicted, and whether that holds its quorum,
     * counting at most as many pods of a shape as the preemptor has.
     */
    private static final class SlotCounts {
        private final PodShape[] shapes;
        private final int[] podsOfShape;
        private final int needed;

        /**
         * @param needed pods of the quorum still to place
         */
        SlotCounts(List<PodInfo> toPlace, int needed) {
            Map<PodShape, Integer> byShape = new LinkedHashMap<>();
            toPlace.forEach(pod -> byShape.merge(pod.shape(), 1, Integer::sum));
            this.shapes = byShape.keySet().toArray(PodShape[]::new);
            this.podsOfShape = byShape.values().stream().mapToInt(Integer::intValue).toArray();
            this.needed = needed;
        }

        int shapes() {
            return shapes.length;
        }

        /**
         * Per shape, how many pods the node holds with these pods evicted, as {@link NodeState#slotsFor}
         * counts them; none where the shape's node filters reject the node.
         */
        long[] onNode(NodeState node, Collection<PodInfo> evicted) {
            ResourceTally room = new ResourceTally();
            evicted.forEach(pod -> room.addPod(pod.requests()));
            ResourceVector allocatable = node.info().allocatable();
            ResourceVector requested = node.requested();
            long[] slots = new long[shapes.length];
            for (int s = 0; s < shapes.length; s++) {
                if (shapes[s].constraints().rejection(node.info()) != null) {
                    continue;
                }
                long fits = allocatable.at(ResourceVector.PODS_DIM) - requested.at(ResourceVector.PODS_DIM)
                        + room.at(ResourceVector.PODS_DIM);
                ResourceVector requests = shapes[s].requests();
                for (int d = 0; d < requests.length() && fits > 0; d++) {
                    long wanted = requests.at(d);
                    if (wanted > 0) {
                        long free = allocatable.at(d) - requested.at(d) + room.at(d);
                        fits = Math.min(fits, free < 0 ? 0 : free / wanted);
                    }
                }
                slots[s] = Math.max(0, fits);
            }
            return slots;
        }

        /**
         * Per shape, whether these slots, summed over nodes, are fewer than the preemptor's pods of the
         * shape; every shape when none is, as the shapes then compete for the same room.
         */
        boolean[] lacking(long[] slots) {
            boolean[] lacking = new boolean[shapes.length];
            boolean any = false;
            for (int s = 0; s < shapes.length; s++) {
                lacking[s] = slots[s] < podsOfShape[s];
                any |= lacking[s];
            }
            if (!any) {
                Arrays.fill(lacking, true);
            }
            return lacking;
        }

        /**
         * Per resource dimension, whether the node's free room is short of it for a pod of a lacking shape
         * that the node would hold more of with the candidates' pods there evicted ({@code PODS_DIM}: a
         * pod slot); none if there is no such shape.
         */
        boolean[] shortOf(NodeState node, boolean[] lacking, long[] now, long[] with) {
            ResourceVector allocatable = node.info().allocatable();
            ResourceVector requested = node.requested();
            boolean[] shortOf = new boolean[Math.max(ResourceVector.PODS_DIM + 1, requested.length())];
            for (int s = 0; s < shapes.length; s++) {
                if (!lacking[s] || with[s] <= now[s]) {
                    continue;
                }
                ResourceVector requests = shapes[s].requests();
                shortOf = Arrays.copyOf(shortOf, Math.max(shortOf.length, requests.length()));
                shortOf[ResourceVector.PODS_DIM] |= allocatable.at(ResourceVector.PODS_DIM)
                        <= requested.at(ResourceVector.PODS_DIM);
                for (int d = 0; d < requests.length(); d++) {
                    shortOf[d] |= requests.at(d) > 0 && requests.at(d) > allocatable.at(d) - requested.at(d);
                }
            }
            return shortOf;
        }

        /** Whether slots per shape, summed over nodes, hold the quorum. */
        boolean holdQuorum(long[] slots) {
            long reachable = 0;
            for (int s = 0; s < slots.length; s++) {
                reachable += Math.min(podsOfShape[s], slots[s]);
            }
            return reachable >= needed;
        }

        static boolean any(long[] slots) {
            for (long count : slots) {
                if (count > 0) {
                    return true;
                }
            }
            return false;
        }

        static void add(long[] total, long[] slots, int sign) {
            for (int s = 0; s < total.length; s++) {
                total[s] += sign * slots[s];
            }
        }
    }

    /** The set without the surplus units of gangs it takes whole, which take those members anyway. */
    private static List<Unit> withoutSurplusOfWhole(List<Unit> set) {
        Set<Candidate> whole = Collections.newSetFromMap(new IdentityHashMap<>());
        set.stream().filter(Unit::whole).forEach(unit -> whole.add(unit.gang()));
        return set.stream().filter(unit -> unit.whole() || !whole.contains(unit.gang())).toList();
    }

    /**
     * A running pod of a candidate gang.
     *
     * @param useful whether some pod of the preemptor could run on its node with the candidates' pods
     *               there evicted, which makes its gang a whole unit
     * @param gains  whether evicting it frees what its node is short of for more pods of a shape of the
     *               preemptor's that the free room lacks, which makes it a surplus unit
     */
    private record Member(PodInfo pod, NodeState node, boolean useful, boolean gains) {
    }

    /**
     * A node with pods that may be taken, and its slots per shape of the preemptor as it is and with
     * them evicted.
     */
    private record NodeRoom(NodeState node, List<PodInfo> takeable, long[] now, long[] with) {
    }

    /** A candidate gang and its members, newest first once sorted. */
    private static final class Candidate {
        private final RunningGang running;
        private final List<Member> members = new ArrayList<>();
        /** Members per task, counted once every member is in. */
        private Map<String, Integer> ofTask;

        Candidate(RunningGang running) {
            this.running = running;
        }

        /**
         * Whether one more member of the task may go as surplus after {@code taken} members, of which
         * {@code takenOfTask} of the task: the gang keeps minMember and the task its minTaskMember.
         */
        boolean keepsQuorumWithout(int taken, String task, int takenOfTask) {
            if (ofTask == null) {
                ofTask = new HashMap<>();
                members.forEach(member -> ofTask.merge(member.pod().task(), 1, Integer::sum));
            }
            GangInfo gang = running.gang();
            return members.size() - taken - 1 >= gang.minMember()
                    && ofTask.getOrDefault(task, 0) - takenOfTask - 1 >= gang.minTaskMember().getOrDefault(task, 0);
        }
    }

    /**
     * A victim unit.
     *
     * @param gang    the gang it takes from
     * @param surplus the surplus member it takes; {@code null} when it takes the gang whole
     */
    private record Unit(Candidate gang, Member surplus) {
        boolean whole() {
            return surplus == null;
        }
    }

    /** The members a unit takes, after the units before it in its set. */
    private record Taking(Unit unit, List<Member> members) {
    }
}
