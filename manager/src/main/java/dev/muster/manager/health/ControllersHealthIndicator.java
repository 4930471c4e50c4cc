package dev.muster.manager.health;

import dev.muster.job.JobController;
import dev.muster.podgroup.PodGroupController;
import org.springframework.boot.health.contributor.Health;
import org.springframework.boot.health.contributor.HealthIndicator;
import org.springframework.stereotype.Component;

import java.util.Map;

/**
 * Down when a controller has lost worker threads: its keys would then wait for good while everything
 * else looks fine. Part of liveness as well as readiness, since only a restart brings the threads back.
 */
@Component("controllers")
public class ControllersHealthIndicator implements HealthIndicator {
    private final JobController jobs;
    private final PodGroupController podGroups;

    public ControllersHealthIndicator(JobController jobs, PodGroupController podGroups) {
        this.jobs = jobs;
        this.podGroups = podGroups;
    }

    @Override
    public Health health() {
        int deadJobWorkers = jobs.deadWorkers();
        int deadPodGroupWorkers = podGroups.deadWorkers();
        Health.Builder health = deadJobWorkers == 0 && deadPodGroupWorkers == 0 ? Health.up() : Health.down();
        return health.withDetail("deadWorkers", Map.of("job-controller", deadJobWorkers,
                "podgroup-controller", deadPodGroupWorkers)).build();
    }
}
