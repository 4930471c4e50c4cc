package dev.muster.manager.e2e;

import com.fasterxml.jackson.databind.JsonNode;
import dev.muster.api.batch.v1alpha1.Job;
import dev.muster.api.batch.v1alpha1.JobPhase;
import dev.muster.api.scheduling.v1alpha1.PodGroup;
import dev.muster.local.LocalCluster;
import dev.muster.local.LocalClusterConfig;
import dev.muster.local.manifest.ManifestLoader;
import dev.muster.manager.wiring.ManagerLifecycle;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.coordination.v1.Lease;
import io.fabric8.kubernetes.api.model.coordination.v1.LeaseBuilder;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.dsl.Resource;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.springframework.context.ConfigurableApplicationContext;

import java.nio.file.Path;
import java.time.Duration;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

import static dev.muster.manager.Patience.PATIENCE;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Two managers with leader election against one local cluster, with short lease timings: only the holder
 * of the Lease acts, a standby is healthy and says who leads, and when the leader's Lease is taken from it
 * the leader stops and exits while the standby takes over.
 */
@Tag("emulator")
class LeaderElectionEndToEndTest {
    private static final String LEASE = "muster-manager";

    private LocalCluster cluster;
    private Candidate alpha;
    private Candidate beta;
    private final ScheduledExecutorService outsider = Executors.newSingleThreadScheduledExecutor();

    /** A manager in the election, and the exit codes it asked for. */
    private record Candidate(String identity, ConfigurableApplicationContext manager, List<Integer> exits) {
        static Candidate start(LocalCluster cluster, String identity) {
            List<Integer> exits = new CopyOnWriteArrayList<>();
            var manager = ManagerOnLocalCluster.startManager(cluster, Map.of(
                    "muster.leader-election.identity", identity,
                    "muster.leader-election.lease-duration", "3s",
                    "muster.leader-election.renew-deadline", "2s",
                    "muster.leader-election.retry-period", "500ms"), exits::add);
            return new Candidate(identity, manager, exits);
        }

        JsonNode leadership() throws Exception {
            return new Actuator(manager, (String) null).json("health/leadership");
        }

        boolean leads() throws Exception {
            return leadership().path("details").path("leader").asBoolean();
        }

        boolean componentsRunning() {
            return manager.getBean(ManagerLifecycle.class).componentsRunning();
        }
    }

    @BeforeEach
    void start() {
        cluster = LocalCluster.start(LocalClusterConfig.defaults());
        // Someone else holds the Lease and renews it every 200 ms: neither manager may lead until it is gone.
        cluster.client().resource(new LeaseBuilder().withNewMetadata().withName(LEASE).withNamespace("default").endMetadata()
                .withNewSpec().withHolderIdentity("outsider").withLeaseDurationSeconds(3)
                .withAcquireTime(now()).withRenewTime(now()).endSpec().build()).create();
        outsider.scheduleWithFixedDelay(this::renewAsOutsider, 200, 200, TimeUnit.MILLISECONDS);
        alpha = Candidate.start(cluster, "alpha");
        beta = Candidate.start(cluster, "beta");
    }

    @AfterEach
    void stop() {
        outsider.shutdownNow();
        alpha.manager().close();
        beta.manager().close();
        cluster.close();
    }

    @Test
    void onlyTheLeaderActsAndTheStandbyTakesOverWhenTheLeaseIsTakenAway() throws Exception {
        ManifestLoader.load(List.of(Path.of("../examples/quickstart.yaml")))
                .forEach(m -> cluster.client().resource(m.object()).create());

        // The control: both have read the lease and name its holder, so both are live and have decided.
        await().atMost(PATIENCE).ignoreExceptions().until(() -> {
            for (Candidate c : List.of(alpha, beta)) {
                if (!"outsider".equals(c.leadership().path("details").path("holder").asText())) {
                    return false;
                }
            }
            return true;
        });
        // Both stand by, healthy, naming the holder; nothing acts on the job.
        await().atMost(PATIENCE).during(Duration.ofSeconds(2)).untilAsserted(() -> {
            for (Candidate c : List.of(alpha, beta)) {
                JsonNode health = c.leadership();
                assertThat(health.path("status").asText()).isEqualTo("UP");
                assertThat(health.path("details").path("leader").asBoolean()).isFalse();
                assertThat(health.path("details").path("identity").asText()).isEqualTo(c.identity());
                assertThat(health.path("details").path("holder").asText()).isEqualTo("outsider");
                assertThat(c.componentsRunning()).isFalse();
            }
            assertThat(job("quickstart").getStatus()).isNull();
            assertThat(cluster.client().resources(PodGroup.class).inNamespace("default").withName("quickstart").get()).isNull();
        });
        assertThat(new Actuator(alpha.manager(), cluster).json("queue").path("scheduling").asBoolean()).isFalse();

        // The outsider stops and its Lease is gone: exactly one manager takes it, and the job runs.
        outsider.shutdownNow();
        assertThat(outsider.awaitTermination(10, TimeUnit.SECONDS)).isTrue();
        lease().delete();
        await().atMost(PATIENCE).until(() -> alpha.leads() || beta.leads());
        Candidate leader = alpha.leads() ? alpha : beta;
        Candidate standby = leader == alpha ? beta : alpha;
        await().atMost(PATIENCE).untilAsserted(() -> {
            assertThat(standby.leadership().path("details").path("holder").asText()).isEqualTo(leader.identity());
            assertThat(standby.leads()).isFalse();
            assertThat(standby.componentsRunning()).isFalse();
            assertThat(leader.componentsRunning()).isTrue();
            assertThat(lease().get().getSpec().getHolderIdentity()).isEqualTo(leader.identity());
        });
        await().atMost(PATIENCE).until(() -> phase("quickstart") == JobPhase.Completed);

        // The Lease is taken from the leader: it stops its components and asks to exit non-zero; once the
        // taker stops renewing, the standby takes over and runs the next job.
        takeLease("intruder");
        await().atMost(PATIENCE).untilAsserted(() -> {
            assertThat(leader.exits()).containsExactly(ManagerLifecycle.EXIT_LEADERSHIP_LOST);
            assertThat(leader.componentsRunning()).isFalse();
            assertThat(leader.leads()).isFalse();
        });
        await().atMost(PATIENCE).untilAsserted(() -> {
            assertThat(standby.leads()).isTrue();
            assertThat(standby.componentsRunning()).isTrue();
        });
        HasMetadata second = ManifestLoader.load(List.of(Path.of("../examples/quickstart.yaml"))).get(0).object();
        second.getMetadata().setName("second");
        cluster.client().resource(second).create();
        await().atMost(PATIENCE).until(() -> phase("second") == JobPhase.Completed);
        assertThat(standby.exits()).isEmpty();
    }

    /** One renewal by the outsider; a failed one is retried at the next, as a real holder would. */
    private void renewAsOutsider() {
        try {
            lease().edit(lease -> {
                lease.getSpec().setRenewTime(now());
                return lease;
            });
        } catch (KubernetesClientException e) {
            // The next renewal comes 200 ms later, well within the 3 s lease.
        }
    }

    /** Overwrites the Lease with another holder that renewed it just now, as a rival replica would. */
    private void takeLease(String holder) {
        await().atMost(PATIENCE).ignoreExceptionsInstanceOf(KubernetesClientException.class).until(() -> {
            Lease current = lease().get();
            current.getSpec().setHolderIdentity(holder);
            current.getSpec().setRenewTime(now());
            current.getSpec().setAcquireTime(now());
            // Optimistic locking: a renewal by the leader in between makes this a conflict, and we try again.
            cluster.client().resource(current).update();
            return true;
        });
    }

    private Resource<Lease> lease() {
        return cluster.client().resources(Lease.class).inNamespace("default").withName(LEASE);
    }

    private Job job(String name) {
        return cluster.client().resources(Job.class).inNamespace("default").withName(name).get();
    }

    private JobPhase phase(String name) {
        Job job = job(name);
        return job == null || job.getStatus() == null || job.getStatus().getState() == null ? null
                : job.getStatus().getState().getPhase();
    }

    private static ZonedDateTime now() {
        return ZonedDateTime.now(ZoneOffset.UTC);
    }
}
