package dev.muster.local;

import com.fasterxml.jackson.databind.JsonNode;
import dev.muster.api.batch.v1alpha1.Job;
import dev.muster.api.scheduling.v1alpha1.PodGroup;
import io.fabric8.kubernetes.api.model.APIGroup;
import io.fabric8.kubernetes.api.model.APIResource;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

@Tag("emulator")
class DiscoveryTest extends ApiOnlyClusterTests {
    @Test
    void coreApiListsV1AndItsResources() {
        RawApi.Response versions = api.get("/api");
        assertThat(versions.code()).isEqualTo(200);
        assertThat(versions.body().path("kind").asText()).isEqualTo("APIVersions");
        assertThat(texts(versions.body().path("versions"))).containsExactly("v1");

        assertThat(client.getApiResources("v1").getResources()).extracting(APIResource::getName)
                .contains("pods", "pods/status", "pods/binding", "bindings", "nodes", "nodes/status", "namespaces",
                        "services", "configmaps", "events", "secrets", "endpoints");
        APIResource pods = resource("v1", "pods");
        assertThat(pods.getNamespaced()).isTrue();
        assertThat(pods.getKind()).isEqualTo("Pod");
        assertThat(pods.getShortNames()).containsExactly("po");
        assertThat(pods.getVerbs()).contains("create", "get", "list", "watch", "patch", "update", "delete");
        assertThat(resource("v1", "pods/binding").getVerbs()).containsExactly("create");
        assertThat(resource("v1", "nodes").getNamespaced()).isFalse();
    }

    @Test
    void groupsIncludeMusterAndTheBuiltInsOurCodeUses() {
        assertThat(client.getApiGroups().getGroups()).extracting(APIGroup::getName).contains(
                "batch.muster.dev", "scheduling.muster.dev", "apiextensions.k8s.io", "coordination.k8s.io",
                "events.k8s.io", "scheduling.k8s.io", "apps", "batch");
        assertThat(client.getApiGroup("scheduling.muster.dev").getPreferredVersion().getGroupVersion())
                .isEqualTo("scheduling.muster.dev/v1alpha1");
        assertThat(client.getApiResources("scheduling.k8s.io/v1").getResources()).extracting(APIResource::getName)
                .contains("priorityclasses");
    }

    @Test
    void customResourcesAreDescribedFromTheirCrds() {
        APIResource jobs = resource(Job.API_VERSION, "jobs");
        assertThat(jobs.getKind()).isEqualTo("Job");
        assertThat(jobs.getSingularName()).isEqualTo("job");
        assertThat(jobs.getNamespaced()).isTrue();
        assertThat(jobs.getShortNames()).containsExactly("mjob", "mj");
        assertThat(jobs.getVerbs()).contains("get", "list", "watch", "create", "update", "patch", "delete");
        assertThat(resource(Job.API_VERSION, "jobs/status").getVerbs()).containsExactly("get", "patch", "update");
        assertThat(resource(PodGroup.API_VERSION, "podgroups").getShortNames()).contains("pg");
        assertThat(client.supports(Job.class)).isTrue();
        assertThat(client.supports(PodGroup.class)).isTrue();
    }

    @Test
    void rootListsPathsAndNonResourcePathsAreNotFound() {
        RawApi.Response root = api.get("/");
        assertThat(root.code()).isEqualTo(200);
        assertThat(texts(root.body().path("paths"))).contains("/api", "/apis", "/apis/batch.muster.dev/v1alpha1", "/version");
        assertThat(api.get("/healthz/nothing").code()).isEqualTo(404);
        assertThat(api.post("/not/an/api", Fixtures.pod("nowhere")).code()).isEqualTo(404);
    }

    @Test
    void unknownGroupsAreNotFoundButVersionAnswers() {
        assertThat(api.get("/apis/nothing.example.com/v1").code()).isEqualTo(404);
        assertThat(api.get("/apis/nothing.example.com").code()).isEqualTo(404);
        assertThat(api.get("/openapi/v3/apis/nothing.example.com/v1").code()).isEqualTo(404);
        assertThat(api.get("/openapi/v2").code()).isEqualTo(200);
        assertThat(client.getKubernetesVersion().getMajor()).isEqualTo("1");
        assertThat(client.getKubernetesVersion().getMinor()).isEqualTo("34");
    }

    private static APIResource resource(String groupVersion, String name) {
        return client.getApiResources(groupVersion).getResources().stream().filter(r -> r.getName().equals(name))
                .findFirst().orElseThrow(() -> new AssertionError(name + " not in " + groupVersion));
    }

    private static List<String> texts(JsonNode array) {
        List<String> texts = new ArrayList<>();
        array.forEach(n -> texts.add(n.asText()));
        return texts;
    }
}
