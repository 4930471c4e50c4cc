package dev.muster.scheduler.core;

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
 */
public record GangInfo(GroupKey key, int minMember, Map<String, Integer> minTaskMember, int priority,
                       Instant createdAt) {

    public GangInfo {
        Objects.requireNonNull(key, "key");
        minTaskMember = minTaskMember == null ? Map.of() : Map.copyOf(minTaskMember);
        Objects.requireNonNull(createdAt, "createdAt");
    }
}
