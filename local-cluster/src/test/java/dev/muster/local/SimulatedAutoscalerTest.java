package dev.muster.local;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.GenericKubernetesResourceBuilder;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.dsl.MixedOperation;
import io.fabric8.kubernetes.client.dsl.Resource;
import io.fabric8.kubernetes.api.model.GenericKubernetesResourceList;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class SimulatedAutoscalerTest {
    private static final NodeGroup GPU = NodeGroup.parse("gpu=1..4:cpu=32,memory=256Gi,nvidia.com/gpu=8,label.pool=gpu");

    @Test
    void servesTheProvisioningRequestApiAndStartsEachGroupAtItsMinimum() {
        try (LocalCluster cluster = LocalCluster.start(Fixtures.FAST.withNodes(1).withNodeGroups(GPU))) {
            KubernetesClient client = cluster.client();
            Node node = client.nodes().withName("gpu-0").get();
            assertThat(node.getMetadata().getLabels()).containsEntry(NodeGroup.GROUP_LABEL, "gpu")
                    .containsEntry("pool", "gpu");
            assertThat(node.getStatus().getAllocatable()).containsEntry("nvidia.com/gpu", new Quantity("8"))
                    .containsEntry("pods", new Quantity("110"));
            assertThat(client.nodes().list().getItems()).hasSize(2);

            GenericKubernetesResource created = requests(client).resource(request("train", "best-effort-atomic-scale-up.autoscaling.x-k8s.io",
                    Map.of("worker", 4))).create();
            assertThat(created.getMetadata().getUid()).isNotBlank();
            assertThat(client.getApiResources("autoscaling.x-k8s.io/v1").getResources())
                    .anySatisfy(r -> assertThat(r.getName()).isEqualTo("provisioningrequests/status"));
            GenericKubernetesResource changed = requests(client).withName("train").get();
            changed.getAdditionalProperties().put("spec", Map.of("provisioningClassName", "check-capacity.autoscaling.x-k8s.io",
                    "podSets", List.of(Map.of("podTemplateRef", Map.of("name", "worker"), "count", 4))));
            assertThatThrownBy(() -> requests(client).resource(changed).update())
                    .isInstanceOf(KubernetesClientException.class).hasMessageContaining("Value is immutable");
        }
    }

    @Test
    void withoutNodeGroupsTheApiIsNotServed() {
        try (LocalCluster cluster = LocalCluster.start(Fixtures.FAST.withNodes(1))) {
            assertThat(cluster.client().apiextensions().v1().customResourceDefinitions()
                    .withName("provisioningrequests.autoscaling.x-k8s.io").get()).isNull();
        }
    }

    static MixedOperation<GenericKubernetesResource, GenericKubernetesResourceList, Resource<GenericKubernetesResource>> requests(
            KubernetesClient client) {
        return client.genericKubernetesResources("autoscaling.x-k8s.io/v1", "ProvisioningRequest");
    }

    /** A request for {@code counts} pods of each named PodTemplate. */
    static GenericKubernetesResource request(String name, String className, Map<String, Integer> counts) {
        List<Map<String, Object>> podSets = counts.entrySet().stream()
                .map(e -> Map.<String, Object>of("podTemplateRef", Map.of("name", e.getKey()), "count", e.getValue()))
                .toList();
        return new GenericKubernetesResourceBuilder().withApiVersion("autoscaling.x-k8s.io/v1")
                .withKind("ProvisioningRequest").withNewMetadata().withName(name).withNamespace("default").endMetadata()
                .addToAdditionalProperties("spec", Map.of("provisioningClassName", className, "podSets", podSets))
                .build();
    }
}
