package dev.muster.scheduler.core.model;

import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * A namespace's ResourceQuota, as far as the scheduler judges gangs by it: its hard limits and what the API server
 * counts as used, per resource of a pod's requests ({@code cpu} in millicores, {@code memory} in bytes, an extended
 * resource such as {@code nvidia.com/gpu}; {@code requests.cpu} and {@code cpu} alike), per limit of its containers
 * ({@code limits.cpu}, {@code limits.memory}, {@code limits.ephemeral-storage}, in the same units) and the pod counts
 * ({@code pods}, the pods not finished; {@link #OBJECT_COUNT_PODS}, every pod stored, finished or not), counted over
 * the pods its scopes select. Storage and other object counts are not here.
 *
 * @param namespace the quota's namespace
 * @param name      the quota's name
 * @param hard      per resource, the most the namespace's pods may ask for together
 * @param used      per resource, what they ask for now, as the quota's status says
 * @param scopes    its scopes: it counts only the pods all of them select; none, every pod
 */
public record NamespaceQuota(String namespace, String name, Map<String, Long> hard, Map<String, Long> used,
                             List<QuotaScope> scopes) {
    /** The object count of pods: unlike {@code pods}, it counts finished pods until they are deleted. */
    public static final String OBJECT_COUNT_PODS = "count/pods";
    /** How a quota names a limit of the pods' containers: {@code limits.cpu}. */
    public static final String LIMITS_PREFIX = "limits.";
    /** The resources whose limits a quota counts for pods, each under {@link #LIMITS_PREFIX}. */
    public static final List<String> LIMITED_RESOURCES = List.of(ResourceVector.CPU, ResourceVector.MEMORY,
            "ephemeral-storage");

    /** The resource a quota name limits the containers' limits of ({@code cpu} for {@code limits.cpu}), else null. */
    public static String limitedResource(String quotaName) {
        return quotaName.startsWith(LIMITS_PREFIX) ? quotaName.substring(LIMITS_PREFIX.length()) : null;
    }

    public NamespaceQuota {
        Objects.requireNonNull(namespace, "namespace");
        Objects.requireNonNull(name, "name");
        hard = Map.copyOf(hard);
        used = used == null ? Map.of() : Map.copyOf(used);
        scopes = scopes == null ? List.of() : List.copyOf(scopes);
    }

    /**
     * Whether the quota counts a pod still to be created: every scope selects it. A pod whose facts are not known
     * counts only for a quota without scopes.
     */
    public boolean selects(QuotaFacts pod) {
        if (scopes.isEmpty()) {
            return true;
        }
        if (pod == null) {
            return false;
        }
        for (QuotaScope scope : scopes) {
            if (!scope.selects(pod)) {
                return false;
            }
        }
        return true;
    }
}
