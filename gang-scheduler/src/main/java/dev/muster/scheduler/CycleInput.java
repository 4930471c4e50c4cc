package dev.muster.scheduler;

import dev.muster.scheduler.core.ClusterSnapshot;
import dev.muster.scheduler.core.MissingPodGroup;
import dev.muster.scheduler.core.PendingGang;

import java.util.List;

/**
 * What one scheduling cycle works on, taken from the cache at one instant.
 *
 * @param snapshot the nodes and their usage, including assumed pods
 * @param gangs    gangs with pods to place whose PodGroup exists
 * @param missing  pending pods whose PodGroup does not exist, by group; not tried
 */
record CycleInput(ClusterSnapshot snapshot, List<PendingGang> gangs, List<MissingPodGroup> missing) {
}
