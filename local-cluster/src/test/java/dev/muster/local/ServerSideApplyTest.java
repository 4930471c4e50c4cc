package dev.muster.local;

import com.fasterxml.jackson.databind.JsonNode;
import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import io.fabric8.kubernetes.api.model.ManagedFieldsEntry;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodStatusBuilder;
import io.fabric8.kubernetes.client.KubernetesClientException;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.tuple;

/** Server-side apply through fabric8 and raw HTTP: managedFields, conflicts, force, removal, dry run. */
@Tag("emulator")
class ServerSideApplyTest extends ApiOnlyClusterTests {
    private static final String CMS = "/api/v1/namespaces/default/configmaps/";

    private static ConfigMap cm(String name, Map<String, String> labels, Map<String, String> data) {
        return new ConfigMapBuilder().withNewMetadata().withName(name).withNamespace("default").withLabels(labels)
                .endMetadata().withData(data).build();
    }

    @Test
    void aSecondApplyRemovesWhatItNoLongerSets() {
        client.resource(cm("ssa-removal", Map.of("a", "1", "b", "2"), Map.of("x", "1", "y", "2")))
                .fieldManager("a").serverSideApply();

        ConfigMap second = client.resource(cm("ssa-removal", Map.of("a", "1"), Map.of("x", "1")))
                .fieldManager("a").serverSideApply();

        assertThat(second.getMetadata().getLabels()).containsOnlyKeys("a");
        assertThat(second.getData()).containsOnlyKeys("x");
        assertThat(second.getMetadata().getManagedFields()).singleElement().satisfies(entry -> {
            assertThat(entry.getManager()).isEqualTo("a");
            assertThat(entry.getOperation()).isEqualTo("Apply");
            assertThat(entry.getFieldsType()).isEqualTo("FieldsV1");
            assertThat(entry.getTime()).isNotBlank();
        });
    }

    @Test
    void anApplyOverAnotherManagersChangeConflictsUntilForced() {
        client.resource(cm("ssa-conflict", Map.of(), Map.of("x", "1"))).fieldManager("a").serverSideApply();
        JsonNode edited = api.patch(CMS + "ssa-conflict?fieldManager=editor", "application/merge-patch+json",
                "{\"data\":{\"x\":\"changed\"}}").body();
        assertThat(edited.path("metadata").path("managedFields").toString()).contains("\"manager\":\"editor\"");

        assertThatThrownBy(() -> client.resource(cm("ssa-conflict", Map.of(), Map.of("x", "1")))
                .fieldManager("a").serverSideApply())
                .isInstanceOfSatisfying(KubernetesClientException.class, e -> {
                    assertThat(e.getCode()).isEqualTo(409);
                    assertThat(e.getStatus().getMessage())
                            .isEqualTo("Apply failed with 1 conflict: conflict with \"editor\" using v1: .data.x");
                    assertThat(e.getStatus().getReason()).isEqualTo("Conflict");
                    assertThat(e.getStatus().getDetails().getCauses()).singleElement().satisfies(cause -> {
                        assertThat(cause.getReason()).isEqualTo("FieldManagerConflict");
                        assertThat(cause.getField()).isEqualTo(".data.x");
                    });
                });
        assertThat(client.configMaps().withName("ssa-conflict").get().getData()).containsEntry("x", "changed");

        ConfigMap forced = client.resource(cm("ssa-conflict", Map.of(), Map.of("x", "1")))
                .fieldManager("a").forceConflicts().serverSideApply();

        assertThat(forced.getData()).containsEntry("x", "1");
        assertThat(forced.getMetadata().getManagedFields()).extracting(ManagedFieldsEntry::getManager).containsExactly("a");
    }

    @Test
    void updatesAreRecordedPerManager() {
        api.post("/api/v1/namespaces/default/configmaps?fieldManager=creator", cm("ssa-updates", Map.of("a", "1"), Map.of("x", "1")));
        api.patch(CMS + "ssa-updates?fieldManager=labeller", "application/strategic-merge-patch+json",
                "{\"metadata\":{\"labels\":{\"b\":\"2\"}}}");

        ConfigMap stored = client.configMaps().withName("ssa-updates").get();

        assertThat(stored.getMetadata().getManagedFields())
                .extracting(ManagedFieldsEntry::getManager, ManagedFieldsEntry::getOperation)
                .containsExactly(tuple("creator", "Update"), tuple("labeller", "Update"));
        assertThat(stored.getMetadata().getManagedFields().get(1).getFieldsV1().getAdditionalProperties().toString())
                .isEqualTo("{f:metadata={f:labels={f:b={}}}}");
    }

    @Test
    void aStatusWriteIsRecordedWithItsSubresource() {
        Pod pod = client.pods().resource(Fixtures.pod("ssa-status")).create();
        pod.setStatus(new PodStatusBuilder().withPhase("Running").build());

        api.put("/api/v1/namespaces/default/pods/ssa-status/status?fieldManager=kubelet", pod);

        assertThat(client.pods().withName("ssa-status").get().getMetadata().getManagedFields())
                .extracting(ManagedFieldsEntry::getManager, ManagedFieldsEntry::getSubresource)
                .contains(tuple("kubelet", "status"));
    }

    @Test
    void anApplyWithoutAFieldManagerIsRefusedAndADryRunStoresNothing() {
        RawApi.Response refused = api.patch(CMS + "ssa-unnamed", "application/apply-patch+yaml",
                "{\"apiVersion\":\"v1\",\"kind\":\"ConfigMap\",\"metadata\":{\"name\":\"ssa-unnamed\"}}");
        client.resource(cm("ssa-dry", Map.of(), Map.of("x", "1"))).fieldManager("a").serverSideApply();
        api.patch(CMS + "ssa-dry?fieldManager=editor", "application/merge-patch+json", "{\"data\":{\"x\":\"2\"}}");

        RawApi.Response dryConflict = api.patch(CMS + "ssa-dry?fieldManager=a&dryRun=All", "application/apply-patch+yaml",
                "{\"apiVersion\":\"v1\",\"kind\":\"ConfigMap\",\"metadata\":{\"name\":\"ssa-dry\"},\"data\":{\"x\":\"1\"}}");
        RawApi.Response dryForced = api.patch(CMS + "ssa-dry?fieldManager=a&dryRun=All&force=true",
                "application/apply-patch+yaml",
                "{\"apiVersion\":\"v1\",\"kind\":\"ConfigMap\",\"metadata\":{\"name\":\"ssa-dry\"},\"data\":{\"x\":\"1\"}}");

        assertThat(refused.code()).isEqualTo(422);
        assertThat(refused.body().path("message").asText()).isEqualTo(
                "PatchOptions.meta.k8s.io \"\" is invalid: fieldManager: Required value: is required for apply patch");
        assertThat(dryConflict.code()).isEqualTo(409);
        assertThat(dryForced.code()).isEqualTo(200);
        assertThat(dryForced.body().path("data").path("x").asText()).isEqualTo("1");
        assertThat(client.configMaps().withName("ssa-dry").get().getData()).containsEntry("x", "2");
    }
}
