package dev.muster.manager.endpoint;

import dev.muster.api.scheduling.v1alpha1.PodGroup;
import dev.muster.support.informer.SharedInformers;
import io.fabric8.kubernetes.client.informers.cache.Store;
import org.jspecify.annotations.Nullable;
import org.springframework.boot.actuate.endpoint.annotation.Endpoint;
import org.springframework.boot.actuate.endpoint.annotation.ReadOperation;
import org.springframework.boot.actuate.endpoint.annotation.Selector;
import org.springframework.stereotype.Component;

import java.util.Comparator;
import java.util.List;

/**
 * {@code /actuator/podgroups}: every PodGroup (a Job's or a user's) with its phase, counters and
 * conditions, from the shared informer cache.
 */
@Component
@Endpoint(id = "podgroups")
public class PodGroupsEndpoint {
    private final Store<PodGroup> podGroups;

    public PodGroupsEndpoint(SharedInformers informers) {
        this.podGroups = informers.informer(PodGroup.class).getStore();
    }

    /**
     * {@code GET /actuator/podgroups[?namespace=NS]}: the PodGroups, by namespace and name.
     *
     * @param namespace only this namespace's PodGroups; all when absent
     */
    @ReadOperation
    public List<PodGroupSummary> podGroups(@Nullable String namespace) {
        return podGroups.list().stream()
                .filter(group -> namespace == null || namespace.equals(group.getMetadata().getNamespace()))
                .map(PodGroupSummary::of)
                .sorted(Comparator.comparing(PodGroupSummary::namespace).thenComparing(PodGroupSummary::name))
                .toList();
    }

    /** {@code GET /actuator/podgroups/{namespace}/{name}}: one PodGroup; 404 when the cache does not hold it. */
    @ReadOperation
    public @Nullable PodGroupSummary podGroup(@Selector String namespace, @Selector String name) {
        PodGroup group = podGroups.getByKey(namespace + "/" + name);
        return group == null ? null : PodGroupSummary.of(group);
    }
}
