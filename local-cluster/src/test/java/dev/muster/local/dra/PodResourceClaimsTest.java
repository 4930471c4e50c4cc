package dev.muster.local.dra;

import com.fasterxml.jackson.databind.JsonNode;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.PodResourceClaimStatus;
import io.fabric8.kubernetes.client.utils.Serialization;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;
import java.util.Optional;

import static org.assertj.core.api.Assertions.assertThat;

/** The resourceclaim controller's and the kubelet's decisions about a pod's claims, on plain data. */
class PodResourceClaimsTest {
    @Test
    void aLongGenerateNameCutsPodAndEntryNamesInProportion() {
        assertThat(PodResourceClaims.generateName("trainer-0", "gpu")).isEqualTo("trainer-0-gpu-");

        String pod = "p".repeat(60);
        String entry = "e".repeat(20);
        String cut = PodResourceClaims.generateName(pod, entry);

        assertThat(cut).hasSizeLessThanOrEqualTo(57).isEqualTo("p".repeat(60 * 57 / 82) + "-" + "e".repeat(20 * 57 / 82));
    }

    @Test
    void entriesResolveTemplatesThroughThePodsStatus() {
        Pod pod = pod();

        assertThat(PodResourceClaims.entries(pod)).containsExactly(
                new PodResourceClaims.Entry("shared", "team-gpus", null, true),
                new PodResourceClaims.Entry("gpu", null, "one-gpu", false));

        pod.getStatus().getResourceClaimStatuses().add(new PodResourceClaimStatus("gpu", "p-gpu-x2b4c"));

        assertThat(PodResourceClaims.entries(pod)).contains(new PodResourceClaims.Entry("gpu", "p-gpu-x2b4c", "one-gpu", true));
    }

    @Test
    void aPodIsPreparedOnlyWhenEveryClaimIsAllocatedAndReservedForIt() {
        Pod pod = pod();
        pod.getStatus().getResourceClaimStatuses().add(new PodResourceClaimStatus("gpu", "p-gpu-x2b4c"));
        JsonNode shared = claim(null, true, "uid-p");
        JsonNode generatedUnreserved = claim("uid-p", true, "uid-other");
        JsonNode generatedReserved = claim("uid-p", true, "uid-p");

        assertThat(PodResourceClaims.notPrepared(pod, name -> Optional.empty())).hasValue("ResourceClaim team-gpus not found");
        assertThat(PodResourceClaims.notPrepared(pod, name -> Optional.of(name.equals("team-gpus") ? shared : generatedUnreserved)))
                .hasValue("ResourceClaim p-gpu-x2b4c is not reserved for the pod");
        assertThat(PodResourceClaims.notPrepared(pod, name -> Optional.of(name.equals("team-gpus") ? shared
                : claim("uid-p", false, "uid-p")))).hasValue("ResourceClaim p-gpu-x2b4c is not allocated");
        assertThat(PodResourceClaims.notPrepared(pod, name -> Optional.of(name.equals("team-gpus") ? shared
                : claim("uid-someone-else", true, "uid-p")))).hasValue("ResourceClaim p-gpu-x2b4c was not created for the pod");
        assertThat(PodResourceClaims.notPrepared(pod, name -> Optional.of(name.equals("team-gpus") ? shared : generatedReserved)))
                .isEmpty();
    }

    @Test
    void reservationsOfPodsGoneReplacedOrDoneAreDropped() {
        JsonNode claim = Serialization.jsonMapper().valueToTree(Map.of("status", Map.of("reservedFor", List.of(
                Map.of("resource", "pods", "name", "running", "uid", "u-running"),
                Map.of("resource", "pods", "name", "replaced", "uid", "u-old"),
                Map.of("resource", "pods", "name", "gone", "uid", "u-gone"),
                Map.of("resource", "pods", "name", "done", "uid", "u-done"),
                Map.of("apiGroup", "example.com", "resource", "things", "name", "t", "uid", "u-thing")))));
        Map<String, Pod> pods = Map.of("running", pod("running", "u-running", "Running"),
                "replaced", pod("replaced", "u-new", "Running"), "done", pod("done", "u-done", "Succeeded"));

        List<JsonNode> kept = PodResourceClaims.reservationsKept(claim, name -> Optional.ofNullable(pods.get(name)));

        assertThat(kept).extracting(c -> c.path("name").asText()).containsExactly("running", "t");
    }

    private static Pod pod() {
        return new PodBuilder(pod("p", "uid-p", "Pending")).editSpec()
                .addNewResourceClaim().withName("shared").withResourceClaimName("team-gpus").endResourceClaim()
                .addNewResourceClaim().withName("gpu").withResourceClaimTemplateName("one-gpu").endResourceClaim()
                .endSpec().build();
    }

    private static Pod pod(String name, String uid, String phase) {
        return new PodBuilder().withNewMetadata().withName(name).withNamespace("default").withUid(uid).endMetadata()
                .withNewSpec().withNodeName("node-0").endSpec().withNewStatus().withPhase(phase).endStatus().build();
    }

    private static JsonNode claim(String ownerUid, boolean allocated, String reservedForUid) {
        Map<String, Object> metadata = ownerUid == null ? Map.of("name", "c") : Map.of("name", "c", "ownerReferences",
                List.of(Map.of("apiVersion", "v1", "kind", "Pod", "name", "p", "uid", ownerUid, "controller", true)));
        Map<String, Object> status = allocated
                ? Map.of("allocation", Map.of("devices", Map.of()), "reservedFor",
                List.of(Map.of("resource", "pods", "name", "p", "uid", reservedForUid)))
                : Map.of("reservedFor", List.of(Map.of("resource", "pods", "name", "p", "uid", reservedForUid)));
        return Serialization.jsonMapper().valueToTree(Map.of("metadata", metadata, "status", status));
    }
}
