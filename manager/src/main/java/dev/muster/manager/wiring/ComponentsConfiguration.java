package dev.muster.manager.wiring;

import dev.muster.job.JobController;
import dev.muster.manager.config.MusterProperties;
import dev.muster.manager.leadership.Exiter;
import dev.muster.manager.leadership.Leadership;
import dev.muster.podgroup.PodGroupController;
import dev.muster.scheduler.GangScheduler;
import io.micrometer.core.instrument.MeterRegistry;
import dev.muster.gang.GangVerdictBoard;
import dev.muster.support.informer.SharedInformers;
import dev.muster.support.status.StatusWriter;
import io.fabric8.kubernetes.client.KubernetesClient;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

import java.time.Clock;

/**
 * The three components of the manager, built over the shared informers and started by {@link ManagerLifecycle}
 * once this process leads.
 */
@Configuration(proxyBeanMethods = false)
public class ComponentsConfiguration {

    @Bean(destroyMethod = "")
    JobController jobController(KubernetesClient client, SharedInformers informers, MusterProperties properties) {
        return new JobController(client, informers, properties.jobController(), Clock.systemUTC());
    }

    @Bean(destroyMethod = "")
    PodGroupController podGroupController(KubernetesClient client, SharedInformers informers, GangVerdictBoard board,
                                          StatusWriter statusWriter, MusterProperties properties) {
        return new PodGroupController(client, informers, board, statusWriter, properties.podGroupController());
    }

    @Bean(destroyMethod = "")
    GangScheduler gangScheduler(KubernetesClient client, SharedInformers informers, GangVerdictBoard board,
                                MusterProperties properties, MeterRegistry meters) {
        return new GangScheduler(client, informers, board, properties.gangScheduler(), meters);
    }

    @Bean
    ManagerLifecycle managerLifecycle(KubernetesClient client, SharedInformers informers, JobController jobs,
                                      PodGroupController podGroups, GangScheduler scheduler, Leadership leadership,
                                      Exiter exiter) {
        return new ManagerLifecycle(client, informers, jobs, podGroups, scheduler, leadership, exiter);
    }
}
