package dev.muster.manager.health;

import dev.muster.job.JobController;
import dev.muster.support.informer.SharedInformers;
import org.springframework.boot.health.contributor.Health;
import org.springframework.boot.health.contributor.HealthIndicator;
import org.springframework.stereotype.Component;

import java.util.ArrayList;
import java.util.List;

/**
 * Up once every shared informer has listed its kind and while every one of them, and every informer the Job
 * controller keeps for plugin objects while it runs, is watching: before the first list, decisions would rest on
 * a partial view; while a watch is down, on a stale one. The details
 * name the informers concerned, so an operator sees which kind Muster is blind to.
 */
@Component("informers")
public class InformersHealthIndicator implements HealthIndicator {
    private final SharedInformers informers;
    private final JobController jobs;

    public InformersHealthIndicator(SharedInformers informers, JobController jobs) {
        this.informers = informers;
        this.jobs = jobs;
    }

    @Override
    public Health health() {
        List<String> unsynced = informers.unsynced();
        List<String> notWatching = new ArrayList<>(informers.notWatching());
        notWatching.addAll(jobs.informersNotWatching());
        if (informers.hasSynced() && notWatching.isEmpty()) {
            return Health.up().build();
        }
        return Health.down().withDetail("unsynced", unsynced).withDetail("notWatching", notWatching).build();
    }
}
