package dev.muster.manager.health;

import dev.muster.manager.leadership.Leadership;
import dev.muster.manager.leadership.LeadershipStatus;
import dev.muster.manager.leadership.UncontestedLeadership;
import org.junit.jupiter.api.Test;
import org.springframework.boot.health.contributor.Health;
import org.springframework.boot.health.contributor.Status;

import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

class LeadershipHealthIndicatorTest {

    @Test
    void aStandbyIsUpAndNamesTheLeader() {
        Health health = indicator(new LeadershipStatus(true, false, "muster-b", "batch/muster-manager", "muster-a")).health();

        assertThat(health.getStatus()).isEqualTo(Status.UP);
        assertThat(health.getDetails()).isEqualTo(Map.of("leader", false, "identity", "muster-b",
                "lease", "batch/muster-manager", "holder", "muster-a"));
    }

    @Test
    void theLeaderIsUp() {
        Health health = indicator(new LeadershipStatus(true, true, "muster-a", "batch/muster-manager", "muster-a")).health();

        assertThat(health.getStatus()).isEqualTo(Status.UP);
        assertThat(health.getDetails()).containsEntry("leader", true);
    }

    @Test
    void beforeTheFirstReadOfTheLeaseThereIsNoHolder() {
        Health health = indicator(new LeadershipStatus(true, false, "muster-b", "batch/muster-manager", null)).health();

        assertThat(health.getDetails()).doesNotContainKey("holder").containsEntry("leader", false);
    }

    @Test
    void withElectionDisabledTheProcessLeadsOnceStarted() {
        UncontestedLeadership leadership = new UncontestedLeadership("laptop");
        LeadershipHealthIndicator indicator = new LeadershipHealthIndicator(leadership);
        assertThat(indicator.health().getDetails()).containsEntry("leader", false);

        leadership.start(() -> {
        }, () -> {
        });

        assertThat(indicator.health().getStatus()).isEqualTo(Status.UP);
        assertThat(indicator.health().getDetails()).isEqualTo(Map.of("leader", true, "identity", "laptop",
                "election", "disabled"));
    }

    private static LeadershipHealthIndicator indicator(LeadershipStatus status) {
        return new LeadershipHealthIndicator(new Leadership() {
            @Override
            public void start(Runnable onLeading, Runnable onLost) {
            }

            @Override
            public void stop() {
            }

            @Override
            public boolean mayWrite() {
                return status.leader();
            }

            @Override
            public LeadershipStatus status() {
                return status;
            }
        });
    }
}
