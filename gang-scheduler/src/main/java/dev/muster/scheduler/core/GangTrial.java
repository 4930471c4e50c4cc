package dev.muster.scheduler.core;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * A transactional placement of one gang on a {@link ClusterSnapshot}. The gang's pending pods are placed
 * tentatively, each on the best-scoring node it fits ({@link NodeScoring}); if, together with the gang's
 * bound pods, that makes at least {@code minMember} pods and each task's {@code minTaskMember}, the
 * placements are committed (and pods beyond the quorum that fit are placed too); otherwise every
 * tentative placement is undone and the snapshot is exactly as before.
 *
 * <p>Before placing anything, a gang whose quorum cannot fit is rejected from counts alone: per pod
 * shape, the free capacity takes at most {@link ShapeIndex#totalSlots} pods, so the gang can place at
 * most the sum over its shapes of min(its pods of the shape, slots). That bound is exact for gangs of
 * one shape and costs a pass over the gang's pods, which is what keeps a big infeasible gang cheap.
 *
 * <p>Pods are tried in this order: first, per task with a minimum (by task name), as many of the task's
 * pods as its minimum still needs, so that pods of other tasks cannot take the room a task's minimum
 * needs; then all other pods in their given order. A trial gives up as soon as the quorum (or, when the
 * caller asks whether the gang came near it, the near threshold) can no longer be reached. The trial
 * runner keeps one {@link ShapeIndex} per pod shape for the whole cycle, so choosing a node costs
 * O(log n) instead of a scan of all n nodes.
 *
 * <p>With a topology key (gang locality), the quorum is first tried within the one domain that holds it
 * by slot counts with the least room to spare; failing that, anywhere.
 */
public final class GangTrial {
    /** Shape indexes kept per cycle; each holds a few arrays of the node count, so their number is capped. */
    private static final int MAX_SHAPE_INDEXES = 64;

    private final NodeState[] nodes;
    private final NodeScoring scoring;
    private final String topologyKey;
    /** Domain names and each node's domain number (-1: no label); computed on first use. */
    private List<String> domains;
    private int[] domainOf;
    private final NodeChanges changes;
    private final Map<PodShape, ShapeIndex> indexes = new LinkedHashMap<>(16, 0.75f, true) {
        @Override
        protected boolean removeEldestEntry(Map.Entry<PodShape, ShapeIndex> eldest) {
            return size() > MAX_SHAPE_INDEXES;
        }
    };
    private ShapeIndex lastIndex;

    /** A bin-packing trial runner for one cycle's snapshot; reusable for every gang of the cycle. */
    public GangTrial(ClusterSnapshot snapshot) {
        this(snapshot, NodeScoring.MOST_ALLOCATED);
    }

    /** A trial runner for one cycle's snapshot that scores nodes as given. */
    public GangTrial(ClusterSnapshot snapshot, NodeScoring scoring) {
        this(snapshot, scoring, null);
    }

    /**
     * A trial runner that first tries each gang's quorum within one topology domain.
     *
     * @param topologyKey node label naming the domains; {@code null} for no locality
     */
    public GangTrial(ClusterSnapshot snapshot, NodeScoring scoring, String topologyKey) {
        this.nodes = snapshot.nodeArray();
        this.scoring = scoring;
        this.topologyKey = topologyKey;
        this.changes = new NodeChanges(nodes.length);
    }

    /** Places the gang's quorum and what else fits, or nothing. */
    public GangPlacement attempt(PendingGang work) {
        return attempt(work, -1, false);
    }

    /**
     * Places the gang's quorum and what else fits; failing that, tells whether the gang came near its
     * quorum and, if {@code mayReserve}, keeps a near placement as a reservation.
     *
     * @param rejectPercentage a failed gang with at most this percentage of minMember unplaced (bound
     *                         pods count as placed) is near its quorum; negative: do not measure, which
     *                         lets a trial give up as soon as the quorum is out of reach
     * @param mayReserve       whether a near placement is kept ({@link GangPlacement.Outcome#RESERVED})
     */
    public GangPlacement attempt(PendingGang work, int rejectPercentage, boolean mayReserve) {
        GangInfo gang = work.gang();
        List<PodInfo> pending = work.pending();
        int needed = Math.max(0, gang.minMember() - work.bound());
        if (pending.size() < needed) {
            return notEnoughPods(work, "Waiting for pods: the group has fewer than minMember "
                    + gang.minMember() + ".");
        }
        List<TaskNeed> taskNeeds = taskNeeds(work);
        for (TaskNeed need : taskNeeds) {
            if (need.pending() < need.needed()) {
                return notEnoughPods(work, "Waiting for pods: task " + need.task()
                        + " has fewer than minTaskMember " + need.minimum() + ".");
            }
        }
        int nearFrom = rejectPercentage < 0 ? needed
                : Math.min(needed,
                        Math.max(0, ceilDiv(gang.minMember() * (100 - rejectPercentage), 100) - work.bound()));
        GangPlacement rejected = rejectIfQuorumCannotFit(work, needed, nearFrom, taskNeeds);
        if (rejected != null) {
            return rejected;
        }
        if (topologyKey != null && needed > 0) {
            GangPlacement local = attemptWithinOneDomain(work, needed, taskNeeds);
            if (local != null) {
                return local;
            }
        }
        return new Attempt(work).run(needed, nearFrom, mayReserve, taskNeeds);
    }

    /**
     * Admission of a gang whose workload creates its pods only once the gang is admitted: its quorum, made
     * of the pods that exist and as many {@linkplain PendingGang#expected() expected} pods as minMember and
     * each task's minTaskMember still need, must fit node by node, as a placement would. If it does, the
     * placements stay on the snapshot as the room promised to the gang, so that gangs tried after it in
     * the cycle cannot be admitted to or placed on it, and nothing is bound
     * ({@link GangPlacement.Outcome#ADMITTED}). Otherwise nothing is kept.
     */
    public GangPlacement admit(PendingGang work) {
        List<PodInfo> quorum = quorumWithExpected(work);
        if (quorum == null) {
            return notEnoughPods(work, "Waiting for pods: the workload will create fewer than the quorum needs.");
        }
        GangPlacement trial = attempt(new PendingGang(work.gang(), quorum, work.bound(), work.boundByTask()));
        if (!trial.placed()) {
            return new GangPlacement(work.gang(), GangPlacement.Outcome.NOT_ENOUGH_RESOURCES, List.of(),
                    work.pending(), trial.unschedulable(), trial.message());
        }
        // Stays the same from one cycle to the next while the pods are created, so the verdict does too.
        String message = "Admitted: the " + quorum.size() + " pod(s) minMember " + work.gang().minMember()
                + " needs fit node by node; their room is held until they are created and placed.";
        return new GangPlacement(work.gang(), GangPlacement.Outcome.ADMITTED, trial.placements(), work.pending(),
                null, message);
    }

    /**
     * The gang's pending pods plus the expected pods that complete its quorum: first what each task's
     * minimum lacks, then, in the order the workload creates them, what minMember lacks.
     *
     * @return {@code null} if the expected pods cannot complete it
     */
    private static List<PodInfo> quorumWithExpected(PendingGang work) {
        List<PodInfo> quorum = new ArrayList<>(work.pending());
        List<PodInfo> rest = new ArrayList<>(work.expected());
        for (TaskNeed need : taskNeeds(work)) {
            int lacking = need.needed() - need.pending();
            for (var it = rest.iterator(); it.hasNext() && lacking > 0; ) {
                PodInfo pod = it.next();
                if (pod.task().equals(need.task())) {
                    quorum.add(pod);
                    it.remove();
                    lacking--;
                }
            }
            if (lacking > 0) {
                return null;
            }
        }
        int lacking = work.gang().minMember() - work.bound() - quorum.size();
        if (lacking > rest.size()) {
            return null;
        }
        quorum.addAll(rest.subList(0, Math.max(0, lacking)));
        return quorum;
    }

    /**
     * Gang locality: tries the quorum within the domain of the topology key that holds it by slot counts
     * and has the fewest free slots (bin-packing whole domains, so others stay free for big gangs).
     *
     * @return the placement, or {@code null} if no domain holds the quorum, leaving the snapshot as it was
     */
    private GangPlacement attemptWithinOneDomain(PendingGang work, int needed, List<TaskNeed> taskNeeds) {
        String domain = tightestDomainHolding(work, needed);
        if (domain == null) {
            return null;
        }
        Map<PodInfo, PodInfo> originals = new IdentityHashMap<>();
        Map<PlacementConstraints, PlacementConstraints> pinnedConstraints = new IdentityHashMap<>();
        List<PodInfo> pinned = new ArrayList<>(work.pending().size());
        for (PodInfo pod : work.pending()) {
            PlacementConstraints constraints = pinnedConstraints.computeIfAbsent(pod.constraints(), own -> {
                Map<String, String> selector = new HashMap<>(own.nodeSelector());
                // A pod that names its own domain keeps it: locality is a preference, the selector is not.
                selector.putIfAbsent(topologyKey, domain);
                return new PlacementConstraints(selector, own.requiredAffinity(), own.tolerations());
            });
            PodInfo copy = new PodInfo(pod.namespace(), pod.name(), pod.group(), pod.task(), pod.priority(),
                    pod.requests(), constraints);
            originals.put(copy, pod);
            pinned.add(copy);
        }
        PendingGang local = new PendingGang(work.gang(), pinned, work.bound(), work.boundByTask(),
                work.lastFailedAt());
        GangPlacement result = new Attempt(local).run(needed, needed, false, taskNeeds);
        if (!result.placed()) {
            return null;
        }
        List<PodPlacement> placements = new ArrayList<>(result.placements().size());
        result.placements().forEach(p -> placements.add(new PodPlacement(originals.get(p.pod()), p.nodeName())));
        List<PodInfo> unplaced = new ArrayList<>(result.unplaced().size());
        result.unplaced().forEach(p -> unplaced.add(originals.get(p)));
        return new GangPlacement(work.gang(), result.outcome(), placements, unplaced, result.unschedulable(),
                result.message());
    }

    /** The domain whose free slots hold the quorum with the fewest slots to spare, or {@code null}. */
    private String tightestDomainHolding(PendingGang work, int needed) {
        if (domainOf == null) {
            indexDomains();
        }
        Map<ShapeIndex, int[]> counts = new IdentityHashMap<>();
        for (PodInfo pod : work.pending()) {
            counts.computeIfAbsent(indexOf(pod), i -> new int[1])[0]++;
        }
        long[] reachable = new long[domains.size()];
        long[] free = new long[domains.size()];
        for (Map.Entry<ShapeIndex, int[]> entry : counts.entrySet()) {
            long[] slots = new long[domains.size()];
            entry.getKey().catchUp(changes);
            entry.getKey().addSlotsByDomain(domainOf, slots);
            for (int d = 0; d < slots.length; d++) {
                reachable[d] += Math.min(entry.getValue()[0], slots[d]);
                free[d] += slots[d];
            }
        }
        int best = -1;
        for (int d = 0; d < domains.size(); d++) {
            if (reachable[d] >= needed && (best < 0 || free[d] < free[best])) {
                best = d;
            }
        }
        return best < 0 ? null : domains.get(best);
    }

    private void indexDomains() {
        Map<String, Integer> numbers = new TreeMap<>();
        for (NodeState node : nodes) {
            String value = node.info().labels().get(topologyKey);
            if (value != null) {
                numbers.put(value, 0);
            }
        }
        domains = new ArrayList<>(numbers.keySet());
        for (int d = 0; d < domains.size(); d++) {
            numbers.put(domains.get(d), d);
        }
        domainOf = new int[nodes.length];
        for (int n = 0; n < nodes.length; n++) {
            String value = nodes[n].info().labels().get(topologyKey);
            domainOf[n] = value == null ? -1 : numbers.get(value);
        }
    }

    private static int ceilDiv(int dividend, int divisor) {
        return -Math.floorDiv(-dividend, divisor);
    }

    /** The index of the pod's shape, built on first use in this cycle. */
    private ShapeIndex indexOf(PodInfo pod) {
        ShapeIndex last = lastIndex;
        if (last != null && last.shape().requests().equals(pod.requests())
                && last.shape().constraints().equals(pod.constraints())) {
            return last;
        }
        PodShape shape = pod.shape();
        ShapeIndex index = indexes.get(shape);
        if (index == null) {
            index = new ShapeIndex(shape, nodes, scoring, changes);
            indexes.put(shape, index);
        }
        lastIndex = index;
        return index;
    }

    /**
     * Rejects the gang when, by slot counts, its quorum or a task's minimum cannot fit: then placing
     * pods one by one would only fail after filling the free capacity.
     */
    private GangPlacement rejectIfQuorumCannotFit(PendingGang work, int needed, int nearFrom,
                                                  List<TaskNeed> taskNeeds) {
        GangPlacement rejected = rejectIfCannotFit(work, null, nearFrom, gangShortfall(work, needed));
        if (rejected != null) {
            return rejected;
        }
        for (TaskNeed need : taskNeeds) {
            rejected = rejectIfCannotFit(work, need, need.needed(), taskShortfall(need));
            if (rejected != null) {
                return rejected;
            }
        }
        return null;
    }

    /**
     * Rejects the gang if fewer than {@code needed} of its pending pods (of one task, or of all when
     * {@code need} is null) can fit by slot counts.
     */
    private GangPlacement rejectIfCannotFit(PendingGang work, TaskNeed need, int needed, String shortfallText) {
        Map<ShapeIndex, int[]> counts = new IdentityHashMap<>();
        for (PodInfo pod : work.pending()) {
            if (need == null || pod.task().equals(need.task())) {
                counts.computeIfAbsent(indexOf(pod), i -> new int[1])[0]++;
            }
        }
        long reachable = 0;
        ShapeIndex shortest = null;
        long shortfall = 0;
        for (Map.Entry<ShapeIndex, int[]> entry : counts.entrySet()) {
            ShapeIndex index = entry.getKey();
            index.catchUp(changes);
            int count = entry.getValue()[0];
            reachable += Math.min(count, index.totalSlots());
            if (count - index.totalSlots() > shortfall) {
                shortfall = count - index.totalSlots();
                shortest = index;
            }
        }
        if (reachable >= needed) {
            return null;
        }
        return reject(work, shortest, shortfallText);
    }

    private GangPlacement reject(PendingGang work, ShapeIndex shortest, String gangShortfall) {
        UnschedulableMessage why = shortest.misfitWhenFull(changes);
        return new GangPlacement(work.gang(), GangPlacement.Outcome.NOT_ENOUGH_RESOURCES, List.of(), work.pending(),
                why, gangMessage(work, why, gangShortfall));
    }

    private static String gangShortfall(PendingGang work, int needed) {
        return "The gang needs " + needed + " pod(s) placed at once for minMember " + work.gang().minMember() + ".";
    }

    private static String taskShortfall(TaskNeed need) {
        return "Task " + need.task() + " needs " + need.needed() + " pod(s) placed at once for minTaskMember "
                + need.minimum() + ".";
    }

    private static String gangMessage(PendingGang work, UnschedulableMessage why, String gangShortfall) {
        return work.gang().key().standalonePod() ? why.message() : why.message() + " " + gangShortfall;
    }

    private static List<TaskNeed> taskNeeds(PendingGang work) {
        List<TaskNeed> needs = new ArrayList<>();
        for (Map.Entry<String, Integer> entry : new TreeMap<>(work.gang().minTaskMember()).entrySet()) {
            String task = entry.getKey();
            int needed = entry.getValue() - work.boundOf(task);
            if (needed > 0) {
                int pending = 0;
                for (PodInfo pod : work.pending()) {
                    if (pod.task().equals(task)) {
                        pending++;
                    }
                }
                needs.add(new TaskNeed(task, entry.getValue(), needed, pending));
            }
        }
        return needs;
    }

    private static GangPlacement notEnoughPods(PendingGang work, String message) {
        return new GangPlacement(work.gang(), GangPlacement.Outcome.NOT_ENOUGH_PODS, List.of(), work.pending(),
                null, message);
    }

    /**
     * What one task's minimum still needs.
     *
     * @param minimum the task's minTaskMember
     * @param needed  pods still to place, after the task's bound pods
     * @param pending the task's pending pods
     */
    private record TaskNeed(String task, int minimum, int needed, int pending) {
    }

    /** The mutable state of one gang's trial. */
    private final class Attempt {
        private final PendingGang work;
        private final List<PodInfo> pending;
        private final boolean[] tried;
        private final boolean[] placed;
        private final List<PodPlacement> placements = new ArrayList<>();
        private final List<NodeState> placedOn = new ArrayList<>();
        private UnschedulableMessage lastMisfit;

        Attempt(PendingGang work) {
            this.work = work;
            this.pending = work.pending();
            this.tried = new boolean[pending.size()];
            this.placed = new boolean[pending.size()];
        }

        GangPlacement run(int needed, int nearFrom, boolean mayReserve, List<TaskNeed> taskNeeds) {
            for (TaskNeed need : taskNeeds) {
                if (!placeTaskMinimum(need)) {
                    return discard(taskShortfall(need), false);
                }
            }
            placeTheRest(nearFrom);
            if (placements.size() >= needed) {
                return commit();
            }
            if (placements.size() < nearFrom) {
                return discard(gangShortfall(work, needed), false);
            }
            return mayReserve ? reserve(needed) : discard(gangShortfall(work, needed), true);
        }

        private boolean placeTaskMinimum(TaskNeed need) {
            int placedForTask = 0;
            int untried = need.pending();
            for (int i = 0; i < pending.size() && placedForTask < need.needed(); i++) {
                if (!pending.get(i).task().equals(need.task())) {
                    continue;
                }
                tried[i] = true;
                untried--;
                if (tryPlace(i)) {
                    placedForTask++;
                } else if (placedForTask + untried < need.needed()) {
                    return false;
                }
            }
            return placedForTask >= need.needed();
        }

        /** Tries every pod not tried yet; gives up once fewer than {@code stopBelow} placements are possible. */
        private void placeTheRest(int stopBelow) {
            int untried = 0;
            for (boolean t : tried) {
                if (!t) {
                    untried++;
                }
            }
            for (int i = 0; i < pending.size(); i++) {
                if (tried[i]) {
                    continue;
                }
                tried[i] = true;
                untried--;
                if (!tryPlace(i) && placements.size() + untried < stopBelow) {
                    return;
                }
            }
        }

        private boolean tryPlace(int i) {
            PodInfo pod = pending.get(i);
            ShapeIndex index = indexOf(pod);
            index.catchUp(changes);
            int best = index.best();
            if (best < 0) {
                lastMisfit = index.misfit(changes);
                return false;
            }
            NodeState node = nodes[best];
            node.place(pod.requests());
            changes.record(best);
            placements.add(new PodPlacement(pod, node.name()));
            placedOn.add(node);
            placed[i] = true;
            return true;
        }

        private GangPlacement commit() {
            List<PodInfo> unplaced = new ArrayList<>();
            for (int i = 0; i < pending.size(); i++) {
                if (!placed[i]) {
                    unplaced.add(pending.get(i));
                }
            }
            // Counts bound and newly placed pods together, so the message stays the same in the next cycle,
            // when the pods placed now are bound, and the verdict does not change for nothing.
            String message = (work.bound() + placements.size()) + " pod(s) placed or bound; minMember "
                    + work.gang().minMember() + " met.";
            return new GangPlacement(work.gang(), GangPlacement.Outcome.PLACED, placements, unplaced, lastMisfit,
                    message);
        }

        private GangPlacement discard(String gangShortfall, boolean nearQuorum) {
            for (int i = placements.size() - 1; i >= 0; i--) {
                NodeState node = placedOn.get(i);
                node.unplace(placements.get(i).pod().requests());
                changes.record(node.index());
            }
            return new GangPlacement(work.gang(), GangPlacement.Outcome.NOT_ENOUGH_RESOURCES, List.of(), pending,
                    lastMisfit, gangMessage(work, lastMisfit, gangShortfall), nearQuorum);
        }

        /** Keeps the partial placement on the snapshot; none of the gang's pods is to be bound yet. */
        private GangPlacement reserve(int needed) {
            String message = lastMisfit.message() + " Reserved " + placements.size() + " of the " + needed
                    + " pod(s) minMember " + work.gang().minMember() + " needs while waiting for room for the rest.";
            return new GangPlacement(work.gang(), GangPlacement.Outcome.RESERVED, placements, pending, lastMisfit,
                    message, true);
        }
    }
}
