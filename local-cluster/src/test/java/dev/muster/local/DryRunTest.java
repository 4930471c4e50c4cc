package dev.muster.local;

import com.fasterxml.jackson.databind.JsonNode;
import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.client.Watch;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * {@code dryRun=All} as kube-apiserver honours it on every write: the request runs as a real one (defaults,
 * admission, generated names, conflicts) and is answered with the object as it would be stored, but nothing is
 * stored, no resourceVersion is used and no watch hears of it.
 */
@Tag("emulator")
class DryRunTest extends ApiOnlyClusterTests {
    private static final String PODS = "/api/v1/namespaces/default/pods";
    private static final String CONFIG_MAPS = "/api/v1/namespaces/default/configmaps";
    private static final String JOBS = "/apis/batch.muster.dev/v1alpha1/namespaces/default/jobs";

    @Test
    void aDryRunCreateStoresNothingAndNoWatchHearsOfIt() {
        List<String> events = new CopyOnWriteArrayList<>();
        Pod dryRun = Fixtures.pod("dry-run-only");
        dryRun.getMetadata().setLabels(Map.of("suite", "dry-run-watch"));
        Pod marker = Fixtures.pod("dry-run-marker");
        marker.getMetadata().setLabels(Map.of("suite", "dry-run-watch"));

        Pod answered;
        try (Watch ignored = client.pods().withLabel("suite", "dry-run-watch")
                .watch(Fixtures.watcher((action, pod) -> events.add(action + " " + pod.getMetadata().getName())))) {
            answered = client.resource(dryRun).dryRun().create();
            client.resource(marker).create();
            await().atMost(Duration.ofSeconds(10)).until(() -> events.contains("ADDED dry-run-marker"));
        }

        assertThat(events).containsExactly("ADDED dry-run-marker");
        assertThat(client.pods().withName("dry-run-only").get()).isNull();
        assertThat(answered.getMetadata().getUid()).isNotEmpty();
        assertThat(answered.getMetadata().getCreationTimestamp()).isNotEmpty();
        assertThat(answered.getMetadata().getResourceVersion()).isNull();
        assertThat(answered.getSpec().getSchedulerName()).as("defaulted").isEqualTo("default-scheduler");
    }

    @Test
    void aDryRunCreateWithGenerateNameIsAnsweredWithAGeneratedName() {
        Map<String, Object> pod = Map.of("apiVersion", "v1", "kind", "Pod",
                "metadata", Map.of("generateName", "template-probe-"),
                "spec", Map.of("containers", List.of(Map.of("name", "main", "image", "busybox"))));

        RawApi.Response response = api.post(PODS + "?dryRun=All&fieldValidation=Strict", pod);

        assertThat(response.code()).isEqualTo(201);
        String name = response.body().at("/metadata/name").asText();
        assertThat(name).matches("template-probe-[a-z0-9]{5}");
        assertThat(api.get(PODS + "/" + name).code()).isEqualTo(404);
    }

    @Test
    void dryRunWritesUseNoResourceVersionAndChangeNothing() {
        ConfigMap before = client.resource(configMap("dry-run-kept", "v1")).create();
        String storedVersion = before.getMetadata().getResourceVersion();

        ConfigMap updated = client.resource(configMap("dry-run-kept", "v2")).dryRun().update();
        RawApi.Response patched = api.patch(CONFIG_MAPS + "/dry-run-kept?dryRun=All", "application/merge-patch+json",
                "{\"data\":{\"k\":\"v3\"}}");
        client.configMaps().withName("dry-run-kept").dryRun().delete();
        client.resource(configMap("dry-run-never", "v1")).dryRun().create();
        ConfigMap next = client.resource(configMap("dry-run-next", "v1")).create();

        assertThat(updated.getData()).containsEntry("k", "v2");
        assertThat(updated.getMetadata().getResourceVersion()).as("the version it was read at").isEqualTo(storedVersion);
        assertThat(patched.code()).isEqualTo(200);
        assertThat(patched.body().at("/data/k").asText()).isEqualTo("v3");
        assertThat(patched.body().at("/metadata/resourceVersion").asText()).isEqualTo(storedVersion);
        ConfigMap after = client.configMaps().withName("dry-run-kept").get();
        assertThat(after.getData()).containsEntry("k", "v1");
        assertThat(after.getMetadata().getResourceVersion()).isEqualTo(storedVersion);
        assertThat(client.configMaps().withName("dry-run-never").get()).isNull();
        assertThat(Long.parseLong(next.getMetadata().getResourceVersion())).isEqualTo(Long.parseLong(storedVersion) + 1);
    }

    @Test
    void aDryRunMeetsTheConflictsARealWriteMeets() {
        ConfigMap stored = client.resource(configMap("dry-run-conflicts", "v1")).create();
        ConfigMap stale = configMap("dry-run-conflicts", "v2");
        stale.getMetadata().setResourceVersion(String.valueOf(Long.parseLong(stored.getMetadata().getResourceVersion()) - 1));

        RawApi.Response exists = api.post(CONFIG_MAPS + "?dryRun=All", configMap("dry-run-conflicts", "v3"));
        RawApi.Response conflict = api.put(CONFIG_MAPS + "/dry-run-conflicts?dryRun=All", stale);
        RawApi.Response missing = api.delete(CONFIG_MAPS + "/dry-run-missing", Map.of("dryRun", List.of("All")));

        assertThat(exists.code()).isEqualTo(409);
        assertThat(exists.body().path("reason").asText()).isEqualTo("AlreadyExists");
        assertThat(conflict.code()).isEqualTo(409);
        assertThat(conflict.body().path("reason").asText()).isEqualTo("Conflict");
        assertThat(missing.code()).isEqualTo(404);
    }

    @Test
    void aGracefulDryRunDeleteAnswersThePodMarkedButLeavesItAsItWas() {
        Pod pod = Fixtures.pod("dry-run-graceful");
        pod.getSpec().setNodeName("node-that-runs-it");
        client.resource(pod).create();

        RawApi.Response deleted = api.delete(PODS + "/dry-run-graceful",
                Map.of("dryRun", List.of("All"), "gracePeriodSeconds", 30));

        assertThat(deleted.code()).isEqualTo(200);
        assertThat(deleted.body().at("/metadata/deletionTimestamp").asText()).isNotEmpty();
        assertThat(client.pods().withName("dry-run-graceful").get().getMetadata().getDeletionTimestamp()).isNull();
        client.pods().withName("dry-run-graceful").withGracePeriod(0).delete();
    }

    @Test
    void aDryRunOfACustomResourcePassesItsAdmissionAndStoresNothing() {
        RawApi.Response refused = api.post(JOBS + "?dryRun=All", Map.of("apiVersion", "batch.muster.dev/v1alpha1",
                "kind", "Job", "metadata", Map.of("name", "dry-run-job"), "spec", Map.of("tasks", List.of())));
        RawApi.Response admitted = api.post(JOBS + "?dryRun=All", Fixtures.job("dry-run-job"));

        assertThat(refused.code()).isEqualTo(422);
        assertThat(admitted.code()).isEqualTo(201);
        assertThat(api.get(JOBS + "/dry-run-job").code()).isEqualTo(404);
    }

    @Test
    void aDryRunValueOtherThanAllIsRefusedAsInvalidOptions() {
        RawApi.Response create = api.post(CONFIG_MAPS + "?dryRun=Yes", configMap("dry-run-refused", "v1"));
        RawApi.Response delete = api.delete(CONFIG_MAPS + "/dry-run-refused", Map.of("dryRun", List.of("All", "Server")));

        assertThat(create.code()).isEqualTo(422);
        assertThat(create.body().path("reason").asText()).isEqualTo("Invalid");
        assertThat(create.body().path("message").asText()).isEqualTo(
                "CreateOptions.meta.k8s.io \"\" is invalid: dryRun: Unsupported value: []string{\"Yes\"}: supported values: \"All\"");
        JsonNode cause = create.body().at("/details/causes/0");
        assertThat(cause.path("field").asText()).isEqualTo("dryRun");
        assertThat(cause.path("reason").asText()).isEqualTo("FieldValueNotSupported");
        assertThat(delete.code()).isEqualTo(422);
        assertThat(delete.body().path("message").asText()).isEqualTo("DeleteOptions.meta.k8s.io \"\" is invalid: dryRun: "
                + "Unsupported value: []string{\"All\", \"Server\"}: supported values: \"All\"");
        assertThat(client.configMaps().withName("dry-run-refused").get()).isNull();
    }

    private static ConfigMap configMap(String name, String value) {
        return new ConfigMapBuilder().withNewMetadata().withName(name).withNamespace("default").endMetadata()
                .addToData("k", value).build();
    }
}
