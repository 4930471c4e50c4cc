package dev.muster.manager.wiring;

import dev.muster.api.MusterLabels;
import dev.muster.job.JobController;
import dev.muster.manager.config.MusterProperties;
import dev.muster.manager.leadership.Exiter;
import dev.muster.manager.leadership.Leadership;
import dev.muster.podgroup.PodGroupController;
import dev.muster.podgroup.PodGroupControllerConfig;
import dev.muster.scheduler.GangScheduler;
import dev.muster.scheduler.GangSchedulerConfig;
import dev.muster.scheduler.core.NodeScoring;
import io.micrometer.core.instrument.MeterRegistry;
import dev.muster.support.gang.GangVerdictBoard;
import dev.muster.support.informer.SharedInformers;
import dev.muster.support.status.StatusWriter;
import io.fabric8.kubernetes.client.KubernetesClient;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

import java.time.Clock;
import java.util.Locale;

/**
 * The three components of the manager, built over the shared informers and started by {@link ManagerLifecycle}
 * once this process leads.
 */
@Configuration(proxyBeanMethods = false)
public class ComponentsConfiguration {

    @Bean(destroyMethod = "")
    JobController jobController(KubernetesClient client, SharedInformers informers, MusterProperties properties) {
        // Only the scheduler running in this process admits gangs, so only its jobs can wait for admission.
        String admittingScheduler = properties.controllers().jobsWaitForAdmission() ? MusterLabels.SCHEDULER_NAME : null;
        return new JobController(client, informers, properties.controllers().jobWorkers(), Clock.systemUTC(),
                admittingScheduler);
    }

    @Bean(destroyMethod = "")
    PodGroupController podGroupController(KubernetesClient client, SharedInformers informers, GangVerdictBoard board,
                                          StatusWriter statusWriter, MusterProperties properties) {
        var config = new PodGroupControllerConfig(properties.podgroup().replacementGracePeriod(),
                properties.podgroup().counterWriteInterval(), properties.controllers().podGroupWorkers());
        return new PodGroupController(client, informers, board, statusWriter, config);
    }

    @Bean(destroyMethod = "")
    GangScheduler gangScheduler(KubernetesClient client, SharedInformers informers, GangVerdictBoard board,
                                MusterProperties properties, MeterRegistry meters) {
        MusterProperties.Scheduler s = properties.scheduler();
        var config = new GangSchedulerConfig(s.cyclePeriod(), s.bindConcurrency())
                .withPermitWaitingTime(s.permitWaitingTime())
                .withPodGroupBackoff(s.podGroupBackoff())
                .withPodGroupRejectPercentage(s.podGroupRejectPercentage())
                .withNodeScoring(nodeScoring(s.nodeScoring()))
                .withLocalityTopologyKey(s.localityTopologyKey())
                .withAdmissionTimeout(s.admissionTimeout());
        return new GangScheduler(client, informers, board, config, meters);
    }

    private static NodeScoring nodeScoring(String name) {
        String normalized = name == null ? "" : name.trim().toUpperCase(Locale.ROOT).replace('-', '_');
        try {
            return NodeScoring.valueOf(normalized);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("muster.scheduler.node-scoring: '" + name
                    + "' is not one of most-allocated, least-allocated", e);
        }
    }

    @Bean
    ManagerLifecycle managerLifecycle(SharedInformers informers, JobController jobs, PodGroupController podGroups,
                                      GangScheduler scheduler, Leadership leadership, Exiter exiter) {
        return new ManagerLifecycle(informers, jobs, podGroups, scheduler, leadership, exiter);
    }
}
