package dev.muster.scheduler.core;

import java.time.Duration;
import java.time.Instant;
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
 */
public record GangInfo(GroupKey key, int minMember, Map<String, Integer> minTaskMember, int priority,
                       Instant createdAt, Duration scheduleTimeout, GangTopology topology) {

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
    }
}
