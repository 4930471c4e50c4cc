package dev.muster.manager.endpoint;

import dev.muster.api.batch.v1alpha1.Job;
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
 * {@code /actuator/jobs}: every Muster Job with its phase, reason and pod counts, from the shared informer
 * cache, so that looking costs the API server nothing. On a standby the cache is as fresh as on the leader.
 */
@Component
@Endpoint(id = "jobs")
public class JobsEndpoint {
    private final CachedObjects<Job, JobSummary> jobs;

    public JobsEndpoint(SharedInformers informers) {
        this.jobs = new CachedObjects<>(informers.informer(Job.class).getStore(), JobSummary::of);
    }

    /**
     * {@code GET /actuator/jobs[?namespace=NS]}: the Jobs, by namespace and name.
     *
     * @param namespace only this namespace's Jobs; all when absent
     * @param viewer    who asks: only the namespaces they may see are shown (docs/security.md)
     */
    @ReadOperation
    public List<JobSummary> jobs(@Nullable String namespace, SecurityContext viewer) {
        return jobs.list(namespace, NamespaceScope.of(viewer.getPrincipal()));
    }

    /** {@code GET /actuator/jobs/{namespace}/{name}}: one Job; 404 when the cache does not hold it. */
    @ReadOperation
    public @Nullable JobSummary job(@Selector String namespace, @Selector String name, SecurityContext viewer) {
        return jobs.get(namespace, name, NamespaceScope.of(viewer.getPrincipal()));
    }
}
