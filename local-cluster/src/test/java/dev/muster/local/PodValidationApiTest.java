package dev.muster.local;

import com.fasterxml.jackson.databind.JsonNode;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.api.model.ResourceRequirementsBuilder;
import io.fabric8.kubernetes.client.KubernetesClientException;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;
import static org.assertj.core.api.Assertions.tuple;

/** A pod kube-apiserver refuses is refused over HTTP in its words, dry runs included, and nothing is stored. */
@Tag("emulator")
class PodValidationApiTest extends ApiOnlyClusterTests {
    private static final String PODS = "/api/v1/namespaces/default/pods";

    @Test
    void aPodWithoutImageAndWithARequestAboveItsLimitIsRefusedWith422NamingEachField() {
        Pod pod = Fixtures.pod("invalid-pod");
        pod.getSpec().getContainers().get(0).setImage(null);
        pod.getSpec().getContainers().get(0).setResources(new ResourceRequirementsBuilder()
                .withRequests(Map.of("cpu", new Quantity("2"))).withLimits(Map.of("cpu", new Quantity("1"))).build());

        KubernetesClientException refused = catchThrowableOfType(KubernetesClientException.class,
                () -> client.resource(pod).create());

        assertThat(refused.getCode()).isEqualTo(422);
        assertThat(refused.getStatus().getReason()).isEqualTo("Invalid");
        assertThat(refused.getStatus().getMessage()).isEqualTo("Pod \"invalid-pod\" is invalid: ["
                + "spec.containers[0].image: Required value, "
                + "spec.containers[0].resources.requests: Invalid value: \"2\": must be less than or equal to cpu limit of 1]");
        assertThat(refused.getStatus().getDetails().getKind()).isEqualTo("Pod");
        assertThat(refused.getStatus().getDetails().getCauses()).extracting("field", "reason")
                .containsExactly(tuple("spec.containers[0].image", "FieldValueRequired"),
                        tuple("spec.containers[0].resources.requests", "FieldValueInvalid"));
        assertThat(client.pods().withName("invalid-pod").get()).isNull();
    }

    @Test
    void aCreatedPodsAnswerCarriesTheApiServersWarningsAboutIt() {
        Map<String, Object> pod = Map.of("apiVersion", "v1", "kind", "Pod",
                "metadata", Map.of("name", "warned-about"),
                "spec", Map.of("nodeSelector", Map.of("beta.kubernetes.io/os", "linux"),
                        "containers", List.of(Map.of("name", "main", "image", "busybox",
                        "env", List.of(Map.of("name", "X", "value", "a"), Map.of("name", "X", "value", "b"))))));

        RawApi.Response response = api.post(PODS + "?dryRun=All", pod);

        assertThat(response.code()).isEqualTo(201);
        assertThat(response.warnings()).containsExactly(
                "299 - \"spec.nodeSelector[beta.kubernetes.io/os]: deprecated since v1.14; use \\\"kubernetes.io/os\\\" instead\"",
                "299 - \"spec.containers[0].env[1]: hides previous definition of \\\"X\\\", which may be dropped when using apply\"");
    }

    @Test
    void aDryRunOfAnInvalidTemplateIsRefusedNamingTheGeneratedName() {
        Map<String, Object> pod = Map.of("apiVersion", "v1", "kind", "Pod",
                "metadata", Map.of("generateName", "worker-"),
                "spec", Map.of("containers", List.of(Map.of("name", "main", "image", "busybox",
                        "volumeMounts", List.of(Map.of("name", "data", "mountPath", "/data"))))));

        RawApi.Response response = api.post(PODS + "?dryRun=All&fieldValidation=Strict", pod);

        assertThat(response.code()).isEqualTo(422);
        assertThat(response.body().path("message").asText())
                .matches("Pod \"worker-[a-z0-9]{5}\" is invalid: spec.containers\\[0]\\.volumeMounts\\[0]\\.name: Not found: \"data\"");
        JsonNode cause = response.body().at("/details/causes/0");
        assertThat(cause.path("reason").asText()).isEqualTo("FieldValueNotFound");
        assertThat(cause.path("message").asText()).isEqualTo("Not found: \"data\"");
    }

    @Test
    void aQuantityThatDoesNotReadIsABadRequest() {
        Map<String, Object> pod = Map.of("apiVersion", "v1", "kind", "Pod", "metadata", Map.of("name", "two-cores"),
                "spec", Map.of("containers", List.of(Map.of("name", "main", "image", "busybox",
                        "resources", Map.of("requests", Map.of("cpu", "2 cores"))))));

        RawApi.Response response = api.post(PODS, pod);

        assertThat(response.code()).isEqualTo(400);
        assertThat(response.body().path("message").asText()).isEqualTo("Pod in version \"v1\" cannot be handled as a Pod: "
                + "quantities must match the regular expression '^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$'");
        assertThat(api.get(PODS + "/two-cores").code()).isEqualTo(404);
    }
}
