package dev.muster.scheduler.core.model;

import java.util.Map;
import java.util.Objects;

/**
 * A namespace's ResourceQuota, as far as the scheduler judges gangs by it: its hard limits and what the API server
 * counts as used, per resource of a pod's requests ({@code cpu} in millicores, {@code memory} in bytes,
 * {@code pods}, an extended resource such as {@code nvidia.com/gpu}), read from the quota's names
 * ({@code requests.cpu} and {@code cpu} alike, {@code count/pods} and {@code pods} alike). What a pod's requests do
 * not say ({@code limits.*}, storage, object counts) is not here, nor are quotas with scopes.
 *
 * @param namespace the quota's namespace
 * @param name      the quota's name
 * @param hard      per resource, the most the namespace's pods may ask for together
 * @param used      per resource, what they ask for now, as the quota's status says
 */
public record NamespaceQuota(String namespace, String name, Map<String, Long> hard, Map<String, Long> used) {

    public NamespaceQuota {
        Objects.requireNonNull(namespace, "namespace");
        Objects.requireNonNull(name, "name");
        hard = Map.copyOf(hard);
        used = used == null ? Map.of() : Map.copyOf(used);
    }
}
