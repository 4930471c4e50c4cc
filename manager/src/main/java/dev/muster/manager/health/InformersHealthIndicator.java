package dev.muster.manager.health;

import dev.muster.support.informer.SharedInformers;
import org.springframework.boot.health.contributor.Health;
import org.springframework.boot.health.contributor.HealthIndicator;
import org.springframework.stereotype.Component;

import java.util.List;

/**
 * Up once every shared informer has listed its kind and while every one of them is watching: before the
 * first list, decisions would rest on a partial view; while a watch is down, on a stale one. The details
 * name the informers concerned, so an operator sees which kind Muster is blind to.
 */
@Component("informers")
public class InformersHealthIndicator implements HealthIndicator {
    private final SharedInformers informers;

    public InformersHealthIndicator(SharedInformers informers) {
        this.informers = informers;
    }

    @Override
    public Health health() {
        List<String> unsynced = informers.unsynced();
        List<String> notWatching = informers.notWatching();
        if (informers.hasSynced() && notWatching.isEmpty()) {
            return Health.up().build();
        }
        return Health.down().withDetail("unsynced", unsynced).withDetail("notWatching", notWatching).build();
    }
}
