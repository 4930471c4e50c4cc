package dev.muster.scheduler.core.model;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * A gang's scheduling requirements.
 *
 * @param key           which gang
 * @param minMember     pods that must run at once, counting pods already bound
 * @param minTaskMember per task, pods that must run at once, counting pods already bound
 * @param priority      higher is scheduled first
 * @param createdAt     among equal priorities, older is scheduled first
 * @param scheduleTimeout the PodGroup's {@code scheduleTimeoutSeconds}: how long it may hold a
 *                      reservation; {@code null} for the scheduler's permit waiting time
 * @param topology      the PodGroup's gang topology; {@code null} for the scheduler's default gang locality
 * @param queue         the leaf queue the gang belongs to; {@link QueueInfo#DEFAULT} when it names none
 * @param maxRuntime    how long its workload may run before it is terminated ({@code maxRuntime}) or, without
 *                      such a bound, is expected to run ({@code runningEstimate}, not enforced, so it can run
 *                      longer); backfill plans with it; {@code null} for neither
 * @param minResources  the PodGroup's {@code minResources}: what the gang needs free, in sum over the
 *                      schedulable nodes and within its queue's limit, before any of its pods may be
 *                      placed (Volcano's enqueue check); {@link ResourceVector#ZERO} when it sets none
 * @param subGroups     the PodGroup's sub-gangs ({@code subGroupPolicy}), each placed whole; empty for none
 */
public record GangInfo(GroupKey key, int minMember, Map<String, Integer> minTaskMember, int priority,
                       Instant createdAt, Duration scheduleTimeout, GangTopology topology, String queue,
                       Duration maxRuntime, ResourceVector minResources, List<SubGroupRule> subGroups) {

    /** A gang without sub-gangs. */
    public GangInfo(GroupKey key, int minMember, Map<String, Integer> minTaskMember, int priority,
                    Instant createdAt, Duration scheduleTimeout, GangTopology topology, String queue,
                    Duration maxRuntime, ResourceVector minResources) {
        this(key, minMember, minTaskMember, priority, createdAt, scheduleTimeout, topology, queue, maxRuntime,
                minResources, List.of());
    }

    /** A gang that sets no {@code minResources}. */
    public GangInfo(GroupKey key, int minMember, Map<String, Integer> minTaskMember, int priority,
                    Instant createdAt, Duration scheduleTimeout, GangTopology topology, String queue,
                    Duration maxRuntime) {
        this(key, minMember, minTaskMember, priority, createdAt, scheduleTimeout, topology, queue, maxRuntime,
                ResourceVector.ZERO);
    }

    /** A gang of the default queue with no bound on its runtime. */
    public GangInfo(GroupKey key, int minMember, Map<String, Integer> minTaskMember, int priority,
                    Instant createdAt, Duration scheduleTimeout, GangTopology topology) {
        this(key, minMember, minTaskMember, priority, createdAt, scheduleTimeout, topology, QueueInfo.DEFAULT, null);
    }

    /** A gang under the scheduler's default gang locality. */
    public GangInfo(GroupKey key, int minMember, Map<String, Integer> minTaskMember, int priority,
                    Instant createdAt, Duration scheduleTimeout) {
        this(key, minMember, minTaskMember, priority, createdAt, scheduleTimeout, null);
    }

    /** A gang that waits as long as the scheduler's permit waiting time says. */
    public GangInfo(GroupKey key, int minMember, Map<String, Integer> minTaskMember, int priority,
                    Instant createdAt) {
        this(key, minMember, minTaskMember, priority, createdAt, null);
    }

    public GangInfo {
        Objects.requireNonNull(key, "key");
        minTaskMember = minTaskMember == null ? Map.of() : Map.copyOf(minTaskMember);
        Objects.requireNonNull(createdAt, "createdAt");
        queue = queue == null || queue.isEmpty() ? QueueInfo.DEFAULT : queue;
        minResources = minResources == null ? ResourceVector.ZERO : minResources;
        subGroups = subGroups == null ? List.of() : List.copyOf(subGroups);
    }

    /** The same gang in another queue, with the given bound on its runtime. */
    public GangInfo inQueue(String queueName, Duration runtimeBound) {
        return new GangInfo(key, minMember, minTaskMember, priority, createdAt, scheduleTimeout, topology, queueName,
                runtimeBound, minResources, subGroups);
    }
}
