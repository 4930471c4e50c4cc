package dev.muster.scheduler.core.placement;

import dev.muster.scheduler.core.model.GangInfo;
import dev.muster.scheduler.core.model.PendingGang;
import dev.muster.scheduler.core.model.PodInfo;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * What one gang's quorum still needs placed, after its bound pods: how many pods ({@code minMember}),
 * how many of each task's ({@code minTaskMember}), and from how many placed pods a failed gang counts as
 * near its quorum ({@code podGroupRejectPercentage}).
 *
 * @param needed   pods still to place for minMember
 * @param nearFrom a failed trial that placed at least this many pods is near the quorum; equal to
 *                 {@code needed} when nearness is not measured
 * @param tasks    per task whose minimum is not met by its bound pods, by task name
 */
public record QuorumBounds(int needed, int nearFrom, List<TaskNeed> tasks) {

    /**
     * The gang's bounds.
     *
     * @param rejectPercentage a failed gang with at most this percentage of minMember unplaced (bound
     *                         pods count as placed) is near its quorum; negative: nearness not measured
     */
    public static QuorumBounds of(PendingGang work, int rejectPercentage) {
        GangInfo gang = work.gang();
        int needed = Math.max(0, gang.minMember() - work.bound());
        int nearFrom = rejectPercentage < 0 ? needed
                : Math.min(needed,
                        Math.max(0, ceilDiv(gang.minMember() * (100 - rejectPercentage), 100) - work.bound()));
        return new QuorumBounds(needed, nearFrom, taskNeeds(work));
    }

    /** The same bounds with nearness not measured: only the whole quorum counts. */
    QuorumBounds quorumOnly() {
        return new QuorumBounds(needed, needed, tasks);
    }

    /** Why the gang's pending pods are too few for its quorum, whatever the room; {@code null} if not. */
    public String missingPods(PendingGang work) {
        if (work.pending().size() < needed) {
            return "Waiting for pods: the group has fewer than minMember " + work.gang().minMember() + ".";
        }
        for (TaskNeed task : tasks) {
            if (task.pending() < task.needed()) {
                return "Waiting for pods: task " + task.task() + " has fewer than minTaskMember " + task.minimum()
                        + ".";
            }
        }
        return null;
    }

    /** How many pods the gang must place at once, for messages. */
    String shortfall(PendingGang work) {
        return "The gang needs " + needed + " pod(s) placed at once for minMember " + work.gang().minMember() + ".";
    }

    /**
     * The gang's pending pods plus the expected pods that complete its quorum: first what each task's
     * minimum lacks, then, in the order the workload creates them, what minMember lacks.
     *
     * @return {@code null} if the expected pods cannot complete it
     */
    public static List<PodInfo> withExpected(PendingGang work) {
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

    private static int ceilDiv(int dividend, int divisor) {
        return -Math.floorDiv(-dividend, divisor);
    }

    /**
     * What one task's minimum still needs.
     *
     * @param minimum the task's minTaskMember
     * @param needed  pods still to place, after the task's bound pods
     * @param pending the task's pending pods
     */
    record TaskNeed(String task, int minimum, int needed, int pending) {
        /** How many of the task's pods must be placed at once, for messages. */
        String shortfall() {
            return "Task " + task + " needs " + needed + " pod(s) placed at once for minTaskMember " + minimum + ".";
        }
    }
}
