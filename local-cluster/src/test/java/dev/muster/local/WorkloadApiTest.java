package dev.muster.local;

import com.fasterxml.jackson.databind.JsonNode;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.GenericKubernetesResourceList;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.Watch;
import io.fabric8.kubernetes.client.dsl.MixedOperation;
import io.fabric8.kubernetes.client.dsl.Resource;
import io.fabric8.kubernetes.client.utils.Serialization;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;
import static org.awaitility.Awaitility.await;

/**
 * The emulator serves Kubernetes 1.36's alpha Workload API ({@code scheduling.k8s.io/v1alpha2} Workloads and
 * PodGroups, the latter with its status subresource) and keeps a pod's {@code spec.schedulingGroup}, refusing what
 * kube-apiserver refuses with its 422s.
 */
@Tag("emulator")
class WorkloadApiTest extends ApiOnlyClusterTests {
    private static final String API_VERSION = "scheduling.k8s.io/v1alpha2";
    private static final String POD_GROUPS = "/apis/scheduling.k8s.io/v1alpha2/namespaces/default/podgroups";

    @Test
    void discoveryListsWorkloadsAndPodGroupsWithTheirStatusWhileV1StaysPreferred() {
        JsonNode alpha = api.get("/apis/scheduling.k8s.io/v1alpha2").body();
        JsonNode group = api.get("/apis/scheduling.k8s.io").body();

        List<String> names = new ArrayList<>();
        alpha.path("resources").forEach(r -> names.add(r.path("name").asText() + " " + r.path("kind").asText() + " "
                + r.path("namespaced").asBoolean()));
        assertThat(names).containsExactlyInAnyOrder("workloads Workload true", "podgroups PodGroup true",
                "podgroups/status PodGroup true");
        assertThat(group.path("preferredVersion").path("version").asText()).isEqualTo("v1");
    }

    @Test
    void aPodGroupIsCreatedReadListedAndWatched() {
        List<String> events = new CopyOnWriteArrayList<>();
        GenericKubernetesResource created;
        try (Watch ignored = podGroups().watch(Fixtures.watcher((action, group) ->
                events.add(action + " " + group.getMetadata().getName())))) {
            GenericKubernetesResource group = podGroup("watched", Map.of("gang", Map.of("minCount", 4)));
            group.setAdditionalProperty("status", Map.of("conditions", List.of(condition("True"))));
            created = podGroups().resource(group).create();
            await().atMost(Duration.ofSeconds(10)).until(() -> events.contains("ADDED watched"));
        }

        JsonNode stored = json(podGroups().withName("watched").get());
        assertThat(stored.path("spec").path("schedulingPolicy").path("gang").path("minCount").asInt()).isEqualTo(4);
        assertThat(stored.has("status")).as("status set only through the subresource").isFalse();
        assertThat(created.getMetadata().getUid()).isNotEmpty();
        assertThat(podGroups().list().getItems()).extracting(g -> g.getMetadata().getName()).contains("watched");
        JsonNode list = api.get(POD_GROUPS).body();
        assertThat(list.path("kind").asText()).isEqualTo("PodGroupList");
        assertThat(list.path("apiVersion").asText()).isEqualTo(API_VERSION);
    }

    @Test
    void aPodGroupsStatusIsWrittenOnlyThroughItsSubresourceWhichKeepsTheSpec() {
        GenericKubernetesResource created = podGroups().resource(podGroup("scheduled", Map.of("basic", Map.of())))
                .create();
        created.setAdditionalProperty("status", Map.of("conditions", List.of(condition("True"))));
        created.setAdditionalProperty("spec", Map.of("schedulingPolicy", Map.of("gang", Map.of("minCount", 9))));

        GenericKubernetesResource written = podGroups().resource(created).updateStatus();
        written.getMetadata().setLabels(Map.of("team", "a"));
        written.setAdditionalProperty("status", Map.of());
        podGroups().resource(written).update();

        JsonNode stored = json(podGroups().withName("scheduled").get());
        assertThat(stored.path("status").path("conditions").path(0).path("type").asText()).isEqualTo("PodGroupScheduled");
        assertThat(stored.path("spec").path("schedulingPolicy").has("basic")).isTrue();
        assertThat(stored.path("metadata").path("labels").path("team").asText()).isEqualTo("a");
    }

    @Test
    void aPodGroupWithoutExactlyOnePolicyOrWithTooManyConstraintsIsRefused() {
        RawApi.Response none = api.post(POD_GROUPS, podGroup("no-policy", Map.of()));
        GenericKubernetesResource both = podGroup("both", Map.of("basic", Map.of(), "gang", Map.of("minCount", 2)));
        GenericKubernetesResource negative = podGroup("negative", Map.of("gang", Map.of("minCount", -1)));
        negative.setAdditionalProperty("spec", Map.of("schedulingPolicy", Map.of("gang", Map.of("minCount", -1)),
                "schedulingConstraints", Map.of("topology", List.of(Map.of("key", "rack"), Map.of("key", "zone")))));

        KubernetesClientException refusedBoth = catchThrowableOfType(KubernetesClientException.class,
                () -> podGroups().resource(both).create());
        RawApi.Response refusedNegative = api.post(POD_GROUPS, negative);

        assertThat(none.code()).isEqualTo(422);
        assertThat(none.body().path("message").asText()).isEqualTo("PodGroup.scheduling.k8s.io \"no-policy\" is invalid: "
                + "spec.schedulingPolicy: Invalid value: \"\": must specify one of: `basic`, `gang`");
        assertThat(refusedBoth.getCode()).isEqualTo(422);
        assertThat(refusedBoth.getStatus().getDetails().getCauses()).singleElement()
                .satisfies(cause -> assertThat(cause.getField()).isEqualTo("spec.schedulingPolicy"));
        assertThat(refusedNegative.code()).isEqualTo(422);
        assertThat(refusedNegative.body().path("message").asText()).contains(
                "spec.schedulingPolicy.gang.minCount: Invalid value: -1: must be greater than or equal to 1",
                "spec.schedulingConstraints.topology: Too many: 2: must have at most 1 items");
        assertThat(podGroups().withName("both").get()).isNull();
    }

    @Test
    void aPodGroupsSpecIsImmutable() {
        GenericKubernetesResource created = podGroups().resource(podGroup("fixed", Map.of("gang", Map.of("minCount", 2))))
                .create();
        created.setAdditionalProperty("spec", Map.of("schedulingPolicy", Map.of("gang", Map.of("minCount", 3))));

        KubernetesClientException refused = catchThrowableOfType(KubernetesClientException.class,
                () -> podGroups().resource(created).update());
        RawApi.Response patched = api.patch(POD_GROUPS + "/fixed", "application/merge-patch+json",
                "{\"spec\":{\"schedulingPolicy\":{\"gang\":{\"minCount\":5}}}}");

        assertThat(refused.getCode()).isEqualTo(422);
        assertThat(refused.getStatus().getMessage()).isEqualTo(
                "PodGroup.scheduling.k8s.io \"fixed\" is invalid: spec.schedulingPolicy: Forbidden: field is immutable");
        assertThat(patched.code()).isEqualTo(422);
        assertThat(json(podGroups().withName("fixed").get()).path("spec").path("schedulingPolicy").path("gang")
                .path("minCount").asInt()).isEqualTo(2);
    }

    @Test
    void aWorkloadNeedsUniquelyNamedTemplatesAndKeepsThem() {
        MixedOperation<GenericKubernetesResource, GenericKubernetesResourceList, Resource<GenericKubernetesResource>>
                workloads = client.genericKubernetesResources(API_VERSION, "Workload");
        Map<String, Object> gang = Map.of("gang", Map.of("minCount", 2));
        GenericKubernetesResource duplicated = workload("duplicated", List.of(Map.of("name", "w", "schedulingPolicy", gang),
                Map.of("name", "w", "schedulingPolicy", Map.of("basic", Map.of()))));
        GenericKubernetesResource empty = workload("empty", List.of());

        KubernetesClientException refusedDuplicate = catchThrowableOfType(KubernetesClientException.class,
                () -> workloads.resource(duplicated).create());
        KubernetesClientException refusedEmpty = catchThrowableOfType(KubernetesClientException.class,
                () -> workloads.resource(empty).create());
        GenericKubernetesResource created = workloads.resource(workload("trainer",
                List.of(Map.of("name", "workers", "schedulingPolicy", gang)))).create();
        created.setAdditionalProperty("spec", Map.of("podGroupTemplates",
                List.of(Map.of("name", "others", "schedulingPolicy", gang))));
        KubernetesClientException refusedChange = catchThrowableOfType(KubernetesClientException.class,
                () -> workloads.resource(created).update());

        assertThat(refusedDuplicate.getStatus().getMessage()).isEqualTo("Workload.scheduling.k8s.io \"duplicated\" is "
                + "invalid: spec.podGroupTemplates[1].name: Duplicate value: \"w\"");
        assertThat(refusedEmpty.getStatus().getMessage()).isEqualTo("Workload.scheduling.k8s.io \"empty\" is invalid: "
                + "spec.podGroupTemplates: Required value");
        assertThat(refusedChange.getCode()).isEqualTo(422);
        assertThat(refusedChange.getStatus().getMessage()).contains("spec.podGroupTemplates: Forbidden: field is immutable");
    }

    @Test
    void aPodKeepsItsSchedulingGroupWhichIsValidatedAndImmutable() {
        Pod pod = Fixtures.pod("grouped");
        pod.getSpec().setAdditionalProperty("schedulingGroup", Map.of("podGroupName", "g"));
        Pod invalid = Fixtures.pod("badly-grouped");
        invalid.getSpec().setAdditionalProperty("schedulingGroup", Map.of("podGroupName", "Not_A_Name"));

        client.resource(pod).create();
        KubernetesClientException refused = catchThrowableOfType(KubernetesClientException.class,
                () -> client.resource(invalid).create());
        RawApi.Response moved = api.patch("/api/v1/namespaces/default/pods/grouped", "application/merge-patch+json",
                "{\"spec\":{\"schedulingGroup\":{\"podGroupName\":\"h\"}}}");

        Pod stored = client.pods().withName("grouped").get();
        assertThat(stored.getSpec().getAdditionalProperties()).containsEntry("schedulingGroup", Map.of("podGroupName", "g"));
        assertThat(refused.getCode()).isEqualTo(422);
        assertThat(refused.getStatus().getMessage()).startsWith("Pod \"badly-grouped\" is invalid: "
                + "spec.schedulingGroup.podGroupName: Invalid value: \"Not_A_Name\": a lowercase RFC 1123 subdomain");
        assertThat(moved.code()).isEqualTo(422);
        assertThat(moved.body().path("message").asText()).isEqualTo(
                "Pod \"grouped\" is invalid: spec.schedulingGroup: Forbidden: field is immutable");
    }

    private static MixedOperation<GenericKubernetesResource, GenericKubernetesResourceList, Resource<GenericKubernetesResource>> podGroups() {
        return client.genericKubernetesResources(API_VERSION, "PodGroup");
    }

    private static GenericKubernetesResource podGroup(String name, Map<String, Object> policy) {
        GenericKubernetesResource group = new GenericKubernetesResource();
        group.setApiVersion(API_VERSION);
        group.setKind("PodGroup");
        group.setMetadata(new ObjectMetaBuilder().withName(name).withNamespace("default").build());
        group.setAdditionalProperty("spec", Map.of("schedulingPolicy", policy));
        return group;
    }

    private static GenericKubernetesResource workload(String name, List<Map<String, Object>> templates) {
        GenericKubernetesResource workload = new GenericKubernetesResource();
        workload.setApiVersion(API_VERSION);
        workload.setKind("Workload");
        workload.setMetadata(new ObjectMetaBuilder().withName(name).withNamespace("default").build());
        workload.setAdditionalProperty("spec", Map.of("podGroupTemplates", templates));
        return workload;
    }

    private static Map<String, Object> condition(String status) {
        return Map.of("type", "PodGroupScheduled", "status", status, "reason", "Scheduled", "message", "",
                "lastTransitionTime", "2026-01-01T00:00:00Z");
    }

    private static JsonNode json(Object object) {
        return Serialization.jsonMapper().valueToTree(object);
    }
}
