package dev.muster.manager.health;

import dev.muster.support.informer.SharedInformers;
import org.springframework.boot.health.contributor.Health;
import org.springframework.boot.health.contributor.HealthIndicator;
import org.springframework.stereotype.Component;

/** Up once every shared informer has listed its kind: before that, decisions would rest on a partial view. */
@Component("informers")
public class InformersHealthIndicator implements HealthIndicator {
    private final SharedInformers informers;

    public InformersHealthIndicator(SharedInformers informers) {
        this.informers = informers;
    }

    @Override
    public Health health() {
        if (informers.hasSynced()) {
            return Health.up().build();
        }
        return Health.down().withDetail("unsynced", informers.unsynced()).build();
    }
}
