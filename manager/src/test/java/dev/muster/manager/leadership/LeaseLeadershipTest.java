package dev.muster.manager.leadership;

import dev.muster.local.LocalCluster;
import dev.muster.local.LocalClusterConfig;
import dev.muster.manager.config.MusterProperties;
import io.fabric8.kubernetes.api.model.coordination.v1.Lease;
import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.ConfigBuilder;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/** The Lease election on its own, over HTTP against the API emulator. */
class LeaseLeadershipTest {
    private static final Duration PATIENCE = Duration.ofSeconds(20);

    private LocalCluster cluster;
    private final List<LeaseLeadership> started = new ArrayList<>();

    @BeforeEach
    void start() {
        cluster = LocalCluster.start(LocalClusterConfig.defaults().withNodes(0));
    }

    @AfterEach
    void stop() {
        started.forEach(LeaseLeadership::stop);
        cluster.close();
    }

    @Test
    void aLeaderThatCannotRenewWithinTheDeadlineLoses() {
        AtomicInteger leading = new AtomicInteger();
        AtomicInteger lost = new AtomicInteger();
        LeaseLeadership leadership = candidate("alpha", Duration.ofSeconds(30));
        leadership.start(leading::incrementAndGet, lost::incrementAndGet);
        await().atMost(PATIENCE).until(() -> leadership.status().leader());

        // The API server goes away: no renewal can succeed, so by the deadline the leader must assume a
        // standby has taken over.
        cluster.close();

        await().atMost(PATIENCE).untilAsserted(() -> {
            assertThat(lost).hasValue(1);
            assertThat(leadership.status().leader()).isFalse();
        });
        assertThat(leading).hasValue(1);
    }

    @Test
    void stoppingGivesTheLeaseUpSoAStandbyNeedNotWaitForItToExpire() {
        AtomicInteger lost = new AtomicInteger();
        LeaseLeadership alpha = candidate("alpha", Duration.ofSeconds(30));
        alpha.start(() -> {
        }, lost::incrementAndGet);
        await().atMost(PATIENCE).until(() -> alpha.status().leader());
        LeaseLeadership beta = candidate("beta", Duration.ofSeconds(30));
        beta.start(() -> {
        }, () -> {
        });
        await().atMost(PATIENCE).until(() -> "alpha".equals(beta.status().holder()));

        alpha.stop();

        // Well within the 30 s lease duration.
        await().atMost(Duration.ofSeconds(10)).until(() -> beta.status().leader());
        assertThat(lost).hasValue(0);
        assertThat(cluster.client().resources(Lease.class).inNamespace("default").withName("muster-manager").get()
                .getSpec().getHolderIdentity()).isEqualTo("beta");
    }

    private LeaseLeadership candidate(String identity, Duration leaseDuration) {
        Config config = new ConfigBuilder(Config.empty()).withMasterUrl(cluster.url()).build();
        var settings = new MusterProperties.LeaderElection(true, null, null, identity, leaseDuration,
                Duration.ofSeconds(1), Duration.ofMillis(200));
        LeaseLeadership leadership = new LeaseLeadership(config, settings);
        started.add(leadership);
        return leadership;
    }
}
