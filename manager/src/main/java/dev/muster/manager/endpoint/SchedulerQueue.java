package dev.muster.manager.endpoint;

import dev.muster.scheduler.QueueState;
import dev.muster.scheduler.QueuedGang;

import java.util.List;

/**
 * The gang scheduler's queue as the {@code queue} endpoint shows it.
 *
 * @param scheduling whether this replica's scheduler runs and has caught up with the cluster; false on a
 *                   standby (ask the leader, named by the {@code leadership} health indicator) and right
 *                   after start, when {@code gangs} is empty for want of a cycle, not of waiting gangs
 * @param gangs      the waiting gangs in the order the next cycle tries them, each with why it waits
 * @param queues     every Queue as the latest cycle left it: allocation, fair share, demand, dominant share,
 *                   pending and running gangs; parents before their children
 */
public record SchedulerQueue(boolean scheduling, List<QueuedGang> gangs, List<QueueState> queues) {
}
