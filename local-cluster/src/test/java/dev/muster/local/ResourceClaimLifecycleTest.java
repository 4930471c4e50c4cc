package dev.muster.local;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.muster.api.MusterLabels;
import dev.muster.local.dra.SimulatedGpuDriver;
import io.fabric8.kubernetes.api.model.ContainerStatus;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.GenericKubernetesResourceList;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.PodResourceClaimStatus;
import io.fabric8.kubernetes.api.model.ResourceRequirementsBuilder;
import io.fabric8.kubernetes.client.dsl.MixedOperation;
import io.fabric8.kubernetes.client.dsl.Resource;
import io.fabric8.kubernetes.client.utils.Serialization;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;
import java.util.Optional;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The resourceclaim controller's part and the kubelet's, simulated: a pod's claims are created from its templates
 * and go with it, a pod runs only once its claims are allocated and reserved for it, and a claim's consumers are
 * released (and the claim deallocated, or deleted when it was made for a pod) once they are done.
 */
@Tag("emulator")
class ResourceClaimLifecycleTest extends KubeletClusterTests {
    private static final Map<String, Object> ONE_GPU = Map.of("devices", Map.of("requests", List.of(Map.of(
            "name", "gpu", "exactly", Map.of("deviceClassName", "gpu.example.com", "count", 1)))));

    @BeforeAll
    static void template() {
        GenericKubernetesResource template = object("ResourceClaimTemplate", "one-gpu");
        template.setAdditionalProperty("spec", Map.of("metadata", Map.of("labels", Map.of("team", "vision"),
                "annotations", Map.of("note", "from the template")), "spec", ONE_GPU));
        client.genericKubernetesResources(SimulatedGpuDriver.API_VERSION, "ResourceClaimTemplate").resource(template).create();
    }

    @Test
    void aTemplatesClaimIsCreatedForThePodRecordedInItsStatusAndDeletedWithIt() {
        client.resource(podClaiming("trainer-0", "one-gpu", null)).create();

        String claimName = await().until(() -> claimOf("trainer-0"), Optional::isPresent).get();

        Pod pod = client.pods().withName("trainer-0").get();
        assertThat(claimName).startsWith("trainer-0-gpu-").hasSize("trainer-0-gpu-".length() + 5);
        JsonNode claim = json(claims().withName(claimName).get());
        assertThat(claim.path("metadata").path("annotations").path("resource.kubernetes.io/pod-claim-name").asText())
                .isEqualTo("gpu");
        assertThat(claim.path("metadata").path("annotations").path("note").asText()).isEqualTo("from the template");
        assertThat(claim.path("metadata").path("labels").path("team").asText()).isEqualTo("vision");
        JsonNode owner = claim.path("metadata").path("ownerReferences").path(0);
        assertThat(owner.path("kind").asText()).isEqualTo("Pod");
        assertThat(owner.path("uid").asText()).isEqualTo(pod.getMetadata().getUid());
        assertThat(owner.path("controller").asBoolean()).isTrue();
        assertThat(claim.path("spec")).isEqualTo(Serialization.jsonMapper().valueToTree(ONE_GPU));
        assertThat(claims().list().getItems()).filteredOn(c -> c.getMetadata().getName().startsWith("trainer-0-"))
                .hasSize(1);

        client.pods().withName("trainer-0").delete();

        await().until(() -> claims().withName(claimName).get() == null);
    }

    /** On a cluster of its own without any template yet, where the controller does not watch pods before the first. */
    @Test
    void aPodCreatedBeforeItsTemplateGetsItsClaimOnceTheTemplateExists() {
        try (LocalCluster fresh = LocalCluster.start(Fixtures.FAST)) {
            fresh.client().resource(podClaiming("early", "late-gpu", null)).create();
            GenericKubernetesResource template = object("ResourceClaimTemplate", "late-gpu");
            template.setAdditionalProperty("spec", Map.of("spec", ONE_GPU));

            fresh.client().genericKubernetesResources(SimulatedGpuDriver.API_VERSION, "ResourceClaimTemplate")
                    .resource(template).create();

            await().until(() -> fresh.client().pods().withName("early").get().getStatus().getResourceClaimStatuses(),
                    statuses -> statuses.size() == 1 && statuses.get(0).getResourceClaimName().startsWith("early-gpu-"));
            assertThat(fresh.client().genericKubernetesResources(SimulatedGpuDriver.API_VERSION, "ResourceClaim")
                    .list().getItems()).hasSize(1);
        }
    }

    @Test
    void aPodWaitsForItsClaimToBeAllocatedThenRunsAndItsClaimIsDeletedOnceItIsDone() {
        client.resource(podClaiming("trainer-1", "one-gpu", "0.3")).create();
        String claimName = await().until(() -> claimOf("trainer-1"), Optional::isPresent).get();
        bind("trainer-1", "node-0");

        ContainerStatus waiting = await().until(() -> containerStatus("trainer-1"),
                s -> s != null && s.getState().getWaiting() != null);
        assertThat(waiting.getState().getWaiting().getReason()).isEqualTo("ContainerCreating");
        assertThat(waiting.getState().getWaiting().getMessage()).contains(claimName, "not allocated");
        assertThat(phase("trainer-1")).isEqualTo("Pending");

        allocate(claimName, "node-0", true);

        await().until(() -> phase("trainer-1"), "Succeeded"::equals);
        await().until(() -> claims().withName(claimName).get() == null);
        assertThat(client.pods().withName("trainer-1").get()).isNotNull();
        assertThat(claims().list().getItems()).noneMatch(c -> c.getMetadata().getName().startsWith("trainer-1-"));
    }

    @Test
    void aSharedClaimIsReleasedByItsDonePodsAndDeallocatedOnceNoneIsLeft() {
        GenericKubernetesResource shared = object("ResourceClaim", "shared-gpus");
        shared.getMetadata().setFinalizers(List.of("resource.kubernetes.io/delete-protection"));
        shared.setAdditionalProperty("spec", ONE_GPU);
        claims().resource(shared).create();
        allocate("shared-gpus", "node-1", false);
        client.resource(podClaiming("short", null, "0.2")).create();
        client.resource(podClaiming("long", null, null)).create();
        bind("short", "node-1");
        bind("long", "node-1");

        await().until(() -> phase("long"), "Running"::equals);
        await().until(() -> phase("short"), "Succeeded"::equals);

        await().until(() -> reservedNames("shared-gpus"), names -> names.equals(List.of("long")));
        assertThat(json(claims().withName("shared-gpus").get()).path("status").path("allocation").isObject()).isTrue();

        client.pods().withName("long").delete();

        // Deallocated, then released: two writes, as kube-controller-manager makes them.
        JsonNode claim = await().until(() -> json(claims().withName("shared-gpus").get()),
                c -> c.path("status").path("allocation").isMissingNode() && c.path("metadata").path("finalizers").isEmpty());
        assertThat(claim.path("status").path("reservedFor")).isEmpty();
    }

    /** A pod with one container using the pod's claim {@code gpu}, from a template or the claim {@code shared-gpus}. */
    private static Pod podClaiming(String name, String template, String runSeconds) {
        Pod pod = new PodBuilder(Fixtures.pod(name)).editSpec()
                .addNewResourceClaim().withName("gpu").withResourceClaimTemplateName(template)
                .withResourceClaimName(template == null ? "shared-gpus" : null).endResourceClaim()
                .editFirstContainer().withResources(new ResourceRequirementsBuilder().addNewClaim().withName("gpu")
                        .endClaim().build()).endContainer()
                .endSpec().build();
        if (runSeconds != null) {
            pod.getMetadata().setAnnotations(Map.of(MusterLabels.LOCAL_RUN_SECONDS, runSeconds));
        } else {
            pod.getSpec().setRestartPolicy("Always");
        }
        return pod;
    }

    /** Writes the claim's allocation of {@code gpu-0} of the node, as the scheduler would, reserved for no one. */
    private static void allocate(String claimName, String node, boolean withFinalizer) {
        GenericKubernetesResource claim = claims().withName(claimName).get();
        if (withFinalizer) {
            claim.getMetadata().setFinalizers(List.of("resource.kubernetes.io/delete-protection"));
            claim = claims().resource(claim).update();
        }
        ObjectNode json = (ObjectNode) json(claim);
        json.putObject("status").putObject("allocation").putObject("devices").putArray("results").addObject()
                .put("request", "gpu").put("driver", "gpu.example.com").put("pool", node).put("device", "gpu-0");
        claims().resource(Serialization.jsonMapper().convertValue(json, GenericKubernetesResource.class)).updateStatus();
    }

    private static Optional<String> claimOf(String pod) {
        Pod current = client.pods().withName(pod).get();
        return current == null || current.getStatus() == null ? Optional.empty()
                : current.getStatus().getResourceClaimStatuses().stream().filter(s -> "gpu".equals(s.getName()))
                .map(PodResourceClaimStatus::getResourceClaimName).findFirst();
    }

    private static ContainerStatus containerStatus(String pod) {
        Pod current = client.pods().withName(pod).get();
        return current.getStatus().getContainerStatuses().isEmpty() ? null : current.getStatus().getContainerStatuses().get(0);
    }

    private static List<String> reservedNames(String claim) {
        return json(claims().withName(claim).get()).path("status").path("reservedFor").valueStream()
                .map(consumer -> consumer.path("name").asText()).toList();
    }

    private static MixedOperation<GenericKubernetesResource, GenericKubernetesResourceList, Resource<GenericKubernetesResource>> claims() {
        return client.genericKubernetesResources(SimulatedGpuDriver.API_VERSION, "ResourceClaim");
    }

    private static GenericKubernetesResource object(String kind, String name) {
        GenericKubernetesResource object = new GenericKubernetesResource();
        object.setApiVersion(SimulatedGpuDriver.API_VERSION);
        object.setKind(kind);
        object.setMetadata(new ObjectMetaBuilder().withName(name).withNamespace("default")
                .build());
        return object;
    }

    private static JsonNode json(GenericKubernetesResource object) {
        return Serialization.jsonMapper().valueToTree(object);
    }
}
