package dev.muster.scheduler.core.model;

import java.util.Map;

/**
 * What a ResourceQuota reads of a pod still to be created beyond its requests: its limits, counted under
 * {@code limits.*}, and what a quota's scopes select pods by.
 *
 * @param limits                 what it counts for {@code limits.cpu}, {@code limits.memory} and
 *                               {@code limits.ephemeral-storage}, by those names ({@link NamespaceQuota#LIMITS_PREFIX})
 * @param priorityClassName      {@code spec.priorityClassName} as the API server's Priority admission will have it
 *                               (the global default class when the pod names none), empty when there is none
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

    /** These facts of a pod that names no class, once the API server has given it {@code globalDefault}. */
    public QuotaFacts withDefaultClass(String globalDefault) {
        return priorityClassName.isEmpty() && globalDefault != null && !globalDefault.isEmpty()
                ? new QuotaFacts(limits, globalDefault, terminating, bestEffort, crossNamespaceAffinity) : this;
    }
}
