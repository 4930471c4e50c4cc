package dev.muster.manager.wiring;

import dev.muster.job.JobController;
import dev.muster.manager.config.MusterProperties;
import dev.muster.podgroup.PodGroupController;
import dev.muster.podgroup.PodGroupControllerConfig;
import dev.muster.scheduler.GangScheduler;
import dev.muster.scheduler.GangSchedulerConfig;
import dev.muster.support.gang.GangVerdictBoard;
import dev.muster.support.informer.SharedInformers;
import dev.muster.support.status.StatusWriter;
import io.fabric8.kubernetes.client.KubernetesClient;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

import java.time.Clock;

/** The three components of the manager, built over the shared informers and started by {@link ManagerLifecycle}. */
@Configuration(proxyBeanMethods = false)
public class ComponentsConfiguration {

    @Bean(destroyMethod = "")
    JobController jobController(KubernetesClient client, SharedInformers informers, MusterProperties properties) {
        return new JobController(client, informers, properties.controllers().jobWorkers(), Clock.systemUTC());
    }

    @Bean(destroyMethod = "")
    PodGroupController podGroupController(KubernetesClient client, SharedInformers informers, GangVerdictBoard board,
                                          StatusWriter statusWriter, MusterProperties properties) {
        var config = new PodGroupControllerConfig(properties.podgroup().replacementGracePeriod(),
                properties.podgroup().counterWriteInterval());
        return new PodGroupController(client, informers, board, statusWriter, config);
    }

    @Bean(destroyMethod = "")
    GangScheduler gangScheduler(KubernetesClient client, SharedInformers informers, GangVerdictBoard board,
                                MusterProperties properties) {
        var config = new GangSchedulerConfig(properties.scheduler().cyclePeriod(), properties.scheduler().bindConcurrency());
        return new GangScheduler(client, informers, board, config);
    }

    @Bean
    ManagerLifecycle managerLifecycle(SharedInformers informers, JobController jobs, PodGroupController podGroups,
                                      GangScheduler scheduler) {
        return new ManagerLifecycle(informers, jobs, podGroups, scheduler);
    }
}
