package dev.muster.local;

import com.fasterxml.jackson.databind.JsonNode;
import dev.muster.local.server.ServedResources;
import io.fabric8.kubernetes.api.model.GenericKubernetesResourceList;
import io.fabric8.kubernetes.api.model.KubernetesResourceList;
import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceDefinition;
import io.fabric8.kubernetes.client.utils.Serialization;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Every served resource as a strict typed client sees it. fabric8's typed lists accept any {@code kind}, so these
 * tests read the raw JSON and decode it as client-go's typed clients do: client-go decodes a response by the
 * {@code apiVersion} and {@code kind} in its body, so a {@code v1 List} is refused for a custom resource ("no kind
 * List is registered") and, for a core kind, decodes as an empty {@code PodList}, {@code EventList}...: a Go
 * controller never starts, and {@code kubectl describe} shows "Events: &lt;none&gt;".
 */
@Tag("emulator")
class StrictClientTest extends ApiOnlyClusterTests {
    /** A resource as discovery describes it. */
    private record Discovered(String groupVersion, String name, String kind, boolean namespaced, List<String> verbs) {
        String collectionPath() {
            return (groupVersion.equals("v1") ? "/api/v1/" : "/apis/" + groupVersion + "/") + name;
        }
    }

    private static ServedResources served;

    @BeforeAll
    static void objectsToList() {
        client.pods().inNamespace("default").resource(Fixtures.pod("strict-pod")).create();
        served = new ServedResources(
                () -> client.apiextensions().v1().customResourceDefinitions().list().getItems(),
                name -> client.apiextensions().v1().customResourceDefinitions().withName(name).get());
    }

    @Test
    void everyServedResourceIsInDiscoveryAndEveryDiscoveredOneIsServed() {
        List<Discovered> discovered = discovered();
        List<String> discoveredNames = discovered.stream().map(d -> d.groupVersion() + " " + d.name() + " " + d.kind()).toList();

        List<ServedResources.Resource> all = served.all();
        assertThat(all).extracting(ServedResources.Resource::group)
                .contains("", "storage.k8s.io", "resource.k8s.io", "batch.muster.dev", "scheduling.muster.dev");
        assertThat(all).extracting(ServedResources.Resource::plural).contains("persistentvolumes", "resourcequotas");
        for (ServedResources.Resource resource : all) {
            assertThat(discoveredNames).as("discovery").contains(
                    resource.apiVersion() + " " + resource.plural() + " " + resource.kind());
            resource.subresources().forEach(sub -> assertThat(discovered).as("discovery of " + sub)
                    .anyMatch(d -> d.groupVersion().equals(resource.apiVersion())
                            && d.name().equals(resource.plural() + "/" + sub)));
        }
        for (Discovered resource : discovered) {
            if (!resource.name().contains("/")) {
                String[] groupVersion = resource.groupVersion().split("/");
                assertThat(served.find(groupVersion.length == 1 ? "" : groupVersion[0],
                        groupVersion[groupVersion.length - 1], resource.name())).as(resource.toString()).isPresent();
            }
        }
    }

    @Test
    void everyListAnswersItsKindListInItsGroupVersionAndDecodesStrictly() {
        List<Discovered> listable = discovered().stream()
                .filter(d -> !d.name().contains("/") && d.verbs().contains("list")).toList();
        assertThat(listable).hasSizeGreaterThan(40);
        for (Discovered resource : listable) {
            RawApi.Response response = api.get(resource.collectionPath());
            assertThat(response.code()).as(resource.collectionPath()).isEqualTo(200);

            KubernetesResourceList<?> list = strictlyDecoded(response.body(), resource.groupVersion(), resource.kind());

            assertThat(list.getMetadata().getResourceVersion()).as(resource.collectionPath()).isNotBlank();
        }
        JsonNode pods = api.get("/api/v1/namespaces/default/pods").body();
        assertThat(strictlyDecoded(pods, "v1", "Pod").getItems()).isNotEmpty();
    }

    @Test
    void aResourceThatIsNotServedIsNotFoundAsOnTheApiServer() {
        assertThat(api.get("/apis/example.com/v1/namespaces/default/things").code()).isEqualTo(404);
        assertThat(api.post("/apis/example.com/v1/namespaces/default/things", Fixtures.pod("thing")).code()).isEqualTo(404);
        assertThat(api.get("/api/v1/namespaces/default/nothings").code()).isEqualTo(404);
        CustomResourceDefinition crd = client.apiextensions().v1().customResourceDefinitions()
                .withName("jobs.batch.muster.dev").get();
        assertThat(crd).isNotNull();
        assertThat(api.get("/apis/batch.muster.dev/v9/namespaces/default/jobs").code()).isEqualTo(404);
    }

    /**
     * The list decoded as client-go's typed client decodes it: by the body's {@code apiVersion} and {@code kind},
     * which must be those of the resource's list, or the decode fails.
     */
    private static KubernetesResourceList<?> strictlyDecoded(JsonNode body, String groupVersion, String kind) {
        String expected = groupVersion + " " + kind + "List";
        String actual = body.path("apiVersion").asText() + " " + body.path("kind").asText();
        if (!actual.equals(expected)) {
            throw new AssertionError("a typed client expecting " + expected + " cannot decode " + actual);
        }
        body.path("items").forEach(item -> assertThat(item.path("kind").asText()).as(expected + " item").isEqualTo(kind));
        return Serialization.unmarshal(body.toString(), GenericKubernetesResourceList.class);
    }

    private static List<Discovered> discovered() {
        List<Discovered> all = new ArrayList<>();
        List<String> groupVersions = new ArrayList<>(List.of("v1"));
        api.get("/apis").body().path("groups").forEach(group -> group.path("versions")
                .forEach(version -> groupVersions.add(version.path("groupVersion").asText())));
        for (String groupVersion : groupVersions) {
            JsonNode list = api.get(groupVersion.equals("v1") ? "/api/v1" : "/apis/" + groupVersion).body();
            assertThat(list.path("groupVersion").asText()).isEqualTo(groupVersion);
            list.path("resources").forEach(r -> {
                List<String> verbs = new ArrayList<>();
                r.path("verbs").forEach(v -> verbs.add(v.asText()));
                all.add(new Discovered(groupVersion, r.path("name").asText(), r.path("kind").asText(),
                        r.path("namespaced").asBoolean(), verbs));
            });
        }
        return all;
    }
}
