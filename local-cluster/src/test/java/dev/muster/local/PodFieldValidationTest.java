package dev.muster.local;

import com.fasterxml.jackson.databind.JsonNode;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A pod's unknown fields under each {@code fieldValidation} directive, as kube-apiserver's strict decoder treats
 * them: {@code Strict} refuses the write, {@code Warn} (the default) drops them with a {@code Warning} each,
 * {@code Ignore} drops them silently; free-form maps are no unknown fields.
 */
@Tag("emulator")
class PodFieldValidationTest extends ApiOnlyClusterTests {
    private static final String PODS = "/api/v1/namespaces/default/pods";

    @Test
    void strictRefusesAPodWithUnknownFieldsNamingEachWithItsPath() {
        RawApi.Response response = api.post(PODS + "?fieldValidation=Strict", misspelled("strictly-refused-pod"));

        assertThat(response.code()).isEqualTo(400);
        assertThat(response.body().path("reason").asText()).isEqualTo("BadRequest");
        assertThat(response.body().path("message").asText()).isEqualTo("Pod in version \"v1\" cannot be handled as a Pod: "
                + "strict decoding error: unknown field \"spec.colour\", unknown field \"spec.containers[0].resorces\"");
        assertThat(api.get(PODS + "/strictly-refused-pod").code()).isEqualTo(404);
    }

    @Test
    void warnDropsTheUnknownFieldsWithAWarningEachAndIsTheDefault() {
        RawApi.Response response = api.post(PODS, misspelled("warned-pod"));

        assertThat(response.code()).isEqualTo(201);
        assertThat(response.warnings()).containsExactly("299 - \"unknown field \\\"spec.colour\\\"\"",
                "299 - \"unknown field \\\"spec.containers[0].resorces\\\"\"");
        JsonNode stored = api.get(PODS + "/warned-pod").body();
        assertThat(stored.path("spec").has("colour")).isFalse();
        assertThat(stored.at("/spec/containers/0").has("resorces")).isFalse();
        assertThat(stored.at("/metadata/labels/team").asText()).isEqualTo("a");
        assertThat(stored.at("/spec/nodeSelector/disk").asText()).isEqualTo("ssd");
    }

    @Test
    void ignoreDropsThemSilentlyAndAnUpdateIsTreatedAlike() {
        RawApi.Response created = api.post(PODS + "?fieldValidation=Ignore", misspelled("ignored-pod"));
        Map<String, Object> update = misspelled("ignored-pod");
        update.put("metadata", Map.of("name", "ignored-pod", "labels", Map.of("team", "b")));

        RawApi.Response strictUpdate = api.put(PODS + "/ignored-pod?fieldValidation=Strict", update);
        RawApi.Response warnedUpdate = api.put(PODS + "/ignored-pod", update);

        assertThat(created.code()).isEqualTo(201);
        assertThat(created.warnings()).isEmpty();
        assertThat(api.get(PODS + "/ignored-pod").body().path("spec").has("colour")).isFalse();
        assertThat(strictUpdate.code()).isEqualTo(400);
        assertThat(warnedUpdate.code()).isEqualTo(200);
        assertThat(warnedUpdate.warnings()).hasSize(2);
        assertThat(warnedUpdate.body().at("/metadata/labels/team").asText()).isEqualTo("b");
        assertThat(warnedUpdate.body().path("spec").has("colour")).isFalse();
    }

    /** A pod with unknown fields at two depths, in this order, and free-form maps. */
    private static Map<String, Object> misspelled(String name) {
        Map<String, Object> spec = new LinkedHashMap<>();
        spec.put("colour", "blue");
        spec.put("containers", List.of(Map.of("name", "main", "image", "busybox",
                "resorces", Map.of("requests", Map.of("cpu", "1")))));
        spec.put("nodeSelector", Map.of("disk", "ssd"));
        Map<String, Object> pod = new LinkedHashMap<>(Map.of("apiVersion", "v1", "kind", "Pod",
                "metadata", Map.of("name", name, "labels", Map.of("team", "a"))));
        pod.put("spec", spec);
        return pod;
    }
}
