package dev.muster.scheduler;

import dev.muster.scheduler.core.cluster.ClusterSnapshot;
import dev.muster.scheduler.core.model.MissingPodGroup;
import dev.muster.scheduler.core.model.PendingGang;

import dev.muster.scheduler.core.model.GroupKey;
import dev.muster.scheduler.core.model.QueueInfo;
import dev.muster.scheduler.core.model.RunningGang;
import dev.muster.scheduler.core.queue.QueueHold;

import java.util.List;
import java.util.Map;

/**
 * What one scheduling cycle works on, taken from the cache at one instant.
 *
 * @param snapshot the nodes and their usage, including assumed pods
 * @param gangs    gangs with pods to place whose PodGroup exists
 * @param missing  pending pods whose PodGroup does not exist, by group; not tried
 * @param running  gangs of PodGroups with pods bound, by key
 * @param queues   every queue, the default one included
 * @param refused  gangs their queue does not take ({@code QueueAccess}, the Job controller's rule too), but
 *                 those of a Closed queue, which stay in {@code gangs} and which the planner holds: not tried,
 *                 not counted in any queue's demand, so they can trigger no reclaim
 */
record CycleInput(ClusterSnapshot snapshot, List<PendingGang> gangs, List<MissingPodGroup> missing,
                  Map<GroupKey, RunningGang> running, List<QueueInfo> queues, List<QueueHold> refused) {
}
