package dev.muster.scheduler.core.model;

import java.util.Map;

/**
 * What a ResourceQuota reads of a pod still to be created beyond its requests: its limits, counted under
 * {@code limits.*}, and what a quota's scopes select pods by.
 *
 * @param limits                 what it counts for {@code limits.cpu}, {@code limits.memory} and
 *                               {@code limits.ephemeral-storage}, by those names ({@link NamespaceQuota#LIMITS_PREFIX})
 * @param priorityClassName      {@code spec.priorityClassName}, empty when unset
 * @param terminating            whether it sets {@code spec.activeDeadlineSeconds}
 * @param bestEffort             whether its QoS class is BestEffort: no container asks for or limits cpu or memory
 * @param crossNamespaceAffinity whether a pod (anti-)affinity term names other namespaces or a namespaceSelector
 */
public record QuotaFacts(Map<String, Long> limits, String priorityClassName, boolean terminating, boolean bestEffort,
                         boolean crossNamespaceAffinity) {
    public QuotaFacts {
        limits = Map.copyOf(limits);
        priorityClassName = priorityClassName == null ? "" : priorityClassName;
    }
}
