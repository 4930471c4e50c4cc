package dev.muster.local.fault;

import dev.muster.local.LocalCluster;
import dev.muster.local.LocalClusterConfig;
import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

import java.util.HashMap;
import java.util.Map;
import java.util.Set;

import static org.assertj.core.api.Assertions.assertThat;

@Tag("emulator")
class FaultInjectorTest {

    private static ConfigMap configMap(String name) {
        return new ConfigMapBuilder().withNewMetadata().withName(name).withNamespace("default").endMetadata()
                .addToData("k", "v").build();
    }

    @Test
    void failsAboutTheGivenShareOfRequestsOfComponentsUnderTestInEveryWayAndNeverTheObserver() {
        try (LocalCluster cluster = LocalCluster.start(LocalClusterConfig.defaults().withNodes(0)
                .withFaults(new FaultPlan(0.3, 42)));
             KubernetesClient underTest = cluster.newClient()) {
            underTest.getConfiguration().setRequestRetryBackoffLimit(0);
            Map<Integer, Integer> codes = new HashMap<>();
            int requests = 400;
            for (int i = 0; i < requests; i++) {
                try {
                    underTest.configMaps().inNamespace("default").resource(configMap("cm-" + i)).create();
                    codes.merge(200, 1, Integer::sum);
                } catch (KubernetesClientException e) {
                    codes.merge(e.getCode(), 1, Integer::sum);
                }
            }

            int failed = requests - codes.getOrDefault(200, 0);
            assertThat(failed).isBetween(80, 160);
            assertThat(codes.keySet()).containsAll(Set.of(200, 500, 429, 409, 504));
            long injected = cluster.faultsInjected().values().stream().mapToLong(Long::longValue).sum();
            assertThat(injected).isEqualTo(failed);
            // A write answered with a timeout was applied anyway; the others were not.
            int stored = cluster.client().configMaps().inNamespace("default").list().getItems().size();
            assertThat(stored).isEqualTo(codes.get(200) + codes.get(504));
            for (int i = 0; i < 50; i++) {
                cluster.client().configMaps().inNamespace("default").withName("cm-0").get();
            }
            assertThat(cluster.faultsInjected().values().stream().mapToLong(Long::longValue).sum())
                    .as("the observer's client is never failed").isEqualTo(injected);
        }
    }

    @Test
    void injectsNothingByDefault() {
        try (LocalCluster cluster = LocalCluster.start(LocalClusterConfig.defaults().withNodes(0));
             KubernetesClient underTest = cluster.newClient()) {
            for (int i = 0; i < 100; i++) {
                underTest.configMaps().inNamespace("default").resource(configMap("cm-" + i)).create();
            }

            assertThat(cluster.faultsInjected().values()).containsOnly(0L);
        }
    }
}
