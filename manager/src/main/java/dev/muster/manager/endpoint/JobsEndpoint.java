package dev.muster.manager.endpoint;

import dev.muster.api.batch.v1alpha1.Job;
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
 * {@code /actuator/jobs}: every Muster Job with its phase, reason and pod counts, from the shared informer
 * cache, so that looking costs the API server nothing. On a standby the cache is as fresh as on the leader.
 */
@Component
@Endpoint(id = "jobs")
public class JobsEndpoint {
    private final Store<Job> jobs;

    public JobsEndpoint(SharedInformers informers) {
        this.jobs = informers.informer(Job.class).getStore();
    }

    /**
     * {@code GET /actuator/jobs[?namespace=NS]}: the Jobs, by namespace and name.
     *
     * @param namespace only this namespace's Jobs; all when absent
     */
    @ReadOperation
    public List<JobSummary> jobs(@Nullable String namespace) {
        return jobs.list().stream()
                .filter(job -> namespace == null || namespace.equals(job.getMetadata().getNamespace()))
                .map(JobSummary::of)
                .sorted(Comparator.comparing(JobSummary::namespace).thenComparing(JobSummary::name))
                .toList();
    }

    /** {@code GET /actuator/jobs/{namespace}/{name}}: one Job; 404 when the cache does not hold it. */
    @ReadOperation
    public @Nullable JobSummary job(@Selector String namespace, @Selector String name) {
        Job job = jobs.getByKey(namespace + "/" + name);
        return job == null ? null : JobSummary.of(job);
    }
}
