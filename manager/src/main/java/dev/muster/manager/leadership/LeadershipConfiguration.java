package dev.muster.manager.leadership;

import dev.muster.manager.config.MusterProperties;
import io.fabric8.kubernetes.client.Config;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.binder.MeterBinder;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/** Leader election as {@code muster.leader-election.*} asks, and what acts on its outcome. */
@Configuration(proxyBeanMethods = false)
public class LeadershipConfiguration {

    /**
     * Stopped by {@code ManagerLifecycle}, before the components it started. Not named {@code leadership}:
     * that is the health indicator's name.
     */
    @Bean(destroyMethod = "")
    Leadership election(Config kubernetesClientConfig, MusterProperties properties) {
        MusterProperties.LeaderElection settings = properties.leaderElection();
        return settings.enabled()
                ? new LeaseLeadership(kubernetesClientConfig, settings)
                : new UncontestedLeadership(settings.identity());
    }

    /** Tests that run several managers in one JVM register an exiter of their own before the context refreshes. */
    @Bean
    @ConditionalOnMissingBean(Exiter.class)
    Exiter exiter(ConfigurableApplicationContext context) {
        return new ProcessExiter(context);
    }

    /**
     * {@code muster_leader}: 1 on the replica that runs the components, 0 on standbys; across replicas it
     * should sum to exactly 1.
     */
    @Bean
    MeterBinder leadershipMetrics(Leadership leadership) {
        return registry -> Gauge.builder("muster.leader", leadership, l -> l.status().leader() ? 1 : 0)
                .description("1 if this replica holds the lease and runs the components, else 0")
                .register(registry);
    }
}
