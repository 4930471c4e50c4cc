package dev.muster.scheduler.core;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * A transactional placement of one gang on a {@link ClusterSnapshot}. The gang's pending pods are placed
 * tentatively, each on the fullest node it fits; if, together with the gang's bound pods, that makes at
 * least {@code minMember} pods and each task's {@code minTaskMember}, the placements are committed (and
 * pods beyond the quorum that fit are placed too); otherwise every tentative placement is undone and the
 * snapshot is exactly as before.
 *
 * <p>Pods are tried in this order: first, per task with a minimum (by task name), as many of the task's
 * pods as its minimum still needs, so that pods of other tasks cannot take the room a task's minimum
 * needs; then all other pods in their given order. A trial gives up as soon as the quorum can no longer
 * be reached. Within a trial, a pod shaped like one that fit nowhere is not tried again (the snapshot
 * only fills up during a trial), and a pod shaped like the last one placed goes to the same node while
 * it fits there, which is the node a full scan would choose, since only that node's score rose.
 */
public final class GangTrial {
    private final NodeState[] nodes;

    /** A trial runner for one cycle's snapshot; reusable for every gang of the cycle. */
    public GangTrial(ClusterSnapshot snapshot) {
        this.nodes = snapshot.nodeArray();
    }

    /** Places the gang's quorum and what else fits, or nothing. */
    public GangPlacement attempt(PendingGang work) {
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
        return new Attempt(work).run(needed, taskNeeds);
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

    /** A pod shape that fit nowhere in this trial, and why. */
    private record Misfit(PodInfo pod, UnschedulableMessage why) {
    }

    /** The mutable state of one gang's trial. */
    private final class Attempt {
        private final PendingGang work;
        private final List<PodInfo> pending;
        private final boolean[] tried;
        private final boolean[] placed;
        private final List<PodPlacement> placements = new ArrayList<>();
        private final List<NodeState> placedOn = new ArrayList<>();
        private final List<Misfit> misfits = new ArrayList<>(2);
        private PodInfo lastPlacedPod;
        private NodeState lastNode;
        private UnschedulableMessage lastMisfit;

        Attempt(PendingGang work) {
            this.work = work;
            this.pending = work.pending();
            this.tried = new boolean[pending.size()];
            this.placed = new boolean[pending.size()];
        }

        GangPlacement run(int needed, List<TaskNeed> taskNeeds) {
            for (TaskNeed need : taskNeeds) {
                if (!placeTaskMinimum(need)) {
                    return discard("Task " + need.task() + " needs " + need.needed()
                            + " pod(s) placed at once for minTaskMember " + need.minimum() + ".");
                }
            }
            if (!placeTheRest(needed)) {
                return discard("The gang needs " + needed + " pod(s) placed at once for minMember "
                        + work.gang().minMember() + ".");
            }
            return commit();
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

        private boolean placeTheRest(int needed) {
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
                if (!tryPlace(i) && placements.size() + untried < needed) {
                    return false;
                }
            }
            return placements.size() >= needed;
        }

        private boolean tryPlace(int index) {
            PodInfo pod = pending.get(index);
            NodeState node = chooseNode(pod);
            if (node == null) {
                return false;
            }
            node.place(pod.requests());
            placements.add(new PodPlacement(pod, node.name()));
            placedOn.add(node);
            placed[index] = true;
            lastPlacedPod = pod;
            lastNode = node;
            return true;
        }

        private NodeState chooseNode(PodInfo pod) {
            if (lastPlacedPod != null && pod.sameShapeAs(lastPlacedPod) && lastNode.fits(pod.requests())) {
                return lastNode;
            }
            for (Misfit misfit : misfits) {
                if (pod.sameShapeAs(misfit.pod())) {
                    lastMisfit = misfit.why();
                    return null;
                }
            }
            NodeState best = NodePicker.mostAllocated(nodes, pod);
            if (best == null) {
                lastMisfit = UnschedulableMessage.explain(nodes, pod);
                misfits.add(new Misfit(pod, lastMisfit));
            }
            return best;
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

        private GangPlacement discard(String gangShortfall) {
            for (int i = placements.size() - 1; i >= 0; i--) {
                placedOn.get(i).unplace(placements.get(i).pod().requests());
            }
            String message = work.gang().key().standalonePod()
                    ? lastMisfit.message()
                    : lastMisfit.message() + " " + gangShortfall;
            return new GangPlacement(work.gang(), GangPlacement.Outcome.NOT_ENOUGH_RESOURCES, List.of(), pending,
                    lastMisfit, message);
        }
    }
}
