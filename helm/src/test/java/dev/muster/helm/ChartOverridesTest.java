package dev.muster.helm;

import com.marcnuri.helm.Helm;
import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.api.model.policy.v1.PodDisruptionBudget;
import io.fabric8.kubernetes.api.model.rbac.ClusterRole;
import io.fabric8.kubernetes.api.model.rbac.Role;
import io.fabric8.kubernetes.api.model.rbac.RoleBinding;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** {@code helm template} of the assembled chart with values overridden as users would. */
class ChartOverridesTest {

    @Test
    void schedulerSettingAndSingleReplicaChangeTheConfigAndDropThePdb() {
        ChartRenderer.Rendered defaults = ChartRenderer.render();
        ChartRenderer.Rendered rendered = ChartRenderer.render(Map.of(
                "config.scheduler.node-scoring", "least-allocated",
                "replicas", 1));

        assertThat(config(rendered)).isEqualTo(Map.of("muster", Map.of(
                "kubernetes", Map.of("qps", 500, "burst", 1000),
                "scheduler", Map.of("node-scoring", "least-allocated"),
                "leader-election", Map.of("lease-name", "muster-manager"))));
        assertThat(rendered.one(Deployment.class).getSpec().getReplicas()).isEqualTo(1);
        assertThat(rendered.find(PodDisruptionBudget.class)).isEmpty();
        // The checksum moves with the config, so helm upgrade rolls the pods.
        assertThat(checksum(rendered)).isNotEqualTo(checksum(defaults));
        // A single replica still takes the Lease, so a second one can be added later without a gap.
        assertThat(rendered.find(Role.class)).isPresent();
    }

    @Test
    void allConfigurationKeysReachTheManagerAsMusterProperties() {
        ChartRenderer.Rendered rendered = ChartRenderer.render(Map.of(
                "config.controllers.job-workers", 8,
                "config.scheduler.permit-waiting-time", "120s",
                "config.scheduler.locality-topology-key", "topology.kubernetes.io/zone",
                "config.podgroup.replacement-grace-period", "1m",
                "config.leader-election.lease-duration", "30s"));

        Map<?, ?> muster = (Map<?, ?>) config(rendered).get("muster");
        assertThat(muster.get("controllers")).isEqualTo(Map.of("job-workers", 8));
        assertThat(muster.get("scheduler")).isEqualTo(Map.of(
                "permit-waiting-time", "120s", "locality-topology-key", "topology.kubernetes.io/zone"));
        assertThat(muster.get("podgroup")).isEqualTo(Map.of("replacement-grace-period", "1m"));
        assertThat(muster.get("leader-election")).isEqualTo(Map.of(
                "lease-duration", "30s", "lease-name", "muster-manager"));
    }

    @Test
    void theClientRateLimitIsSetPerKeyAndCanBeTurnedOff() {
        Map<?, ?> lower = (Map<?, ?>) config(ChartRenderer.render(Map.of("config.kubernetes.qps", 50)))
                .get("muster");
        assertThat(lower.get("kubernetes")).isEqualTo(Map.of("qps", 50, "burst", 1000));

        Map<?, ?> off = (Map<?, ?>) config(ChartRenderer.render(Map.of("config.kubernetes.qps", 0))).get("muster");
        assertThat(off.get("kubernetes")).isEqualTo(Map.of("qps", 0, "burst", 1000));
    }

    @Test
    void leaseNameAndNamespaceFromConfigScopeTheLeaderElectionRole() {
        ChartRenderer.Rendered rendered = ChartRenderer.render(Map.of(
                "config.leader-election.lease-name", "batch-leader",
                "config.leader-election.namespace", "kube-system"));

        Role role = rendered.one(Role.class);
        assertThat(role.getMetadata().getNamespace()).isEqualTo("kube-system");
        assertThat(ChartDefaultsTest.describe(role.getRules())).containsExactlyInAnyOrder(
                "coordination.k8s.io leases: create",
                "coordination.k8s.io leases [batch-leader]: get patch");
        RoleBinding binding = rendered.one(RoleBinding.class);
        assertThat(binding.getMetadata().getNamespace()).isEqualTo("kube-system");
        assertThat(binding.getSubjects().get(0).getNamespace()).isEqualTo(ChartRenderer.NAMESPACE);
        assertThat(((Map<?, ?>) config(rendered).get("muster")).get("leader-election")).isEqualTo(Map.of(
                "lease-name", "batch-leader", "namespace", "kube-system"));
    }

    @Test
    void leaderElectionCanBeTurnedOffOnlyWithOneReplica() {
        ChartRenderer.Rendered single = ChartRenderer.render(Map.of(
                "replicas", 1, "config.leader-election.enabled", false));
        assertThat(single.find(Role.class)).isEmpty();
        assertThat(single.find(RoleBinding.class)).isEmpty();
        assertThat(((Map<?, ?>) config(single).get("muster")).get("leader-election"))
                .isEqualTo(Map.of("enabled", false, "lease-name", "muster-manager"));

        assertThatThrownBy(() -> ChartRenderer.render(Map.of("config.leader-election.enabled", false)))
                .hasMessageContaining("replicas > 1 needs config.leader-election.enabled");
    }

    @Test
    void serviceMonitorWhenEnabled() {
        ChartRenderer.Rendered rendered = ChartRenderer.render(Map.of(
                "serviceMonitor.enabled", true, "serviceMonitor.labels.release", "prometheus"));

        GenericKubernetesResource monitor = (GenericKubernetesResource) rendered.ofKind("ServiceMonitor").get(0);
        assertThat(monitor.getApiVersion()).isEqualTo("monitoring.coreos.com/v1");
        assertThat(monitor.getMetadata().getLabels()).containsEntry("release", "prometheus");
        List<Map<String, Object>> endpoints = monitor.get("spec", "endpoints");
        assertThat(endpoints).singleElement().satisfies(endpoint -> {
            assertThat(endpoint).containsEntry("port", "http").containsEntry("path", "/actuator/prometheus")
                    .containsEntry("bearerTokenFile", "/var/run/secrets/kubernetes.io/serviceaccount/token");
        });
    }

    @Test
    void imagePriorityAndRbacOverrides() {
        ChartRenderer.Rendered rendered = ChartRenderer.render(Map.of(
                "image.repository", "registry.example.com/muster",
                "image.tag", "dev",
                "priorityClassName", "system-cluster-critical",
                "rbac.create", false));

        var pod = rendered.one(Deployment.class).getSpec().getTemplate().getSpec();
        assertThat(pod.getContainers().get(0).getImage()).isEqualTo("registry.example.com/muster:dev");
        assertThat(pod.getPriorityClassName()).isEqualTo("system-cluster-critical");
        assertThat(rendered.find(ClusterRole.class)).isEmpty();
        assertThat(rendered.find(Role.class)).isEmpty();
        assertThat(rendered.ofKind("ClusterRoleBinding")).isEmpty();

        assertThatThrownBy(() -> ChartRenderer.render(Map.of("serviceAccount.create", false)))
                .hasMessageContaining("serviceAccount.name is required");
    }

    @Test
    void sourceChartWithoutGeneratedCrdsRefusesToRender() {
        // helm/muster itself has no CRDs (the build adds them); installing it would leave the manager
        // watching kinds that do not exist, so the chart says where the assembled one is instead.
        assertThatThrownBy(() -> ChartRenderer.template(new Helm(ChartRenderer.sourceDirectory()), Map.of()))
                .hasMessageContaining("crds/ holds no CRD");
    }

    private static Map<?, ?> config(ChartRenderer.Rendered rendered) {
        return ChartRenderer.parse(rendered.one(ConfigMap.class).getData().get("application.yaml"), Map.class);
    }

    private static String checksum(ChartRenderer.Rendered rendered) {
        return rendered.one(Deployment.class).getSpec().getTemplate().getMetadata().getAnnotations()
                .get("checksum/config");
    }
}
