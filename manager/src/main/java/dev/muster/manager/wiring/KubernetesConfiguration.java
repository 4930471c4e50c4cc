package dev.muster.manager.wiring;

import dev.muster.manager.config.MusterProperties;
import dev.muster.manager.leadership.Leadership;
import dev.muster.manager.leadership.WriteFence;
import dev.muster.gang.GangVerdictBoard;
import dev.muster.support.informer.SharedInformers;
import dev.muster.support.status.StatusWriter;
import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.ConfigBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.micrometer.core.instrument.MeterRegistry;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/** The one API client of the process and what every component shares over it. */
@Configuration(proxyBeanMethods = false)
public class KubernetesConfiguration {

    /**
     * How to reach the API server. A bean of its own because leader election builds a second client from
     * it (see {@code LeaseLeadership}).
     */
    @Bean
    Config kubernetesClientConfig(MusterProperties properties) {
        String masterUrl = properties.kubernetes().masterUrl();
        Config base = masterUrl == null || masterUrl.isBlank()
                ? Config.autoConfigure(null)
                : new ConfigBuilder(Config.empty()).withMasterUrl(masterUrl).withTrustCerts(true).build();
        return new ConfigBuilder(base)
                .withMaxConcurrentRequests(properties.kubernetes().maxConcurrentRequests())
                .withMaxConcurrentRequestsPerHost(properties.kubernetes().maxConcurrentRequests())
                .build();
    }

    /**
     * The components' client: every write through it is fenced on leadership ({@link WriteFence}), so that a
     * replica that does not hold the lease within its renew deadline writes nothing, and every request is
     * held to {@code muster.kubernetes.qps} and {@code burst} ({@link ClientRateLimit}). Leader election's
     * own client is not limited, so that renewing the lease never waits behind a burst of work.
     */
    @Bean(destroyMethod = "close")
    KubernetesClient kubernetesClient(Config config, Leadership leadership, MusterProperties properties) {
        MusterProperties.Kubernetes kubernetes = properties.kubernetes();
        return new KubernetesClientBuilder().withConfig(config)
                .withHttpClientBuilderConsumer(builder -> {
                    builder.addOrReplaceInterceptor(WriteFence.NAME, new WriteFence(leadership));
                    if (kubernetes.qps() > 0) {
                        builder.addOrReplaceInterceptor(ClientRateLimit.NAME,
                                new ClientRateLimit(kubernetes.qps(), kubernetes.burst()));
                    }
                })
                .build();
    }

    /** Closed by {@link ManagerLifecycle}, after the components that use it have stopped. */
    @Bean(destroyMethod = "")
    SharedInformers sharedInformers(KubernetesClient client, MeterRegistry meters) {
        return new SharedInformers(client, meters);
    }

    @Bean
    GangVerdictBoard gangVerdictBoard() {
        return new GangVerdictBoard();
    }

    @Bean
    StatusWriter statusWriter(KubernetesClient client) {
        return new StatusWriter(client);
    }
}
