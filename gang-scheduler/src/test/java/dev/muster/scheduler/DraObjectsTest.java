package dev.muster.scheduler;

import static org.assertj.core.api.Assertions.assertThat;

import dev.muster.scheduler.core.dra.DeviceAllocation;
import dev.muster.scheduler.core.dra.DeviceClaim;
import dev.muster.scheduler.core.dra.DeviceSlice;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.client.utils.Serialization;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** resource.k8s.io/v1 objects as the API serves them, read into the core's records and written back. */
class DraObjectsTest {

    @Test
    void readsASliceWithQualifiedAttributesAndCapacityInBaseUnits() {
        DeviceSlice slice = DraObjects.slice(Serialization.unmarshal("""
                apiVersion: resource.k8s.io/v1
                kind: ResourceSlice
                metadata: {name: node-0-gpus}
                spec:
                  driver: gpu.example.com
                  nodeName: node-0
                  pool: {name: node-0, generation: 1, resourceSliceCount: 1}
                  devices:
                    - name: gpu-0
                      attributes:
                        clique: {string: "a.0"}
                        index: {int: 0}
                        mig: {bool: false}
                        driverVersion: {version: "570.1.0"}
                        example.com/rack: {string: r1}
                      capacity:
                        memory: {value: 80Gi}
                        broken: {value: lots}
                """, GenericKubernetesResource.class));

        assertThat(slice.nodeName()).isEqualTo("node-0");
        assertThat(slice.devices()).singleElement().satisfies(device -> {
            assertThat(device.id()).isEqualTo("gpu.example.com/node-0/gpu-0");
            assertThat(device.attributes()).containsExactlyInAnyOrderEntriesOf(Map.of("gpu.example.com/clique", "a.0",
                    "gpu.example.com/index", 0L, "gpu.example.com/mig", false, "gpu.example.com/driverVersion", "570.1.0",
                    "example.com/rack", "r1"));
            assertThat(device.capacity()).containsExactly(Map.entry("gpu.example.com/memory", 80L << 30));
        });
    }

    @Test
    void readsAClaimsRequestsConstraintsAndAllocationAndWritesTheAllocationBack() {
        DeviceClaim claim = DraObjects.claim(Serialization.unmarshal("""
                apiVersion: resource.k8s.io/v1
                kind: ResourceClaim
                metadata: {name: c, namespace: ns}
                spec:
                  devices:
                    requests:
                      - name: gpus
                        exactly: {deviceClassName: gpu.example.com, count: 2, selectors: [{cel: {expression: "true"}}]}
                      - name: nic
                        firstAvailable:
                          - {name: fast, deviceClassName: nic.example.com}
                          - {name: any, deviceClassName: nic.example.com, allocationMode: All}
                    constraints: [{requests: [gpus], matchAttribute: gpu.example.com/clique}]
                status:
                  allocation:
                    devices:
                      results: [{request: gpus, driver: gpu.example.com, pool: node-0, device: gpu-0}]
                    nodeSelector:
                      nodeSelectorTerms: [{matchFields: [{key: metadata.name, operator: In, values: [node-0]}]}]
                  reservedFor: [{resource: pods, name: p, uid: u}]
                """, GenericKubernetesResource.class));

        assertThat(claim.key()).isEqualTo("ns/c");
        assertThat(claim.requests()).hasSize(2);
        assertThat(claim.requests().get(0).alternatives()).singleElement().satisfies(a -> {
            assertThat(a.count()).isEqualTo(2);
            assertThat(a.selectors()).containsExactly("true");
        });
        assertThat(claim.requests().get(1).alternatives()).extracting(a -> a.subrequest() + ":" + a.all())
                .containsExactly("fast:false", "any:true");
        assertThat(claim.constraints()).singleElement().satisfies(c ->
                assertThat(c.matchAttribute()).isEqualTo("gpu.example.com/clique"));
        assertThat(claim.allocation().nodeName()).isEqualTo("node-0");
        assertThat(claim.reservedFor()).containsExactly("p");
        // Only the exact request counts toward the class's resource.
        assertThat(claim.deviceCounts()).containsExactly(Map.entry("deviceclass.resource.kubernetes.io/gpu.example.com", 2L));

        DeviceAllocation written = claim.allocation();
        GenericKubernetesResource again = new GenericKubernetesResource();
        again.setMetadata(new io.fabric8.kubernetes.api.model.ObjectMetaBuilder().withName("c").withNamespace("ns").build());
        again.setAdditionalProperty("spec", Map.of());
        again.setAdditionalProperty("status", Map.of("allocation", DraObjects.allocationStatus(written)));
        assertThat(DraObjects.claim(again).allocation()).isEqualTo(written);
    }

    @Test
    void namesAPodsClaimsByStatusOrAsClaimsToBeMadeFromTheirTemplates() {
        Pod pod = Serialization.unmarshal("""
                apiVersion: v1
                kind: Pod
                metadata: {name: p, namespace: ns}
                spec:
                  resourceClaims:
                    - {name: shared, resourceClaimName: team-gpus}
                    - {name: gpus, resourceClaimTemplateName: eight}
                    - {name: nic, resourceClaimTemplateName: one-nic}
                  containers: [{name: c, image: busybox}]
                status:
                  resourceClaimStatuses: [{name: gpus, resourceClaimName: p-gpus-x7k2q}]
                """, Pod.class);

        assertThat(DraObjects.claimKeys(pod)).containsExactly("ns/team-gpus", "ns/p-gpus-x7k2q", "ns/p/nic/one-nic");
        assertThat(DraObjects.templateKeys(pod)).containsExactly("ns/eight", "ns/one-nic");
        assertThat(DraObjects.templateKeys(DraObjects.claimKeys(pod))).containsExactly("ns/one-nic");
        assertThat(List.of(DeviceClaim.missing("ns/p/nic/one-nic")))
                .containsExactly("pod ns/p waits for the ResourceClaim of its claim nic (template one-nic) to be created");
    }
}
