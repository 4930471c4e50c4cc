package dev.muster.local.dra;

import com.fasterxml.jackson.databind.JsonNode;
import dev.muster.local.Fixtures;
import dev.muster.local.LocalCluster;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.NodeBuilder;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.utils.Serialization;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/** The simulated DRA driver publishes each GPU node's devices, a clique to each group of nodes. */
@Tag("emulator")
class SimulatedGpuDriverTest {
    @Test
    void eachGpuNodePublishesASliceOfItsDevicesWithTheCliqueOfItsGroup() {
        try (LocalCluster cluster = LocalCluster.start(Fixtures.FAST.withNodes(6).withNodeGpus(8)
                .withGpuApi(GpuApi.DRA).withGpuCliqueSize(4))) {
            KubernetesClient client = cluster.client();

            Map<String, JsonNode> slices = slices(client);

            assertThat(slices).containsOnlyKeys("node-0", "node-1", "node-2", "node-3", "node-4", "node-5");
            Map<String, String> cliqueOfNode = new LinkedHashMap<>();
            slices.forEach((node, spec) -> {
                assertThat(spec.path("driver").asText()).isEqualTo("gpu.example.com");
                assertThat(spec.path("pool").path("name").asText()).isEqualTo(node);
                assertThat(spec.path("pool").path("resourceSliceCount").asInt()).isEqualTo(1);
                JsonNode devices = spec.path("devices");
                assertThat(devices).hasSize(8);
                TreeSet<String> cliques = new TreeSet<>();
                List<String> names = new ArrayList<>();
                devices.forEach(device -> {
                    names.add(device.path("name").asText());
                    cliques.add(device.path("attributes").path("clique").path("string").asText());
                    assertThat(device.path("attributes").path("productName").path("string").asText())
                            .isEqualTo("NVIDIA H100 80GB HBM3");
                    assertThat(device.path("attributes").path("uuid").path("string").asText()).startsWith("GPU-");
                    assertThat(device.path("capacity").path("memory").path("value").asText()).isEqualTo("80Gi");
                });
                assertThat(names).containsExactly("gpu-0", "gpu-1", "gpu-2", "gpu-3", "gpu-4", "gpu-5", "gpu-6", "gpu-7");
                assertThat(cliques).hasSize(1);
                cliqueOfNode.put(node, cliques.first());
            });
            assertThat(cliqueOfNode.get("node-0")).isEqualTo(cliqueOfNode.get("node-3"))
                    .isNotEqualTo(cliqueOfNode.get("node-4")).matches("[0-9a-f-]{36}\\.0");
            assertThat(cliqueOfNode.get("node-4")).isEqualTo(cliqueOfNode.get("node-5"));
            Set<String> uuids = new TreeSet<>();
            slices.values().forEach(spec -> spec.path("devices")
                    .forEach(d -> uuids.add(d.path("attributes").path("uuid").path("string").asText())));
            assertThat(uuids).hasSize(48);

            GenericKubernetesResource deviceClass = client.genericKubernetesResources("resource.k8s.io/v1", "DeviceClass")
                    .withName("gpu.example.com").get();
            assertThat(Serialization.jsonMapper().valueToTree(deviceClass).path("spec").path("selectors").path(0)
                    .path("cel").path("expression").asText()).isEqualTo("device.driver == \"gpu.example.com\"");
            assertThat(client.nodes().withName("node-0").get().getStatus().getCapacity()).doesNotContainKey("nvidia.com/gpu");
        }
    }

    @Test
    void anAddedGpuNodeJoinsTheNextCliqueAndItsSliceGoesWithIt() {
        try (LocalCluster cluster = LocalCluster.start(Fixtures.FAST.withNodes(2).withNodeGpus(4).withGpuCliqueSize(2))) {
            KubernetesClient client = cluster.client();
            cluster.addSimulatedNode(new NodeBuilder().withNewMetadata().withName("big").endMetadata()
                    .withNewStatus().addToCapacity("cpu", new Quantity("64")).addToCapacity("memory", new Quantity("1Ti"))
                    .addToCapacity("nvidia.com/gpu", new Quantity("2")).endStatus().build());
            cluster.addSimulatedNode(new NodeBuilder().withNewMetadata().withName("cpu-only").endMetadata()
                    .withNewStatus().addToCapacity("cpu", new Quantity("64")).endStatus().build());

            Map<String, JsonNode> slices = slices(client);

            assertThat(slices).containsOnlyKeys("node-0", "node-1", "big");
            assertThat(slices.get("big").path("devices")).hasSize(2);
            assertThat(clique(slices.get("big"))).endsWith(".1").isNotEqualTo(clique(slices.get("node-1")));
            assertThat(clique(slices.get("node-0"))).isEqualTo(clique(slices.get("node-1")));
            assertThat(client.nodes().withName("big").get().getStatus().getCapacity())
                    .containsEntry("nvidia.com/gpu", new Quantity("2"));

            client.nodes().withName("big").delete();

            await().until(() -> !slices(client).containsKey("big"));
        }
    }

    @Test
    void extendedOnlyPublishesNoSliceAndNoClass() {
        try (LocalCluster cluster = LocalCluster.start(Fixtures.FAST.withNodeGpus(8).withGpuApi(GpuApi.EXTENDED))) {
            KubernetesClient client = cluster.client();

            assertThat(slices(client)).isEmpty();
            assertThat(client.genericKubernetesResources("resource.k8s.io/v1", "DeviceClass").list().getItems()).isEmpty();
            assertThat(client.nodes().withName("node-0").get().getStatus().getCapacity())
                    .containsEntry("nvidia.com/gpu", new Quantity("8"));
        }
    }

    /** The spec of each slice, by node. */
    private static Map<String, JsonNode> slices(KubernetesClient client) {
        Map<String, JsonNode> byNode = new LinkedHashMap<>();
        for (GenericKubernetesResource slice : client.genericKubernetesResources("resource.k8s.io/v1", "ResourceSlice")
                .list().getItems()) {
            JsonNode spec = Serialization.jsonMapper().valueToTree(slice).path("spec");
            byNode.put(spec.path("nodeName").asText(), spec);
        }
        return byNode;
    }

    private static String clique(JsonNode sliceSpec) {
        return sliceSpec.path("devices").path(0).path("attributes").path("clique").path("string").asText();
    }
}
