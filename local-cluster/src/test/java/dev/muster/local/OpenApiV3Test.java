package dev.muster.local;

import com.fasterxml.jackson.databind.JsonNode;
import dev.muster.local.protocol.Json;
import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceDefinition;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@code /openapi/v3} over plain HTTP: the group-versions of CRDs, each with its document and content hash, as
 * kube-apiserver publishes them for {@code kubectl explain}, and no built-in group-version.
 */
@Tag("emulator")
class OpenApiV3Test extends ApiOnlyClusterTests {
    private static final String GIZMOS = "apis/openapi.example.com/v1";
    private static final String GIZMOS_CRD = "gizmos.openapi.example.com";
    private static final HttpClient HTTP = HttpClient.newBuilder().followRedirects(HttpClient.Redirect.NEVER).build();
    private static String url;

    @BeforeAll
    static void address(LocalCluster cluster) {
        url = cluster.url();
    }

    @Test
    void theRootListsTheGroupVersionsOfCrdsOnlyEachWithItsHashedUrlAndOthersAreNotFound() {
        JsonNode paths = Json.stored(get("/openapi/v3", null).body()).path("paths");

        assertThat(names(paths)).contains("apis/batch.muster.dev/v1alpha1", "apis/scheduling.muster.dev/v1alpha1")
                .allMatch(name -> name.startsWith("apis/") && name.contains(".") && !name.contains(".k8s.io/"))
                .doesNotContain("api/v1", "apis/apps/v1", "apis/batch/v1");
        assertThat(paths.path("apis/batch.muster.dev/v1alpha1").path("serverRelativeURL").asText())
                .matches("/openapi/v3/apis/batch\\.muster\\.dev/v1alpha1\\?hash=[0-9A-F]{128}");
        HttpResponse<String> unknown = get("/openapi/v3/apis/nothing.example.com/v1", null);
        assertThat(unknown.statusCode()).isEqualTo(404);
        assertThat(Json.stored(unknown.body()).path("message").asText())
                .isEqualTo("the server could not find the requested resource");
        assertThat(get("/openapi/v3/api/v1", null).statusCode()).isEqualTo(404);
    }

    @Test
    void aGroupVersionsDocumentHoldsItsKindsListKindsMetadataAndPaths() {
        JsonNode document = document("apis/batch.muster.dev/v1alpha1");
        JsonNode schemas = document.path("components").path("schemas");

        JsonNode job = schemas.path("dev.muster.batch.v1alpha1.Job");
        assertThat(job.path("x-kubernetes-group-version-kind").get(0).toString())
                .isEqualTo("{\"group\":\"batch.muster.dev\",\"version\":\"v1alpha1\",\"kind\":\"Job\"}");
        assertThat(job.path("properties").path("spec").path("properties").path("tasks").path("items")
                .path("properties").path("replicas").path("type").asText()).isEqualTo("integer");
        assertThat(job.path("properties").path("metadata").path("$ref").asText())
                .isEqualTo("#/components/schemas/io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta");
        assertThat(job.path("properties").path("kind").path("description").asText())
                .startsWith("Kind is a string value representing the REST resource this object represents.");
        JsonNode list = schemas.path("dev.muster.batch.v1alpha1.JobList");
        assertThat(list.path("x-kubernetes-group-version-kind").get(0).path("kind").asText()).isEqualTo("JobList");
        assertThat(list.path("properties").path("items").path("items").path("$ref").asText())
                .isEqualTo("#/components/schemas/dev.muster.batch.v1alpha1.Job");
        assertThat(names(schemas.path("io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta").path("properties")))
                .contains("name", "namespace", "labels", "annotations", "ownerReferences", "uid");
        assertThat(schemas.has("io.k8s.apimachinery.pkg.apis.meta.v1.ListMeta")).isTrue();

        JsonNode patch = document.path("paths").path("/apis/batch.muster.dev/v1alpha1/namespaces/{namespace}/jobs/{name}")
                .path("patch");
        assertThat(patch.path("x-kubernetes-group-version-kind").path("kind").asText()).isEqualTo("Job");
        // No strategic merge patch: kubectl apply sends a custom resource a JSON merge patch.
        assertThat(names(patch.path("requestBody").path("content"))).containsExactlyInAnyOrder(
                "application/json-patch+json", "application/merge-patch+json", "application/apply-patch+yaml");
        assertThat(document.path("paths").has("/apis/batch.muster.dev/v1alpha1/namespaces/{namespace}/jobs/{name}/status"))
                .isTrue();
    }

    @Test
    void aUserCrdIsPublishedWithItsDescriptionsAndItsHashFollowsItsUpdatesUntilItIsDeleted() {
        var crds = client.apiextensions().v1().customResourceDefinitions();
        CustomResourceDefinition created = crds.load(OpenApiV3Test.class.getResourceAsStream("/openapi/gizmos-crd.yaml"))
                .create();
        try {
            String firstUrl = serverRelativeUrl(GIZMOS);
            JsonNode gizmo = Json.stored(get(firstUrl, null).body()).path("components").path("schemas")
                    .path("com.example.openapi.v1.Gizmo");
            assertThat(gizmo.path("description").asText()).isEqualTo("A Gizmo turns cranks at a chosen speed.");
            JsonNode spec = gizmo.path("properties").path("spec");
            assertThat(spec.path("properties").path("cranks").path("description").asText())
                    .isEqualTo("How many cranks the gizmo turns at once.");
            assertThat(spec.path("properties").path("speed").path("anyOf").toString())
                    .isEqualTo("[{\"type\":\"integer\"},{\"type\":\"string\"}]");
            assertThat(names(Json.stored(get("/openapi/v3", null).body()).path("paths")))
                    .doesNotContain("apis/openapi.example.com/v1beta1");

            HttpResponse<String> first = get(firstUrl, null);
            String etag = first.headers().firstValue("ETag").orElseThrow();
            assertThat(first.headers().firstValue("Cache-Control")).contains("public, immutable");
            assertThat(get("/openapi/v3/" + GIZMOS, etag).statusCode()).isEqualTo(304);

            created.getSpec().getVersions().get(0).getSchema().getOpenAPIV3Schema().setDescription("A better gizmo.");
            crds.resource(created).update();

            String secondUrl = serverRelativeUrl(GIZMOS);
            assertThat(secondUrl).isNotEqualTo(firstUrl);
            HttpResponse<String> stale = get(firstUrl, null);
            assertThat(stale.statusCode()).isEqualTo(301);
            assertThat(stale.headers().firstValue("Location")).contains(secondUrl);
            assertThat(get("/openapi/v3/" + GIZMOS, etag).statusCode()).isEqualTo(200);
            assertThat(Json.stored(get(secondUrl, null).body()).path("components").path("schemas")
                    .path("com.example.openapi.v1.Gizmo").path("description").asText()).isEqualTo("A better gizmo.");
        } finally {
            crds.withName(GIZMOS_CRD).delete();
        }

        assertThat(names(Json.stored(get("/openapi/v3", null).body()).path("paths"))).doesNotContain(GIZMOS);
        assertThat(get("/openapi/v3/" + GIZMOS, null).statusCode()).isEqualTo(404);
    }

    private static JsonNode document(String groupVersion) {
        HttpResponse<String> response = get(serverRelativeUrl(groupVersion), null);
        assertThat(response.statusCode()).isEqualTo(200);
        return Json.stored(response.body());
    }

    private static String serverRelativeUrl(String groupVersion) {
        return Json.stored(get("/openapi/v3", null).body()).path("paths").path(groupVersion).path("serverRelativeURL")
                .asText();
    }

    private static HttpResponse<String> get(String path, String ifNoneMatch) {
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(url + path)).GET()
                .header("Accept", "application/json");
        if (ifNoneMatch != null) {
            request.header("If-None-Match", ifNoneMatch);
        }
        try {
            return HTTP.send(request.build(), HttpResponse.BodyHandlers.ofString());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    private static List<String> names(JsonNode object) {
        List<String> names = new ArrayList<>();
        object.fieldNames().forEachRemaining(names::add);
        return names;
    }
}
