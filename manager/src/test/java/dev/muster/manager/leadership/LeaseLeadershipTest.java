package dev.muster.manager.leadership;

import dev.muster.local.LocalCluster;
import dev.muster.local.LocalClusterConfig;
import dev.muster.manager.config.MusterProperties;
import dev.muster.local.NetworkCut;
import dev.muster.support.Stillness;
import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import io.fabric8.kubernetes.api.model.coordination.v1.Lease;
import io.fabric8.kubernetes.api.model.coordination.v1.LeaseBuilder;
import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.ConfigBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.Watch;
import io.fabric8.kubernetes.client.Watcher;
import io.fabric8.kubernetes.client.WatcherException;
import io.fabric8.kubernetes.client.dsl.base.PatchContext;
import io.fabric8.kubernetes.client.dsl.base.PatchType;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import static dev.muster.manager.Patience.PATIENCE;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/** The Lease election on its own, over HTTP against the API emulator. */
@Tag("emulator")
class LeaseLeadershipTest {
    private LocalCluster cluster;
    private final List<LeaseLeadership> started = new ArrayList<>();
    private final AtomicInteger writes = new AtomicInteger();

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
    void componentsThatTakeLongerThanTheRenewDeadlineToStartDoNotCostTheLease() throws Exception {
        // On a large cluster the components can take longer to start than the renew deadline (10 s by default);
        // fabric8 calls onStartLeading on the elector's thread, so a start run there would stop the renewals.
        CountDownLatch startFinishes = new CountDownLatch(1);
        AtomicInteger lost = new AtomicInteger();
        LeaseLeadership leadership = candidate("alpha", Duration.ofSeconds(4), Duration.ofSeconds(2), cluster.url());
        leadership.start(() -> {
            try {
                startFinishes.await();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }, lost::incrementAndGet);
        try {
            await().atMost(PATIENCE).until(() -> leadership.status().leader());

            // Three renew deadlines with the start still running.
            await().atMost(PATIENCE).during(Duration.ofSeconds(6)).until(leadership::mayWrite);
        } finally {
            startFinishes.countDown();
        }

        assertThat(lost).hasValue(0);
        assertThat(leadership.status().leader()).isTrue();
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
        await().atMost(PATIENCE).until(() -> beta.status().leader());
        assertThat(lost).hasValue(0);
        assertThat(cluster.client().resources(Lease.class).inNamespace("default").withName("muster-manager").get()
                .getSpec().getHolderIdentity()).isEqualTo("beta");
    }

    @Test
    void aStandbyDoesNotTakeTheLeaseFromALiveLeaderWhoseClockLagsBehindItsOwn() {
        // The holder renews every 200 ms, its renewTime ten minutes behind the standby's clock (as when the
        // standby's clock runs ten minutes ahead): by the holder's timestamps its lease is long expired.
        Duration skew = Duration.ofMinutes(10);
        ScheduledExecutorService holder = Executors.newSingleThreadScheduledExecutor();
        cluster.client().resource(new LeaseBuilder().withNewMetadata().withName("muster-manager").withNamespace("default")
                .endMetadata().withNewSpec().withHolderIdentity("lagging").withLeaseDurationSeconds(3)
                .withAcquireTime(now().minus(skew)).withRenewTime(now().minus(skew)).endSpec().build()).create();
        holder.scheduleWithFixedDelay(() -> cluster.client().resources(Lease.class).inNamespace("default")
                .withName("muster-manager").edit(lease -> {
                    lease.getSpec().setRenewTime(now().minus(skew));
                    return lease;
                }), 200, 200, TimeUnit.MILLISECONDS);
        LeaseLeadership standby = candidate("standby", Duration.ofSeconds(3), Duration.ofSeconds(2), cluster.url());
        // The control: a twin lease with the same lagging timestamps whose holder has stopped renewing. A twin
        // standby takes it, so a standby that could take its lease does so within the window.
        cluster.client().resource(new LeaseBuilder().withNewMetadata().withName("muster-manager-twin")
                .withNamespace("default").endMetadata().withNewSpec().withHolderIdentity("stopped")
                .withLeaseDurationSeconds(3).withAcquireTime(now().minus(skew)).withRenewTime(now().minus(skew))
                .endSpec().build()).create();
        LeaseLeadership twin = candidate("twin", "muster-manager-twin", Duration.ofSeconds(3), Duration.ofSeconds(2),
                cluster.url());
        try {
            standby.start(() -> {
            }, () -> {
            });
            twin.start(() -> {
            }, () -> {
            });

            Stillness.holds(PATIENCE, "the twin standby took the lease nobody renews", () -> twin.status().leader(),
                    Duration.ofSeconds(6), () -> assertThat(standby.status().leader()).isFalse());
            assertThat(standby.status().holder()).isEqualTo("lagging");

            // Once the holder stops renewing, the standby takes over a lease duration after it saw the last renewal.
            holder.shutdownNow();
            await().atMost(PATIENCE).until(() -> standby.status().leader());
        } finally {
            holder.shutdownNow();
        }
    }

    @Test
    void aLeaderWhoseRenewalsFailStopsWritingBeforeAStandbyCanStart() throws Exception {
        // alpha's election goes through a relay that is cut; its components' client reaches the cluster directly,
        // and goes on trying to write for as long as it is let, as a component stuck in a retry loop would.
        List<String> writers = new CopyOnWriteArrayList<>();
        cluster.client().resource(new ConfigMapBuilder().withNewMetadata().withName("board")
                .withNamespace("default").endMetadata().build()).create();
        try (NetworkCut network = new NetworkCut(cluster);
             Watch ignored = cluster.client().configMaps().inNamespace("default").withName("board").watch(new Watcher<>() {
                 @Override
                 public void eventReceived(Action action, ConfigMap map) {
                     String writer = map.getMetadata().getAnnotations() == null ? null
                             : map.getMetadata().getAnnotations().get("writer");
                     if (writer != null) {
                         writers.add(writer);
                     }
                 }

                 @Override
                 public void onClose(WatcherException cause) {
                 }
             })) {
            LeaseLeadership alpha = candidate("alpha", Duration.ofSeconds(8), Duration.ofSeconds(4), network.url());
            alpha.start(() -> {
            }, () -> {
            });
            await().atMost(PATIENCE).until(alpha::mayWrite);
            LeaseLeadership beta = candidate("beta", Duration.ofSeconds(8), Duration.ofSeconds(4), cluster.url());
            beta.start(() -> {
            }, () -> {
            });
            ScheduledExecutorService writing = Executors.newScheduledThreadPool(2);
            try (KubernetesClient alphaWrites = fencedClient(alpha); KubernetesClient betaWrites = fencedClient(beta)) {
                writing.scheduleWithFixedDelay(() -> write(alphaWrites, "alpha"), 0, 20, TimeUnit.MILLISECONDS);
                writing.scheduleWithFixedDelay(() -> write(betaWrites, "beta"), 0, 20, TimeUnit.MILLISECONDS);
                await().atMost(PATIENCE).until(() -> writers.contains("alpha"));

                network.cut();

                await().atMost(PATIENCE).until(() -> writers.contains("beta"));
                await().atMost(PATIENCE).until(() -> writers.lastIndexOf("beta") > writers.indexOf("beta") + 10);
            } finally {
                writing.shutdownNow();
            }
            assertThat(alpha.mayWrite()).isFalse();
            assertThat(writers.subList(writers.indexOf("beta"), writers.size()))
                    .as("writes once the standby wrote first").doesNotContain("alpha");
        }
    }

    /**
     * A merge patch of the board's writer annotation, with a number that makes every write a change; refused
     * writes are the point, so failures are ignored.
     */
    private void write(KubernetesClient client, String writer) {
        try {
            client.configMaps().inNamespace("default").withName("board").patch(PatchContext.of(PatchType.JSON_MERGE),
                    "{\"metadata\":{\"annotations\":{\"writer\":\"" + writer + "\",\"write\":\""
                            + writes.incrementAndGet() + "\"}}}");
        } catch (KubernetesClientException refused) {
            // Fenced, as it should be while this candidate does not lead.
        }
    }

    private KubernetesClient fencedClient(Leadership leadership) {
        return new KubernetesClientBuilder().withConfig(new ConfigBuilder(Config.empty()).withMasterUrl(cluster.url())
                        .withRequestRetryBackoffLimit(0).build())
                .withHttpClientBuilderConsumer(builder -> builder.addOrReplaceInterceptor(WriteFence.NAME,
                        new WriteFence(leadership)))
                .build();
    }

    private static ZonedDateTime now() {
        return ZonedDateTime.now(ZoneOffset.UTC);
    }

    private LeaseLeadership candidate(String identity, Duration leaseDuration) {
        return candidate(identity, leaseDuration, Duration.ofSeconds(1), cluster.url());
    }

    /** A candidate with a retry period of a quarter of its renew deadline, reaching the API server at {@code url}. */
    private LeaseLeadership candidate(String identity, Duration leaseDuration, Duration renewDeadline, String url) {
        return candidate(identity, null, leaseDuration, renewDeadline, url);
    }

    /** As above, for the lease of that name ({@code null}: the default one). */
    private LeaseLeadership candidate(String identity, String lease, Duration leaseDuration, Duration renewDeadline,
                                      String url) {
        Config config = new ConfigBuilder(Config.empty()).withMasterUrl(url).build();
        var settings = new MusterProperties.LeaderElection(true, lease, null, identity, leaseDuration,
                renewDeadline, renewDeadline.dividedBy(4));
        LeaseLeadership leadership = new LeaseLeadership(config, settings);
        started.add(leadership);
        return leadership;
    }
}
