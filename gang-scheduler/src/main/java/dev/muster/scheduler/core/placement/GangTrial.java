package dev.muster.scheduler.core.placement;

import dev.muster.scheduler.core.cluster.ClusterSnapshot;
import dev.muster.scheduler.core.cluster.NodeState;
import dev.muster.scheduler.core.dra.DeviceAllocation;
import dev.muster.scheduler.core.dra.DeviceLedger;
import dev.muster.scheduler.core.model.GangTopology;
import dev.muster.scheduler.core.model.PendingGang;
import dev.muster.scheduler.core.model.PodInfo;
import dev.muster.scheduler.core.model.ResourceVector;
import dev.muster.scheduler.core.model.SubGroupRule;
import dev.muster.scheduler.core.model.UnschedulableMessage;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

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
 * runner keeps one {@link ShapeIndex} per pod shape for the whole cycle ({@link ShapeIndexes}), so
 * choosing a node costs O(log n) instead of a scan of all n nodes. What the quorum needs is a
 * {@link QuorumBounds}; each gang's placements go through a {@link PlacementStatement}, committed or
 * discarded as a whole.
 *
 * <p>A pod with required inter-pod (anti-)affinity or host ports, or one that a placed pod's required
 * anti-affinity selects, takes the best node of its shape index that passes its {@link PodFilter}
 * checks, which read per-domain counts from the cycle's {@link PodLayout}; other pods keep the plain
 * index lookup. A pod with ScheduleAnyway topology spread or preferred inter-pod (anti-)affinity, or
 * one that a scoring term of a pod in the layout selects, is scored ({@link PodScore}) over every node
 * that fits and passes its checks instead. The layout follows every placement of the trial, so a gang's
 * own pods placed earlier count for the later ones.
 *
 * <p>With a gang topology (the gang's own, else the scheduler's gang locality as a preferred one), the
 * quorum is first tried within one domain of each level in turn, tightest first: the domain that holds it
 * by slot counts with the least room to spare ({@link LocalityDomains}), or the one the gang's bound pods
 * are all in; failing that, anywhere, unless the topology is required, and then the gang waits. A required
 * topology holds a partly bound gang's pods beyond its quorum to the bound pods' domain too.
 *
 * <p>A gang with sub-groups ({@link SubGroups}, Volcano's partitions) places each sub-group's pending pods
 * together or none of them, within one domain of the sub-group's own topology as above; a task's minimum is
 * met with whole sub-groups, each rule's {@code minGroups} must be complete, and the statement rolls back a
 * sub-group that does not fit whole while the trial goes on.
 *
 * <p>A pod with ResourceClaims fits a node only if its claims can be allocated there ({@link DeviceCheck})
 * from the devices the snapshot's {@link DeviceLedger} has free, so a gang's members take devices from one
 * another as they are placed; the statement records the allocations, and a discarded trial frees them.
 */
public final class GangTrial {
    private final NodeState[] nodes;
    private final NodeChanges changes;
    private final ShapeIndexes indexes;
    private final PodLayout layout;
    private final DeviceLedger devices;
    /** The topology of gangs that name none; {@code null}: no gang locality. */
    private final GangTopology defaultTopology;
    /** The snapshot index of each node by name, for gangs with sub-groups; built on first use. */
    private Map<String, Integer> nodeIndexes;
    /** Per topology level, its domains; built on first use. */
    private final Map<String, LocalityDomains> localities = new HashMap<>();
    /** While {@link #probe} runs: what would be kept is undone instead. */
    private boolean probing;

    /** A bin-packing trial runner for one cycle's snapshot; reusable for every gang of the cycle. */
    public GangTrial(ClusterSnapshot snapshot) {
        this(snapshot, NodeScoring.MOST_ALLOCATED);
    }

    /** A trial runner for one cycle's snapshot that scores nodes as given. */
    public GangTrial(ClusterSnapshot snapshot, NodeScoring scoring) {
        this(snapshot, scoring, null);
    }

    /**
     * A trial runner that first tries the quorum of each gang without a topology of its own within one
     * topology domain.
     *
     * @param topologyKey node label naming the domains; {@code null} for no default locality
     */
    public GangTrial(ClusterSnapshot snapshot, NodeScoring scoring, String topologyKey) {
        this.nodes = snapshot.nodeArray();
        this.changes = new NodeChanges(nodes.length);
        this.indexes = new ShapeIndexes(nodes, scoring, changes);
        this.layout = new PodLayout(snapshot);
        this.devices = snapshot.devices();
        this.defaultTopology = topologyKey == null ? null : GangTopology.preferred(topologyKey);
    }

    /**
     * What the schedulable nodes have free now, per dimension, this cycle's placements so far included; a
     * node overcommitted in a resource adds none of it.
     */
    public long[] freeRoom() {
        long[] free = new long[ResourceVector.dimensionCount()];
        for (NodeState node : nodes) {
            if (node.info().schedulable()) {
                ResourceVector allocatable = node.info().allocatable();
                for (int d = 0; d < free.length; d++) {
                    free[d] += Math.max(0, allocatable.at(d) - node.requested(d));
                }
            }
        }
        return free;
    }

    /**
     * A new statement on this runner's snapshot, whose changes its shape indexes and layout follow, for a
     * caller that changes the snapshot between trials ({@code VictimSearch} evicts pods).
     */
    public PlacementStatement statement() {
        return new PlacementStatement(changes, layout, devices);
    }

    /**
     * What {@link #attempt(PendingGang)}, or {@link #admit} when {@code admission}, would conclude now,
     * with its placements, keeping nothing: the snapshot is as before whatever the outcome. A gang rejected
     * from slot counts comes back without the node-by-node explanation ({@code unschedulable} is null).
     */
    public GangPlacement probe(PendingGang work, boolean admission) {
        probing = true;
        try {
            return admission ? admit(work) : attempt(work);
        } finally {
            probing = false;
        }
    }

    /** The snapshot's nodes, sorted by name. */
    public NodeState[] nodes() {
        return nodes;
    }

    /** The pods on the node now: the snapshot's, with what this runner's statements kept added or taken off. */
    public List<PodInfo> podsOn(NodeState node) {
        return layout.podsOn(node.index());
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
        QuorumBounds quorum = QuorumBounds.of(work, rejectPercentage);
        String missing = quorum.missingPods(work);
        if (missing != null) {
            return notEnoughPods(work, missing);
        }
        SubGroups subGroups = SubGroups.of(work, this::nodeIndex);
        String lacking = subGroups == null ? null : subGroups.missingPods(work, quorum);
        if (lacking != null) {
            return notEnoughPods(work, lacking);
        }
        GangPlacement rejected = rejectIfQuorumCannotFit(work, quorum);
        if (rejected != null) {
            return rejected;
        }
        GangTopology topology = work.gang().topology() != null ? work.gang().topology() : defaultTopology;
        // A required topology holds the gang's pods beyond its quorum too, once some are bound.
        if (topology != null && (quorum.needed() > 0 || topology.required() && work.bound() > 0)) {
            GangPlacement local = attemptWithinOneDomain(work, quorum, topology, subGroups);
            if (local != null) {
                return local;
            }
            if (topology.required()) {
                String withBound = work.bound() > 0 ? " together with its " + work.bound() + " bound pod(s)" : "";
                return new GangPlacement(work.gang(), GangPlacement.Outcome.NOT_ENOUGH_RESOURCES, List.of(),
                        work.pending(), null, "No single domain of " + String.join(", then ", topology.levels())
                        + " holds the " + quorum.needed() + " pod(s) the quorum still needs" + withBound
                        + ", and the PodGroup's topology is required.");
            }
        }
        return new Attempt(work, subGroups).run(quorum, mayReserve);
    }

    /** The snapshot index of the named node, or -1 if the snapshot has none of that name. */
    private int nodeIndex(String name) {
        if (nodeIndexes == null) {
            nodeIndexes = new HashMap<>();
            for (NodeState node : nodes) {
                nodeIndexes.put(node.name(), node.index());
            }
        }
        return nodeIndexes.getOrDefault(name, -1);
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
        List<PodInfo> quorum = QuorumBounds.withExpected(work);
        if (quorum == null) {
            return notEnoughPods(work, "Waiting for pods: the workload will create fewer than the quorum needs.");
        }
        quorum = SubGroups.completing(quorum, work);
        GangPlacement trial = attempt(new PendingGang(work.gang(), quorum, work.bound(), work.boundByTask(), null,
                List.of(), work.members()));
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
     * Gang topology: tries the quorum, and nothing short of it, level by level within the tightest domain
     * that holds it by slot counts or, for a gang with pods bound, within the domain they are all in.
     *
     * @return the placement, or {@code null} if no domain of any level holds the quorum, leaving the
     *         snapshot as it was
     */
    private GangPlacement attemptWithinOneDomain(PendingGang work, QuorumBounds quorum, GangTopology topology,
                                                 SubGroups subGroups) {
        for (String level : topology.levels()) {
            LocalityDomains locality = localities.computeIfAbsent(level, key -> new LocalityDomains(nodes, key));
            String domain = work.bound() > 0 ? locality.boundDomain(work.gang().key())
                    : locality.tightestHolding(indexes.count(work.pending(), null), quorum.needed());
            if (domain == null) {
                continue;
            }
            LocalityDomains.Pinned pinned = locality.pin(work, domain);
            // The pinned copies are in the order of the pods they copy, so the sub-groups' indexes hold for them.
            GangPlacement result = new Attempt(pinned.gang(), subGroups).run(quorum.quorumOnly(), false);
            if (result.placed()) {
                return pinned.unpin(result);
            }
        }
        return null;
    }

    /**
     * Rejects the gang when, by slot counts, its quorum (or, when nearness is measured, the near
     * threshold) or a task's minimum cannot fit: then placing pods one by one would only fail after
     * filling the free capacity.
     */
    private GangPlacement rejectIfQuorumCannotFit(PendingGang work, QuorumBounds quorum) {
        GangPlacement rejected = rejectIfCannotFit(work, null, quorum.nearFrom(), quorum.shortfall(work));
        for (int t = 0; rejected == null && t < quorum.tasks().size(); t++) {
            QuorumBounds.TaskNeed need = quorum.tasks().get(t);
            rejected = rejectIfCannotFit(work, need.task(), need.needed(), need.shortfall());
        }
        return rejected;
    }

    /**
     * Rejects the gang if fewer than {@code needed} of its pending pods (of one task, or of all when
     * {@code task} is null) can fit by slot counts.
     */
    private GangPlacement rejectIfCannotFit(PendingGang work, String task, int needed, String shortfallText) {
        long reachable = 0;
        ShapeIndex shortest = null;
        long shortfall = 0;
        for (Map.Entry<ShapeIndex, int[]> entry : indexes.count(work.pending(), task).entrySet()) {
            ShapeIndex index = entry.getKey();
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
        if (probing) {
            // A probe's caller asks only whether the gang fits; explaining why not scans every node, and
            // backfill and victim searches probe many times between changes of the snapshot.
            return new GangPlacement(work.gang(), GangPlacement.Outcome.NOT_ENOUGH_RESOURCES, List.of(),
                    work.pending(), null, shortfallText);
        }
        UnschedulableMessage why = DeviceShortfall.name(shortest.misfitWhenFull(changes), podOf(work, shortest), devices);
        return new GangPlacement(work.gang(), GangPlacement.Outcome.NOT_ENOUGH_RESOURCES, List.of(), work.pending(),
                why, gangMessage(work, why, shortfallText));
    }

    /** The gang's first pending pod of the shape. */
    private PodInfo podOf(PendingGang work, ShapeIndex shape) {
        for (PodInfo pod : work.pending()) {
            if (indexes.of(pod) == shape) {
                return pod;
            }
        }
        return null;
    }

    private static String gangMessage(PendingGang work, UnschedulableMessage why, String gangShortfall) {
        return work.gang().key().standalonePod() ? why.message() : why.message() + " " + gangShortfall;
    }

    private static GangPlacement notEnoughPods(PendingGang work, String message) {
        return new GangPlacement(work.gang(), GangPlacement.Outcome.NOT_ENOUGH_PODS, List.of(), work.pending(),
                null, message);
    }

    /** The mutable state of one gang's trial. */
    private final class Attempt {
        private final PendingGang work;
        private final List<PodInfo> pending;
        private final boolean[] tried;
        private final boolean[] placed;
        private final List<PodPlacement> placements = new ArrayList<>();
        private final PlacementStatement statement = new PlacementStatement(changes, layout, devices);
        /** The gang's sub-groups, each placed whole; {@code null} when it has none. */
        private final SubGroups subGroups;
        private UnschedulableMessage lastMisfit;
        /**
         * Why the last sub-group with a required topology found no domain, which no pod's misfit says; cleared
         * when a pod's misfit is newer.
         */
        private String subGroupMisfit;

        Attempt(PendingGang work, SubGroups subGroups) {
            this.work = work;
            this.pending = work.pending();
            this.tried = new boolean[pending.size()];
            this.placed = new boolean[pending.size()];
            this.subGroups = subGroups;
        }

        GangPlacement run(QuorumBounds quorum, boolean mayReserve) {
            for (QuorumBounds.TaskNeed need : quorum.tasks()) {
                if (!placeTaskMinimum(need)) {
                    return discard(need.shortfall(), false);
                }
            }
            String subGroupShortfall = placeSubGroupMinimums();
            if (subGroupShortfall != null) {
                return discard(subGroupShortfall, false);
            }
            placeTheRest(quorum.nearFrom());
            if (placements.size() >= quorum.needed()) {
                return commit();
            }
            if (placements.size() < quorum.nearFrom()) {
                return discard(quorum.shortfall(work), false);
            }
            return mayReserve ? reserve(quorum.needed()) : discard(quorum.shortfall(work), true);
        }

        private boolean placeTaskMinimum(QuorumBounds.TaskNeed need) {
            int placedForTask = 0;
            int untried = need.pending();
            if (subGroups != null) {
                // A sub-group placed for an earlier task's minimum may hold pods of this one.
                placedForTask = countOfTask(need.task(), true);
                untried = countOfTask(need.task(), false);
            }
            for (int i = 0; i < pending.size() && placedForTask < need.needed(); i++) {
                if (tried[i] || !pending.get(i).task().equals(need.task())) {
                    continue;
                }
                int ofTask = triedWith(i, need.task());
                untried -= ofTask;
                boolean fits = tryPodOrSubGroup(i);
                placedForTask += fits ? ofTask : 0;
                if (!fits && placedForTask + untried < need.needed()) {
                    return false;
                }
            }
            return placedForTask >= need.needed();
        }

        /**
         * How many pods trying pending pod {@code i} tries, of the task if one is given: the pod, or the pods of
         * its sub-group, which are tried together.
         */
        private int triedWith(int i, String task) {
            SubGroups.Group group = subGroups == null ? null : subGroups.of(i);
            if (group == null) {
                return 1;
            }
            int count = 0;
            for (int m : group.members()) {
                if (task == null || pending.get(m).task().equals(task)) {
                    count++;
                }
            }
            return count;
        }

        /** Tries pending pod {@code i} or, if it is in a sub-group, the whole sub-group; marks them tried. */
        private boolean tryPodOrSubGroup(int i) {
            SubGroups.Group group = subGroups == null ? null : subGroups.of(i);
            if (group != null) {
                return placeWhole(group);
            }
            tried[i] = true;
            return tryPlace(i, pending.get(i));
        }

        /** The task's pods placed so far, or ({@code placedOnes} false) not tried yet. */
        private int countOfTask(String task, boolean placedOnes) {
            int count = 0;
            for (int i = 0; i < pending.size(); i++) {
                if (pending.get(i).task().equals(task) && (placedOnes ? placed[i] : !tried[i])) {
                    count++;
                }
            }
            return count;
        }

        /**
         * Places untried sub-groups whole until each rule has its {@code minGroups} complete, counting those
         * bound and those placed for the task minimums.
         *
         * @return why a rule's minimum cannot be met, or {@code null} if each is
         */
        private String placeSubGroupMinimums() {
            if (subGroups == null) {
                return null;
            }
            for (SubGroupRule rule : work.gang().subGroups()) {
                int complete = subGroups.completeBound(rule);
                for (SubGroups.Group group : subGroups.groups()) {
                    int first = group.members().get(0);
                    if (group.rule() == rule && tried[first] && placed[first] && group.canComplete()) {
                        complete++;
                    }
                }
                for (SubGroups.Group group : subGroups.groups()) {
                    if (complete >= rule.minGroups()) {
                        break;
                    }
                    if (group.rule() == rule && !tried[group.members().get(0)] && group.canComplete()
                            && placeWhole(group)) {
                        complete++;
                    }
                }
                if (complete < rule.minGroups()) {
                    return "The gang needs " + rule.minGroups() + " sub-group(s) of " + rule.name() + " of "
                            + rule.size() + " pod(s) placed whole" + (rule.topology() == null ? ""
                            : ", each within one domain of " + String.join(" or ", rule.topology().levels()))
                            + "; " + complete + " can be.";
                }
            }
            return null;
        }

        /**
         * Places the sub-group's pending pods together, or none of them, once with its bound pods they make the
         * whole sub-group: within one domain of each level of its
         * topology in turn (the one its bound pods are in, else the tightest that holds them by slot counts),
         * then, unless the topology is required, anywhere. Every pod of it counts as tried either way.
         */
        private boolean placeWhole(SubGroups.Group group) {
            group.members().forEach(i -> tried[i] = true);
            if (!group.canComplete()) {
                // Its other pods are not created yet, or were deleted: placing part of it would split it. A gang
                // that needs it waits for pods (SubGroups.missingPods) before any trial.
                return false;
            }
            GangTopology topology = group.rule().topology();
            if (topology != null) {
                for (String level : topology.levels()) {
                    LocalityDomains locality = localities.computeIfAbsent(level, key -> new LocalityDomains(nodes, key));
                    String domain = !group.boundNodes().isEmpty() ? locality.commonDomain(group.boundNodes())
                            : locality.tightestHolding(indexes.count(podsOf(group), null), group.members().size());
                    if (domain != null && placeAll(group, locality, domain)) {
                        return true;
                    }
                }
                if (topology.required()) {
                    String levels = String.join(", then ", topology.levels());
                    subGroupMisfit = "No single domain of " + levels + " holds " + group.describe()
                            + (group.bound() > 0 ? " together with its " + group.bound() + " bound pod(s)" : "") + ".";
                    // What the pods left pending say, in kube-scheduler's form: the pinned trials' misfits would
                    // name every node outside the domain tried as not matching the pod's selector.
                    lastMisfit = new UnschedulableMessage(nodes.length, Map.of("node(s) were in no single domain of "
                            + levels + " with room for the pod's sub-group of " + group.rule().size(), nodes.length));
                    return false;
                }
            }
            return placeAll(group, null, null);
        }

        private List<PodInfo> podsOf(SubGroups.Group group) {
            List<PodInfo> pods = new ArrayList<>(group.members().size());
            group.members().forEach(i -> pods.add(pending.get(i)));
            return pods;
        }

        /** Places each pod of the sub-group, pinned to the domain if one is given; all of them, or none. */
        private boolean placeAll(SubGroups.Group group, LocalityDomains locality, String domain) {
            int mark = statement.mark();
            int before = placements.size();
            for (int i : group.members()) {
                if (!tryPlace(i, locality == null ? pending.get(i) : locality.pin(pending.get(i), domain))) {
                    statement.rollBackTo(mark);
                    placements.subList(before, placements.size()).clear();
                    group.members().forEach(m -> placed[m] = false);
                    return false;
                }
            }
            return true;
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
                untried -= triedWith(i, null);
                if (!tryPodOrSubGroup(i) && placements.size() + untried < stopBelow) {
                    return;
                }
            }
        }

        /**
         * Places pending pod {@code i} as {@code pod}: itself, or a copy of it pinned to a sub-group's domain, which
         * the statement and the layout hold while the placement names the pod itself.
         */
        private boolean tryPlace(int i, PodInfo pod) {
            ShapeIndex index = indexes.of(pod);
            // Pods no filter or score of the pods around a node concerns take the heap's top; kept apart from
            // the rest, so that this path stays small enough for the JIT to inline whole.
            DeviceCheck deviceCheck = DeviceCheck.prepare(pod, nodes, devices);
            boolean concerned = deviceCheck != null || layout.mayConcern(pod);
            int best = concerned ? bestAmongPods(pod, index, deviceCheck) : index.best();
            if (best < 0) {
                if (!concerned) {
                    lastMisfit = index.misfit(changes);
                }
                lastMisfit = DeviceShortfall.name(lastMisfit, pod, devices);
                subGroupMisfit = null;
                return false;
            }
            NodeState node = nodes[best];
            statement.allocate(pod, node);
            if (deviceCheck != null) {
                for (Map.Entry<String, DeviceAllocation> claim : deviceCheck.allocation(best).entrySet()) {
                    statement.allocateDevices(claim.getKey(), claim.getValue());
                }
            }
            placements.add(new PodPlacement(pending.get(i), node.name()));
            placed[i] = true;
            return true;
        }

        /**
         * The best node for a pod that filters or scores of the pods around a node, or its device claims,
         * may concern, or -1 with {@link #lastMisfit} saying why.
         */
        private int bestAmongPods(PodInfo pod, ShapeIndex index, DeviceCheck deviceCheck) {
            PodChecks checks = PodChecks.prepare(pod, layout);
            if (deviceCheck != null) {
                checks = PodChecks.with(checks, deviceCheck);
            }
            List<PodScore> scores = podScores(pod);
            int best = scores != null ? index.bestScored(checks, scores)
                    : checks == null ? index.best() : index.bestPassing(checks);
            if (best < 0) {
                lastMisfit = checks == null ? index.misfit(changes) : index.misfit(checks);
            }
            return best;
        }

        /** The score plugins that concern the pod, in kube-scheduler's order; {@code null} if none does. */
        private List<PodScore> podScores(PodInfo pod) {
            TopologySpreadScore spread = TopologySpreadScore.prepare(pod, layout);
            InterPodAffinityScore affinity = InterPodAffinityScore.prepare(pod, layout);
            if (spread == null && affinity == null) {
                return null;
            }
            List<PodScore> scores = new ArrayList<>(2);
            if (spread != null) {
                scores.add(spread);
            }
            if (affinity != null) {
                scores.add(affinity);
            }
            return scores;
        }

        private GangPlacement commit() {
            keepOrUndo();
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

        private void keepOrUndo() {
            if (probing) {
                statement.discard();
            } else {
                statement.commit();
            }
        }

        private GangPlacement discard(String gangShortfall, boolean nearQuorum) {
            statement.discard();
            String message = subGroupMisfit != null ? subGroupMisfit + " " + gangShortfall
                    : lastMisfit == null ? gangShortfall : gangMessage(work, lastMisfit, gangShortfall);
            return new GangPlacement(work.gang(), GangPlacement.Outcome.NOT_ENOUGH_RESOURCES, List.of(), pending,
                    lastMisfit, message, nearQuorum);
        }

        /** Keeps the partial placement on the snapshot; none of the gang's pods is to be bound yet. */
        private GangPlacement reserve(int needed) {
            keepOrUndo();
            String message = (subGroupMisfit != null ? subGroupMisfit
                    : lastMisfit != null ? lastMisfit.message() : "") + " Reserved " + placements.size() + " of the " + needed
                    + " pod(s) minMember " + work.gang().minMember() + " needs while waiting for room for the rest.";
            return new GangPlacement(work.gang(), GangPlacement.Outcome.RESERVED, placements, pending, lastMisfit,
                    message, true);
        }
    }
}
