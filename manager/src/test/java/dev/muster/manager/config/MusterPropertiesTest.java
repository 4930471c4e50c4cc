package dev.muster.manager.config;

import dev.muster.job.JobControllerConfig;
import dev.muster.podgroup.PodGroupControllerConfig;
import dev.muster.scheduler.GangSchedulerConfig;
import dev.muster.scheduler.autoscaling.AutoscalingConfig;
import dev.muster.scheduler.autoscaling.AutoscalingMode;
import dev.muster.scheduler.core.placement.NodeScoring;
import dev.muster.gang.JobAdmissionRule;
import org.junit.jupiter.api.Test;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.boot.context.properties.source.MapConfigurationPropertySource;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.annotation.Configuration;

import java.time.Duration;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

class MusterPropertiesTest {

    private static MusterProperties bind(Map<String, String> properties) {
        return new Binder(new MapConfigurationPropertySource(properties)).bindOrCreate("muster", MusterProperties.class);
    }

    @Test
    void withNothingSetEveryComponentGetsItsOwnDefaults() {
        MusterProperties properties = bind(Map.of());

        assertThat(properties.jobController()).isEqualTo(JobControllerConfig.defaults());
        assertThat(properties.podGroupController()).isEqualTo(PodGroupControllerConfig.defaults());
        assertThat(properties.gangScheduler()).isEqualTo(GangSchedulerConfig.defaults());
        assertThat(properties.leaderElection().enabled()).isTrue();
    }

    @Test
    void settingOneKeyOfAGroupLeavesTheOthersAtTheirDefaults() {
        MusterProperties properties = bind(Map.of(
                "muster.controllers.job-workers", "8",
                "muster.leader-election.lease-name", "mine",
                "muster.scheduler.node-scoring", "least-allocated"));

        assertThat(properties.jobController().workers()).isEqualTo(8);
        assertThat(properties.jobController().admission()).isEqualTo(JobAdmissionRule.ON);
        assertThat(properties.podGroupController().workers()).isEqualTo(PodGroupControllerConfig.DEFAULT_WORKERS);
        assertThat(properties.leaderElection().enabled()).as("a partly set group keeps leader election on").isTrue();
        assertThat(properties.gangScheduler().coscheduling().scoring()).isEqualTo(NodeScoring.LEAST_ALLOCATED);
        assertThat(properties.gangScheduler().cyclePeriod()).isEqualTo(GangSchedulerConfig.DEFAULT_CYCLE_PERIOD);
    }

    @Test
    void theAdmissionSwitchReachesTheJobControllerAndTheSchedulerAlike() {
        MusterProperties properties = bind(Map.of("muster.controllers.jobs-wait-for-admission", "false"));

        assertThat(properties.jobController().admission()).isEqualTo(JobAdmissionRule.OFF);
        assertThat(properties.gangScheduler().jobAdmission()).isEqualTo(JobAdmissionRule.OFF);
    }

    @Test
    void theAutoscalingSettingsReachTheScheduler() {
        AutoscalingConfig defaults = bind(Map.of()).gangScheduler().autoscaling();
        AutoscalingConfig set = bind(Map.of("muster.scheduler.autoscaling", "pending-pods",
                "muster.scheduler.provisioning-class", "check-capacity.autoscaling.x-k8s.io",
                "muster.scheduler.provisioning-retry-backoff", "10s")).gangScheduler().autoscaling();

        assertThat(defaults).isEqualTo(AutoscalingConfig.defaults());
        assertThat(set.mode()).isEqualTo(AutoscalingMode.PENDING_PODS);
        assertThat(set.provisioningClass()).isEqualTo("check-capacity.autoscaling.x-k8s.io");
        assertThat(set.retryBackoff()).isEqualTo(Duration.ofSeconds(10));
        assertThat(set.maxRetryBackoff()).isEqualTo(AutoscalingConfig.DEFAULT_MAX_RETRY_BACKOFF);
    }

    @Test
    void theCountWriteIntervalPacesBothControllers() {
        MusterProperties properties = bind(Map.of("muster.controllers.counter-write-interval", "250ms"));

        assertThat(properties.jobController().counterWriteInterval()).isEqualTo(Duration.ofMillis(250));
        assertThat(properties.podGroupController().counterWriteInterval()).isEqualTo(Duration.ofMillis(250));
    }

    @Test
    void volcanosPodLabelsAreOnUnlessTurnedOff() {
        assertThat(bind(Map.of()).jobController().volcanoPodLabels()).isTrue();
        assertThat(bind(Map.of("muster.controllers.volcano-pod-labels", "false")).jobController().volcanoPodLabels())
                .isFalse();
    }

    @Configuration(proxyBeanMethods = false)
    @EnableConfigurationProperties(MusterProperties.class)
    static class PropertiesOnly {
    }

    @Test
    void anUnknownKeyStopsTheStartAndNamesTheKey() {
        new ApplicationContextRunner().withUserConfiguration(PropertiesOnly.class)
                .withPropertyValues("muster.podgroup.counter-write-intervall=2s")
                .run(context -> {
                    assertThat(context).hasFailed();
                    assertThat(context.getStartupFailure()).rootCause().hasMessageContaining("counter-write-intervall");
                });
    }

    @Test
    void aNodeScoringThatDoesNotExistStopsTheStartAndNamesTheKey() {
        new ApplicationContextRunner().withUserConfiguration(PropertiesOnly.class)
                .withPropertyValues("muster.scheduler.node-scoring=random")
                .run(context -> {
                    assertThat(context).hasFailed();
                    assertThat(context.getStartupFailure()).cause().hasMessageContaining("muster.scheduler.node-scoring");
                });
    }
}
