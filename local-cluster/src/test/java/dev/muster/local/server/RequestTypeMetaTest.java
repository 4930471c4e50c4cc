package dev.muster.local.server;

import com.fasterxml.jackson.databind.JsonNode;
import dev.muster.local.protocol.Json;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.coordination.v1.Lease;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Optional;

import static org.assertj.core.api.Assertions.assertThat;

/** A written body's apiVersion and kind against the URL's resource, as kube-apiserver decodes them. */
class RequestTypeMetaTest {
    private static final ServedResources.Resource PODS = ServedResources.Resource.builtIn(Pod.class, List.of(), List.of(), List.of());
    private static final ServedResources.Resource JOBS = new ServedResources.Resource("batch.muster.dev", "v1alpha1",
            "jobs", "job", "Job", true, List.of("create"), List.of(), List.of("status"), List.of());
    private static final ServedResources.Resource LEASES = ServedResources.Resource.builtIn(Lease.class, List.of(), List.of(), List.of());

    @Test
    void aBodyThatNamesBothIsWrittenAsSent() {
        RequestTypeMeta checked = of("{\"metadata\":{\"name\":\"p\"},\"apiVersion\":\"v1\",\"kind\":\"Pod\"}", PODS);
        assertThat(checked.refusal()).isNull();
        assertThat(checked.body()).isEmpty();
    }

    @Test
    void missingOnesAreTheUrls() {
        RequestTypeMeta checked = of("{\"metadata\":{\"name\":\"l\",\"labels\":{\"kind\":\"x\"}},\"spec\":{}}", LEASES);
        assertThat(checked.refusal()).isNull();
        JsonNode body = checked.body().orElseThrow();
        assertThat(body.path("apiVersion").asText()).isEqualTo("coordination.k8s.io/v1");
        assertThat(body.path("kind").asText()).isEqualTo("Lease");
        assertThat(body.path("metadata").path("labels").path("kind").asText()).isEqualTo("x");
        assertThat(of("{\"apiVersion\":\"v1\"}", PODS).body().orElseThrow().path("kind").asText()).isEqualTo("Pod");
    }

    @Test
    void anotherVersionIsABadRequest() {
        RequestTypeMeta checked = of("{\"apiVersion\":\"apps/v1\",\"kind\":\"Pod\"}", PODS);
        assertThat(checked.refusal().code()).isEqualTo(400);
        assertThat(message(checked)).isEqualTo(
                "the API version in the data (apps/v1) does not match the expected API version (v1)");
    }

    @Test
    void anotherKindOfABuiltInIsABadRequest() {
        RequestTypeMeta checked = of("{\"kind\":\"Service\",\"metadata\":{\"labels\":{\"a\":\"b\"},\"name\":\"web\"}}", PODS);
        assertThat(checked.refusal().code()).isEqualTo(400);
        assertThat(message(checked)).isEqualTo("Service in version \"v1\" cannot be handled as a Pod: this URL takes Pod");
    }

    @Test
    void aCustomResourceMustNameItsTypeAndAnotherKindIsInvalid() {
        RequestTypeMeta missing = of("{\"apiVersion\":\"batch.muster.dev/v1alpha1\",\"metadata\":{\"name\":\"j\"}}", JOBS);
        assertThat(missing.refusal().code()).isEqualTo(400);
        assertThat(message(missing)).startsWith("Object 'Kind' is missing in '{\"apiVersion\"");

        RequestTypeMeta other = of("{\"apiVersion\":\"batch.muster.dev/v1alpha1\",\"kind\":\"Task\",\"metadata\":{\"name\":\"j\"}}", JOBS);
        assertThat(other.refusal().code()).isEqualTo(422);
        assertThat(message(other)).isEqualTo("Task.batch.muster.dev \"j\" is invalid: kind: Invalid value: \"Task\": must be Job");
    }

    @Test
    void notAnObjectIsLeftToTheHandlers() {
        assertThat(of("[1]", PODS)).isEqualTo(new RequestTypeMeta(Optional.empty(), null));
        assertThat(of("{\"kind\":", PODS).refusal()).isNull();
    }

    private static RequestTypeMeta of(String body, ServedResources.Resource resource) {
        return RequestTypeMeta.of(body.getBytes(StandardCharsets.UTF_8), resource);
    }

    private static String message(RequestTypeMeta checked) {
        return Json.stored(checked.refusal().getBody().readUtf8()).path("message").asText();
    }
}
