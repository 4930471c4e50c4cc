package dev.muster.scheduler;

import dev.muster.gang.GangVerdict;
import io.fabric8.kubernetes.api.model.NodeBuilder;
import io.fabric8.kubernetes.api.model.PersistentVolumeBuilder;
import io.fabric8.kubernetes.api.model.PersistentVolumeClaimBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.api.model.TopologySelectorTermBuilder;
import io.fabric8.kubernetes.api.model.storage.StorageClassBuilder;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

import java.util.function.UnaryOperator;

import static dev.muster.scheduler.Patience.PATIENCE;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Volume topology on the local cluster, from claims, volumes and storage classes created through its API:
 * node-0 and node-1 are in zone a, node-2 and node-3 in zone b.
 */
@Tag("emulator")
class VolumeTopologyScenarioTest extends SchedulerScenario {
    private static final String ZONE = "topology.kubernetes.io/zone";

    private void startZonedCluster() {
        startCluster(4, "16");
        for (int n = 0; n < 4; n++) {
            String zone = n < 2 ? "a" : "b";
            client.nodes().withName("node-" + n).edit(node -> new NodeBuilder(node).editMetadata()
                    .addToLabels(ZONE, zone).endMetadata().build());
        }
    }

    private static UnaryOperator<Pod> usingClaim(String claim) {
        return pod -> new PodBuilder(pod).editSpec().addNewVolume().withName("data").withNewPersistentVolumeClaim()
                .withClaimName(claim).endPersistentVolumeClaim().endVolume().endSpec().build();
    }

    private void createVolumeInZone(String name, String zone) {
        client.persistentVolumes().resource(new PersistentVolumeBuilder().withNewMetadata().withName(name).endMetadata()
                .withNewSpec().addToCapacity("storage", new Quantity("1Gi")).addToAccessModes("ReadWriteOnce")
                .withNewHostPath().withPath("/data/" + name).endHostPath()
                .withNewNodeAffinity().withNewRequired().addNewNodeSelectorTerm().addNewMatchExpression().withKey(ZONE)
                .withOperator("In").withValues(zone).endMatchExpression().endNodeSelectorTerm().endRequired()
                .endNodeAffinity().endSpec().build()).create();
    }

    private void createClaim(String name, String storageClass, String volumeName) {
        client.persistentVolumeClaims().inNamespace(NS).resource(new PersistentVolumeClaimBuilder().withNewMetadata()
                .withName(name).endMetadata().withNewSpec().withStorageClassName(storageClass)
                .withVolumeName(volumeName).addToAccessModes("ReadWriteOnce").withNewResources()
                .addToRequests("storage", new Quantity("1Gi")).endResources().endSpec().build()).create();
    }

    private void createStorageClass(String name, String bindingMode, String allowedZone) {
        StorageClassBuilder storageClass = new StorageClassBuilder().withNewMetadata().withName(name).endMetadata()
                .withProvisioner("example.com/disk").withVolumeBindingMode(bindingMode);
        if (allowedZone != null) {
            storageClass.addToAllowedTopologies(new TopologySelectorTermBuilder().addNewMatchLabelExpression()
                    .withKey(ZONE).withValues(allowedZone).endMatchLabelExpression().build());
        }
        client.storage().v1().storageClasses().resource(storageClass.build()).create();
    }

    private String zoneOf(Pod pod) {
        return client.nodes().withName(pod.getSpec().getNodeName()).get().getMetadata().getLabels().get(ZONE);
    }

    @Test
    void aPodWhoseClaimIsBoundToAVolumeInZoneBLandsInZoneB() {
        startZonedCluster();
        createVolumeInZone("pv-b", "b");
        createClaim("data", "", "pv-b");
        createGang("bound", 1, null, 1, "1", usingClaim("data"));

        startScheduler();

        await().atMost(PATIENCE).untilAsserted(() -> assertThat(bound("bound")).hasSize(1));
        assertThat(zoneOf(bound("bound").get(0))).isEqualTo("b");
        assertThat(client.persistentVolumeClaims().inNamespace(NS).withName("data").get().getMetadata()
                .getAnnotations()).doesNotContainKey(BindingClient.SELECTED_NODE);
        assertThat(verdict("bound")).hasValueSatisfying(v -> assertThat(v.message()).doesNotContain("Not evaluated"));
    }

    @Test
    void podsWithUnboundWaitForFirstConsumerClaimsGoWhereTheirClassAllowsVolumes() {
        startZonedCluster();
        createStorageClass("late-in-b", "WaitForFirstConsumer", "b");
        createClaim("scratch-0", "late-in-b", null);
        createClaim("scratch-1", "late-in-b", null);
        createGang("late", 2, null, 0, "1", UnaryOperator.identity());
        for (int i = 0; i < 2; i++) {
            client.pods().inNamespace(NS).resource(pod("late-worker-" + i, "late", "1", usingClaim("scratch-" + i)))
                    .create();
        }

        startScheduler();

        await().atMost(PATIENCE).untilAsserted(() -> assertThat(bound("late")).hasSize(2));
        assertThat(bound("late")).extracting(this::zoneOf).containsOnly("b");
        // Each claim is told its pod's node, as a provisioner needs to create the volume there.
        for (Pod pod : bound("late")) {
            String claim = pod.getSpec().getVolumes().get(0).getPersistentVolumeClaim().getClaimName();
            assertThat(client.persistentVolumeClaims().inNamespace(NS).withName(claim).get().getMetadata()
                    .getAnnotations()).containsEntry(BindingClient.SELECTED_NODE, pod.getSpec().getNodeName());
        }
    }

    @Test
    void aPodWithAnUnboundImmediateClaimWaitsNamingItAndGoesWhereTheVolumeIsOnceBound() {
        startZonedCluster();
        createStorageClass("early", "Immediate", null);
        createClaim("data", "early", null);
        createGang("early", 1, null, 1, "1", usingClaim("data"));

        startScheduler();

        await().atMost(PATIENCE).until(() -> verdict("early").isPresent());
        assertThat(verdict("early")).hasValueSatisfying(v -> {
            assertThat(v.outcome()).isEqualTo(GangVerdict.Outcome.UNSCHEDULABLE);
            assertThat(v.message()).startsWith("0/4 nodes are available: 4 pod has unbound immediate "
                    + "PersistentVolumeClaims (data).");
        });
        staysSo("early", () -> assertThat(bound("early")).isEmpty());

        createVolumeInZone("pv-a", "a");
        client.persistentVolumeClaims().inNamespace(NS).withName("data").edit(claim -> new PersistentVolumeClaimBuilder(
                claim).editSpec().withVolumeName("pv-a").endSpec().build());

        await().atMost(PATIENCE).untilAsserted(() -> assertThat(bound("early")).hasSize(1));
        assertThat(zoneOf(bound("early").get(0))).isEqualTo("a");
    }
}
