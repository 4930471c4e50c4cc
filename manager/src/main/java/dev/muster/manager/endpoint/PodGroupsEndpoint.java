package dev.muster.manager.endpoint;

import dev.muster.api.scheduling.v1alpha1.PodGroup;
import dev.muster.support.informer.SharedInformers;
import dev.muster.manager.security.NamespaceScope;
import org.jspecify.annotations.Nullable;
import org.springframework.boot.actuate.endpoint.SecurityContext;
import org.springframework.boot.actuate.endpoint.annotation.Endpoint;
import org.springframework.boot.actuate.endpoint.annotation.ReadOperation;
import org.springframework.boot.actuate.endpoint.annotation.Selector;
import org.springframework.stereotype.Component;

import java.util.List;

/**
 * {@code /actuator/podgroups}: every PodGroup (a Job's or a user's) with its phase, counters and
 * conditions, from the shared informer cache.
 */
@Component
@Endpoint(id = "podgroups")
public class PodGroupsEndpoint {
    private final CachedObjects<PodGroup, PodGroupSummary> podGroups;

    public PodGroupsEndpoint(SharedInformers informers) {
        this.podGroups = new CachedObjects<>(informers.informer(PodGroup.class).getStore(), PodGroupSummary::of);
    }

    /**
     * {@code GET /actuator/podgroups[?namespace=NS]}: the PodGroups, by namespace and name.
     *
     * @param namespace only this namespace's PodGroups; all when absent
     * @param viewer    who asks: only the namespaces they may see are shown (docs/security.md)
     */
    @ReadOperation
    public List<PodGroupSummary> podGroups(@Nullable String namespace, SecurityContext viewer) {
        return podGroups.list(namespace, NamespaceScope.of(viewer.getPrincipal()));
    }

    /** {@code GET /actuator/podgroups/{namespace}/{name}}: one PodGroup; 404 when the cache does not hold it. */
    @ReadOperation
    public @Nullable PodGroupSummary podGroup(@Selector String namespace, @Selector String name, SecurityContext viewer) {
        return podGroups.get(namespace, name, NamespaceScope.of(viewer.getPrincipal()));
    }
}
