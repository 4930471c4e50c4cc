package dev.muster.local;

import com.fasterxml.jackson.databind.JsonNode;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.client.dsl.MixedOperation;
import io.fabric8.kubernetes.client.dsl.Resource;
import io.fabric8.kubernetes.api.model.GenericKubernetesResourceList;
import io.fabric8.kubernetes.client.utils.Serialization;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The emulator serves Dynamic Resource Allocation's {@code resource.k8s.io/v1}: its four kinds, in discovery, with
 * ResourceClaim's status subresource kept apart from the claim's other writers as on kube-apiserver; and the alpha
 * DeviceTaintRules in {@code v1alpha3}.
 */
@Tag("emulator")
class DraApiTest extends ApiOnlyClusterTests {
    private static final String KUBECTL_ACCEPT = "application/json;as=Table;v=v1;g=meta.k8s.io,application/json";

    @Test
    void discoveryListsTheFourKindsOfResourceV1AndTheClaimStatus() {
        JsonNode list = api.get("/apis/resource.k8s.io/v1").body();

        List<String> names = new ArrayList<>();
        list.path("resources").forEach(r -> names.add(r.path("name").asText() + " " + r.path("kind").asText() + " "
                + r.path("namespaced").asBoolean()));
        assertThat(names).containsExactlyInAnyOrder("deviceclasses DeviceClass false",
                "resourceclaims ResourceClaim true", "resourceclaims/status ResourceClaim true",
                "resourceclaimtemplates ResourceClaimTemplate true", "resourceslices ResourceSlice false");
        assertThat(api.get("/apis/resource.k8s.io/v1beta1").code()).isEqualTo(404);
    }

    @Test
    void servesDeviceTaintRulesInV1alpha3AsKubeApiserver134WithTheAlphaApiOnWhileV1StaysPreferred() {
        JsonNode alpha = api.get("/apis/resource.k8s.io/v1alpha3").body();
        JsonNode group = api.get("/apis/resource.k8s.io").body();
        GenericKubernetesResource rule = new GenericKubernetesResource();
        rule.setApiVersion("resource.k8s.io/v1alpha3");
        rule.setKind("DeviceTaintRule");
        rule.setMetadata(new io.fabric8.kubernetes.api.model.ObjectMetaBuilder().withName("drain-gpu-0").build());
        rule.setAdditionalProperty("spec", Map.of("deviceSelector", Map.of("driver", "gpu.example.com", "device", "gpu-0"),
                "taint", Map.of("key", "example.com/maintenance", "effect", "NoSchedule")));

        client.genericKubernetesResources("resource.k8s.io/v1alpha3", "DeviceTaintRule").resource(rule).create();

        List<String> names = new ArrayList<>();
        alpha.path("resources").forEach(r -> names.add(r.path("name").asText() + " " + r.path("kind").asText() + " "
                + r.path("namespaced").asBoolean()));
        assertThat(names).containsExactly("devicetaintrules DeviceTaintRule false");
        assertThat(group.path("preferredVersion").path("version").asText()).isEqualTo("v1");
        JsonNode stored = Serialization.jsonMapper().valueToTree(client.genericKubernetesResources(
                "resource.k8s.io/v1alpha3", "DeviceTaintRule").withName("drain-gpu-0").get());
        assertThat(stored.path("spec").path("taint").path("key").asText()).isEqualTo("example.com/maintenance");
    }

    @Test
    void aClaimsStatusIsWrittenOnlyThroughItsSubresource() {
        // A pod that exists, so that the simulated resourceclaim controller keeps its reservation.
        String uid = client.resource(Fixtures.pod("consumer")).create().getMetadata().getUid();
        GenericKubernetesResource claim = claim("status-apart");
        GenericKubernetesResource created = claims().resource(claim).create();
        created.setAdditionalProperty("status", Map.of("allocation", Map.of("devices", Map.of("results", List.of(
                Map.of("request", "gpu", "driver", "gpu.example.com", "pool", "node-0", "device", "gpu-0")))),
                "reservedFor", List.of(Map.of("resource", "pods", "name", "consumer", "uid", uid))));

        GenericKubernetesResource allocated = claims().resource(created).updateStatus();
        allocated.getMetadata().setLabels(Map.of("team", "a"));
        allocated.setAdditionalProperty("status", Map.of());
        claims().resource(allocated).update();

        GenericKubernetesResource stored = claims().withName("status-apart").get();
        assertThat(stored.getMetadata().getLabels()).containsEntry("team", "a");
        JsonNode status = Serialization.jsonMapper().valueToTree(stored).path("status");
        assertThat(status.path("allocation").path("devices").path("results").path(0).path("device").asText())
                .isEqualTo("gpu-0");
        assertThat(status.path("reservedFor").path(0).path("uid").asText()).isEqualTo(uid);
        JsonNode table = api.get("/apis/resource.k8s.io/v1/namespaces/default/resourceclaims/status-apart",
                KUBECTL_ACCEPT).body();
        assertThat(table.path("rows").path(0).path("cells").path(1).asText()).isEqualTo("allocated,reserved");
    }

    @Test
    void aMergePatchOfTheClaimStatusWritesOnlyTheStatus() {
        String uid = client.resource(Fixtures.pod("patch-consumer")).create().getMetadata().getUid();
        GenericKubernetesResource created = claims().resource(claim("patched")).create();
        String path = "/apis/resource.k8s.io/v1/namespaces/default/resourceclaims/patched/status";

        RawApi.Response patched = api.patch(path, "application/merge-patch+json", "{\"metadata\":{\"resourceVersion\":\""
                + created.getMetadata().getResourceVersion() + "\"},\"spec\":{\"devices\":null},"
                + "\"status\":{\"reservedFor\":[{\"resource\":\"pods\",\"name\":\"patch-consumer\",\"uid\":\"" + uid + "\"}]}}");
        RawApi.Response stale = api.patch(path, "application/merge-patch+json", "{\"metadata\":{\"resourceVersion\":\""
                + created.getMetadata().getResourceVersion() + "\"},\"status\":{\"reservedFor\":[]}}");

        assertThat(patched.code()).isEqualTo(200);
        assertThat(stale.code()).isEqualTo(409);
        JsonNode stored = Serialization.jsonMapper().valueToTree(claims().withName("patched").get());
        assertThat(stored.path("status").path("reservedFor").path(0).path("uid").asText()).isEqualTo(uid);
        assertThat(stored.path("spec").path("devices").path("requests").path(0).path("name").asText()).isEqualTo("gpu");
    }

    @Test
    void aClaimCreatedWithAStatusStartsPending() {
        GenericKubernetesResource claim = claim("created-pending");
        claim.setAdditionalProperty("status", Map.of("reservedFor", List.of(Map.of("resource", "pods", "name", "p",
                "uid", "u-2"))));

        claims().resource(claim).create();

        JsonNode table = api.get("/apis/resource.k8s.io/v1/namespaces/default/resourceclaims/created-pending",
                KUBECTL_ACCEPT).body();
        assertThat(table.path("rows").path(0).path("cells").path(1).asText()).isEqualTo("pending");
    }

    @Test
    void listsAreTypedInResourceV1() {
        claims().resource(claim("listed")).create();

        JsonNode list = api.get("/apis/resource.k8s.io/v1/namespaces/default/resourceclaims").body();

        assertThat(list.path("apiVersion").asText()).isEqualTo("resource.k8s.io/v1");
        assertThat(list.path("kind").asText()).isEqualTo("ResourceClaimList");
        assertThat(list.path("items")).anyMatch(item -> item.path("metadata").path("name").asText().equals("listed"));
    }

    private static MixedOperation<GenericKubernetesResource, GenericKubernetesResourceList, Resource<GenericKubernetesResource>> claims() {
        return client.genericKubernetesResources("resource.k8s.io/v1", "ResourceClaim");
    }

    private static GenericKubernetesResource claim(String name) {
        GenericKubernetesResource claim = new GenericKubernetesResource();
        claim.setApiVersion("resource.k8s.io/v1");
        claim.setKind("ResourceClaim");
        claim.setMetadata(new io.fabric8.kubernetes.api.model.ObjectMetaBuilder().withName(name).withNamespace("default")
                .build());
        claim.setAdditionalProperty("spec", Map.of("devices", Map.of("requests", List.of(Map.of("name", "gpu",
                "exactly", Map.of("deviceClassName", "gpu.example.com", "count", 1))))));
        return claim;
    }
}
