package dev.muster.manager.config;

import org.junit.jupiter.api.Test;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.boot.context.properties.source.MapConfigurationPropertySource;

import java.time.Duration;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** {@code muster.leader-election.*}: the names the Helm chart sets, the defaults, and timings that cannot work. */
class LeaderElectionPropertiesTest {

    private static MusterProperties bind(Map<String, String> properties) {
        return new Binder(new MapConfigurationPropertySource(properties)).bind("muster", MusterProperties.class)
                .orElseGet(() -> new MusterProperties(null, null, null, null, null, null));
    }

    @Test
    void bindsEveryProperty() {
        MusterProperties.LeaderElection election = bind(Map.of(
                "muster.leader-election.enabled", "false",
                "muster.leader-election.lease-name", "muster",
                "muster.leader-election.namespace", "batch-system",
                "muster.leader-election.identity", "muster-7d9f-abcde",
                "muster.leader-election.lease-duration", "30s",
                "muster.leader-election.renew-deadline", "20s",
                "muster.leader-election.retry-period", "4s")).leaderElection();

        assertThat(election).isEqualTo(new MusterProperties.LeaderElection(false, "muster", "batch-system",
                "muster-7d9f-abcde", Duration.ofSeconds(30), Duration.ofSeconds(20), Duration.ofSeconds(4)));
        assertThat(election.lease()).isEqualTo("batch-system/muster");
    }

    @Test
    void defaultsWhenNothingIsSet() {
        MusterProperties.LeaderElection election = bind(Map.of()).leaderElection();

        assertThat(election.enabled()).isTrue();
        assertThat(election.leaseName()).isEqualTo("muster-manager");
        assertThat(election.namespace()).isEqualTo("default");
        assertThat(election.leaseDuration()).isEqualTo(Duration.ofSeconds(15));
        assertThat(election.renewDeadline()).isEqualTo(Duration.ofSeconds(10));
        assertThat(election.retryPeriod()).isEqualTo(Duration.ofSeconds(2));
    }

    @Test
    void aMissingIdentityIsRandomSoTwoReplicasNeverShareOne() {
        var first = new MusterProperties.LeaderElection(true, null, null, "", null, null, null);
        var second = new MusterProperties.LeaderElection(true, null, null, null, null, null, null);

        assertThat(first.identity()).isNotBlank().isNotEqualTo(second.identity());
    }

    @Test
    void rejectsALeaseThatExpiresBeforeTheLeaderGivesUp() {
        assertThatThrownBy(() -> new MusterProperties.LeaderElection(true, null, null, null,
                Duration.ofSeconds(10), Duration.ofSeconds(10), null))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("muster.leader-election.lease-duration (PT10S) must be longer than renew-deadline (PT10S)");
    }

    @Test
    void rejectsARenewDeadlineThatLeavesNoSecondTry() {
        assertThatThrownBy(() -> new MusterProperties.LeaderElection(true, null, null, null,
                null, Duration.ofSeconds(2), Duration.ofSeconds(2)))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageStartingWith("muster.leader-election.renew-deadline (PT2S) must be longer than 1.2 x retry-period");
    }
}
