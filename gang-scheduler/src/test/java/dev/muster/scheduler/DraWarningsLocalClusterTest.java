package dev.muster.scheduler;

import static dev.muster.scheduler.Patience.PATIENCE;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.muster.local.LocalCluster;
import dev.muster.local.LocalClusterConfig;
import dev.muster.gang.GangVerdictBoard;
import dev.muster.support.Stillness;
import io.fabric8.kubernetes.api.model.Event;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * The DRA objects the scheduler does not honour as written say so, over HTTP against the local cluster: a
 * ResourceSlice with {@code perDeviceNodeSelection} and a DeviceTaintRule whose selector does not compile in Muster's
 * CEL environment get a Warning Event.
 */
@Tag("emulator")
class DraWarningsLocalClusterTest {
    private static final Duration STAYS = Duration.ofMillis(1500);
    private static final String SLICES = "resource.k8s.io/v1";
    private static final String TAINT_RULES = "resource.k8s.io/v1alpha3";

    private LocalCluster cluster;
    private KubernetesClient client;
    private GangScheduler scheduler;

    @BeforeEach
    void start() {
        cluster = LocalCluster.start(LocalClusterConfig.defaults().withNodes(1));
        client = cluster.client();
        scheduler = new GangScheduler(client, new GangVerdictBoard(), GangSchedulerConfig.defaults());
        scheduler.start();
        await().atMost(PATIENCE).until(scheduler::isSynced);
    }

    @AfterEach
    void stop() {
        scheduler.stop();
        cluster.close();
    }

    @Test
    void aSliceWithPerDeviceNodeSelectionGetsOneWarningItsTwinNoneAndSettingTheFieldAgainTellsAgain() {
        client.genericKubernetesResources(SLICES, "ResourceSlice").resource(slice("twin", false)).create();
        client.genericKubernetesResources(SLICES, "ResourceSlice").resource(slice("per-device", true)).create();

        // The twin, created first, was handled before the slice created after it got its Event.
        Stillness.holds(PATIENCE, "the slice created after the twin got its Event",
                () -> !events("ResourceSlice", "per-device").isEmpty(), STAYS,
                () -> assertThat(events("ResourceSlice", "twin")).isEmpty());
        assertThat(events("ResourceSlice", "per-device")).singleElement().satisfies(event -> {
            assertThat(event.getType()).isEqualTo("Warning");
            assertThat(event.getReason()).isEqualTo("NotAllocatedByMuster");
            assertThat(event.getMessage()).startsWith("spec.perDeviceNodeSelection is true")
                    .contains("scheduler muster does not read", "allocates none of this slice's devices");
            assertThat(event.getInvolvedObject().getApiVersion()).isEqualTo(SLICES);
            assertThat(event.getCount()).isEqualTo(1);
        });

        // Dropped and set back: told again, as a repeat of the same Event.
        setPerDeviceNodeSelection("per-device", false);
        setPerDeviceNodeSelection("per-device", true);
        await().atMost(PATIENCE).untilAsserted(() -> assertThat(events("ResourceSlice", "per-device")).singleElement()
                .satisfies(event -> assertThat(event.getCount()).isEqualTo(2)));
    }

    @Test
    void aDeviceTaintRuleWhoseSelectorDoesNotCompileHereGetsAWarningAndOneThatCompilesNone() {
        // quantity() is in the API server's CEL environment, not in Muster's (docs/dra.md).
        client.genericKubernetesResources(TAINT_RULES, "DeviceTaintRule").resource(rule("big-gpus",
                "device.capacity['gpu.example.com'].memory.compareTo(quantity('40Gi')) >= 0")).create();
        client.genericKubernetesResources(TAINT_RULES, "DeviceTaintRule").resource(rule("h100s",
                "device.attributes['gpu.example.com'].model == 'h100'")).create();

        Stillness.holds(PATIENCE, "the rule created first got its Event",
                () -> !events("DeviceTaintRule", "big-gpus").isEmpty(), STAYS,
                () -> assertThat(events("DeviceTaintRule", "h100s")).isEmpty());
        assertThat(events("DeviceTaintRule", "big-gpus")).singleElement().satisfies(event -> {
            assertThat(event.getType()).isEqualTo("Warning");
            assertThat(event.getReason()).isEqualTo("SelectsNoDevice");
            assertThat(event.getMessage()).startsWith("spec.deviceSelector.selectors[0].cel.expression does not compile "
                    + "in scheduler muster: ").contains("quantity").endsWith(", so this rule taints no device");
            assertThat(event.getInvolvedObject().getApiVersion()).isEqualTo(TAINT_RULES);
        });
    }

    /** A rule tainting the devices of gpu.example.com that pass the CEL selector (Kubernetes 1.34's v1alpha3). */
    private static GenericKubernetesResource rule(String name, String selector) {
        GenericKubernetesResource rule = new GenericKubernetesResource();
        rule.setApiVersion(TAINT_RULES);
        rule.setKind("DeviceTaintRule");
        rule.setMetadata(new ObjectMetaBuilder().withName(name).build());
        rule.setAdditionalProperty("spec", Map.of(
                "deviceSelector", Map.of("driver", "gpu.example.com", "selectors", List.of(Map.of("cel",
                        Map.of("expression", selector)))),
                "taint", Map.of("key", "example.com/maintenance", "effect", "NoSchedule")));
        return rule;
    }

    /** A slice of one GPU, on node-0 by the slice's nodeName or, with {@code perDevice}, by the device's. */
    private static GenericKubernetesResource slice(String name, boolean perDevice) {
        GenericKubernetesResource slice = new GenericKubernetesResource();
        slice.setApiVersion(SLICES);
        slice.setKind("ResourceSlice");
        slice.setMetadata(new ObjectMetaBuilder().withName(name).build());
        slice.setAdditionalProperty("spec", spec(name, perDevice));
        return slice;
    }

    private static Map<String, Object> spec(String pool, boolean perDevice) {
        Map<String, Object> device = new HashMap<>(Map.of("name", "gpu-0"));
        Map<String, Object> spec = new HashMap<>(Map.of("driver", "gpu.example.com",
                "pool", Map.of("name", pool, "generation", 1, "resourceSliceCount", 1)));
        if (perDevice) {
            spec.put("perDeviceNodeSelection", true);
            device.put("nodeName", "node-0");
        } else {
            spec.put("nodeName", "node-0");
        }
        spec.put("devices", List.of(device));
        return spec;
    }

    private void setPerDeviceNodeSelection(String name, boolean perDevice) {
        GenericKubernetesResource slice = client.genericKubernetesResources(SLICES, "ResourceSlice").withName(name).get();
        slice.setAdditionalProperty("spec", spec(name, perDevice));
        client.genericKubernetesResources(SLICES, "ResourceSlice").resource(slice).update();
    }

    /** The Events about a cluster-scoped object, which are in the namespace default, as client-go writes them. */
    private List<Event> events(String kind, String name) {
        return client.v1().events().inNamespace("default").list().getItems().stream()
                .filter(event -> kind.equals(event.getInvolvedObject().getKind())
                        && name.equals(event.getInvolvedObject().getName())).toList();
    }
}
