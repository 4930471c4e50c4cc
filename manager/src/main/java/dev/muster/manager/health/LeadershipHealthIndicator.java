package dev.muster.manager.health;

import dev.muster.manager.leadership.Leadership;
import dev.muster.manager.leadership.LeadershipStatus;
import org.springframework.boot.health.contributor.Health;
import org.springframework.boot.health.contributor.HealthIndicator;
import org.springframework.stereotype.Component;

/**
 * Whether this replica leads, who it is and which Lease it competes for. Always UP: a standby is a healthy
 * replica doing its job (waiting with a warm cache), and a DOWN here would make Kubernetes restart it or
 * keep it out of a rolling update for no fault of its own. Hence also not in the readiness group.
 */
@Component("leadership")
public class LeadershipHealthIndicator implements HealthIndicator {
    private final Leadership leadership;

    public LeadershipHealthIndicator(Leadership leadership) {
        this.leadership = leadership;
    }

    @Override
    public Health health() {
        LeadershipStatus status = leadership.status();
        Health.Builder health = Health.up()
                .withDetail("leader", status.leader())
                .withDetail("identity", status.identity());
        if (!status.electing()) {
            return health.withDetail("election", "disabled").build();
        }
        health.withDetail("lease", status.lease());
        if (status.holder() != null) {
            health.withDetail("holder", status.holder());
        }
        return health.build();
    }
}
