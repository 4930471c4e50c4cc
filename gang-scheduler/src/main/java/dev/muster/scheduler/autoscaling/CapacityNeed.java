package dev.muster.scheduler.autoscaling;

import dev.muster.scheduler.core.model.GroupKey;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;

/**
 * A gang its queue would admit now but that does not fit the current nodes: the capacity it asks the
 * autoscaler for.
 *
 * @param gang              the gang (a PodGroup)
 * @param provisioningClass the ProvisioningRequest class to ask with
 * @param podSets           per task, in the order the Job creates them, how many of its pods the quorum needs
 */
public record CapacityNeed(GroupKey gang, String provisioningClass, Map<String, Integer> podSets) {
    public CapacityNeed {
        Objects.requireNonNull(gang, "gang");
        Objects.requireNonNull(provisioningClass, "provisioningClass");
        podSets = Collections.unmodifiableMap(new LinkedHashMap<>(podSets));
        if (podSets.isEmpty()) {
            throw new IllegalArgumentException("a capacity need has at least one pod set: " + gang);
        }
    }
}
