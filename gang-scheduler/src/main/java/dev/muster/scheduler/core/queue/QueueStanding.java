package dev.muster.scheduler.core.queue;

import dev.muster.scheduler.core.model.ResourceVector;

import java.util.Objects;

/**
 * Where one queue stands at the end of a cycle, for its status and metrics. Amounts are per resource,
 * pod slots excluded; a parent's amounts cover its whole subtree.
 *
 * @param name         the queue
 * @param allocated    what the subtree's bound pods request, plus what this cycle placed or admitted
 * @param fairShare    its entitlement by hierarchical water-filling ({@link FairShare}), rounded down:
 *                     never above its demand or limit, raised to its guarantee as far as it asks
 * @param demand       allocated plus what its waiting gangs request (pending pods and pods their
 *                     workloads will create once admitted)
 * @param share        allocated over fair share on its dominant resource (the largest ratio); 0 with
 *                     nothing allocated; {@link Double#POSITIVE_INFINITY} when it holds a resource it has
 *                     no fair share of
 * @param pendingGangs gangs of the subtree waiting to start, at the start of the cycle
 * @param runningGangs gangs of the subtree running, at the start of the cycle
 */
public record QueueStanding(String name, ResourceVector allocated, ResourceVector fairShare, ResourceVector demand,
                            double share, int pendingGangs, int runningGangs) {

    public QueueStanding {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(allocated, "allocated");
        Objects.requireNonNull(fairShare, "fairShare");
        Objects.requireNonNull(demand, "demand");
    }
}
