package dev.muster.local;

import dev.muster.api.MusterLabels;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.PersistentVolumeClaimBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

@Tag("emulator")
class LocalClusterTest {
    private static LocalCluster cluster;
    private static KubernetesClient client;

    @BeforeAll
    static void startCluster() {
        cluster = LocalCluster.start(Fixtures.FAST.withNodes(3).withNodeCpu("8").withNodeMemory("32Gi").withNodeGpus(2)
                .withNodePods(20));
        client = cluster.client();
    }

    @AfterAll
    static void stopCluster() {
        cluster.close();
    }

    @Test
    void poolNodesAreReadyAndReportTheConfiguredCapacity() {
        assertThat(client.nodes().list().getItems()).extracting(n -> n.getMetadata().getName())
                .containsExactlyInAnyOrder("node-0", "node-1", "node-2");
        Node node = client.nodes().withName("node-2").get();
        assertThat(node.getMetadata().getLabels()).containsEntry(MusterLabels.LOCAL_SIMULATED_NODE, "true")
                .containsEntry("kubernetes.io/hostname", "node-2");
        assertThat(node.getStatus().getCapacity()).containsEntry("cpu", new Quantity("8"))
                .containsEntry("memory", new Quantity("32Gi")).containsEntry("pods", new Quantity("20"))
                .containsEntry("nvidia.com/gpu", new Quantity("2"));
        assertThat(node.getStatus().getAllocatable()).isEqualTo(node.getStatus().getCapacity());
        assertThat(node.getStatus().getConditions()).anySatisfy(c -> {
            assertThat(c.getType()).isEqualTo("Ready");
            assertThat(c.getStatus()).isEqualTo("True");
        });
    }

    @Test
    void defaultNamespaceAndMusterCrdsExist() {
        assertThat(client.namespaces().withName("default").get()).isNotNull();
        assertThat(client.apiextensions().v1().customResourceDefinitions().list().getItems())
                .extracting(crd -> crd.getMetadata().getName())
                .containsExactlyInAnyOrder("jobs.batch.muster.dev", "podgroups.scheduling.muster.dev",
                        "queues.scheduling.muster.dev");
    }

    @Test
    void createdPodsGetMetadataAndTheApiServersDefaults() {
        Pod created = client.pods().resource(Fixtures.pod("defaults")).create();

        assertThat(created.getMetadata().getUid()).isNotBlank();
        assertThat(created.getMetadata().getCreationTimestamp()).isNotBlank();
        assertThat(created.getMetadata().getResourceVersion()).isNotBlank();
        assertThat(created.getStatus().getPhase()).isEqualTo("Pending");
        assertThat(created.getSpec().getSchedulerName()).isEqualTo("default-scheduler");
        assertThat(created.getSpec().getRestartPolicy()).isEqualTo("Never");
    }

    @Test
    void claimsWithoutAClassGetTheDefaultOneWhichBindsWhenAPodIsScheduled() {
        var defaulted = client.persistentVolumeClaims().resource(new PersistentVolumeClaimBuilder().withNewMetadata()
                .withName("data").endMetadata().withNewSpec().addToAccessModes("ReadWriteOnce").endSpec().build()).create();
        var noClass = client.persistentVolumeClaims().resource(new PersistentVolumeClaimBuilder().withNewMetadata()
                .withName("static").endMetadata().withNewSpec().withStorageClassName("").endSpec().build()).create();

        assertThat(defaulted.getSpec().getStorageClassName()).isEqualTo("standard");
        assertThat(noClass.getSpec().getStorageClassName()).isEmpty();
        assertThat(client.storage().v1().storageClasses().withName("standard").get()).satisfies(c -> {
            assertThat(c.getVolumeBindingMode()).isEqualTo("WaitForFirstConsumer");
            assertThat(c.getMetadata().getAnnotations()).containsEntry("storageclass.kubernetes.io/is-default-class",
                    "true");
        });
    }

    @Test
    void kubeconfigConnectsAFreshClient(@TempDir Path dir) throws IOException {
        Path kubeconfig = cluster.writeKubeconfig(dir.resolve("nested/kubeconfig"));

        Config config = Config.fromKubeconfig(Files.readString(kubeconfig));
        try (KubernetesClient fresh = new KubernetesClientBuilder().withConfig(config).build()) {
            assertThat(fresh.getMasterUrl().toString()).startsWith(cluster.url());
            assertThat(fresh.getNamespace()).isEqualTo("default");
            assertThat(fresh.nodes().list().getItems()).hasSize(3);
        }
    }

    @Test
    void configRejectsNonsense() {
        assertThatThrownBy(() -> LocalClusterConfig.defaults().withNodeCpu("lots"))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> LocalClusterConfig.defaults().withNodes(-1))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> LocalClusterConfig.defaults().withPodStartDelay(Duration.ofSeconds(-1)))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> LocalClusterConfig.defaults().withPodStopDelay(Duration.ofMillis(-1)))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> LocalClusterConfig.defaults().withRestartBackOff(Duration.ZERO))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("restartBackOff must be positive");
    }
}
