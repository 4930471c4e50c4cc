package dev.muster.scheduler;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.tuple;

import dev.muster.scheduler.core.dra.DeviceAllocation;
import dev.muster.scheduler.core.dra.DeviceClaim;
import dev.muster.scheduler.core.dra.Device;
import dev.muster.scheduler.core.dra.DeviceClass;
import dev.muster.scheduler.core.dra.DeviceConfig;
import dev.muster.scheduler.core.dra.DeviceConstraint;
import dev.muster.scheduler.core.dra.DeviceRequest;
import dev.muster.scheduler.core.dra.DeviceSlice;
import dev.muster.scheduler.core.dra.DeviceTaint;
import dev.muster.scheduler.core.dra.DeviceToleration;
import dev.muster.scheduler.core.model.NodeInfo;
import dev.muster.scheduler.core.model.ResourceVector;
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
                assertThat(c.attribute()).isEqualTo("gpu.example.com/clique"));
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
    void readsDeviceTaintsPartitionsAndSharedDevicesSoThatTheAllocatorCanHonourOrLeaveThemOut() {
        DeviceSlice slice = DraObjects.slice(Serialization.unmarshal("""
                apiVersion: resource.k8s.io/v1
                kind: ResourceSlice
                metadata: {name: node-0-gpus}
                spec:
                  driver: gpu.example.com
                  nodeName: node-0
                  pool: {name: node-0, generation: 1, resourceSliceCount: 1}
                  sharedCounters:
                    - name: gpu-0-counters
                      counters: {memory: {value: 80Gi}}
                  devices:
                    - name: gpu-0
                      taints: [{key: gpu.example.com/unhealthy, value: ecc, effect: NoSchedule}]
                    - name: gpu-0-mig-1g
                      consumesCounters: [{counterSet: gpu-0-counters, counters: {memory: {value: 10Gi}}}]
                    - name: gpu-1
                      allowMultipleAllocations: true
                    - name: fabric-gpu
                      bindingConditions: [attached]
                      bindingFailureConditions: [failed]
                """, GenericKubernetesResource.class));

        assertThat(slice.devices()).extracting(Device::name, Device::taints, Device::notAllocated).containsExactly(
                tuple("gpu-0", List.of(new DeviceTaint("gpu.example.com/unhealthy", "ecc", "NoSchedule")), null),
                tuple("gpu-0-mig-1g", List.of(), "consumesCounters (a partitionable device)"),
                tuple("gpu-1", List.of(), "allowMultipleAllocations (consumable capacity)"),
                tuple("fabric-gpu", List.of(), "bindingConditions (a device that binds late)"));
    }

    @Test
    void readsPerDeviceNodeSelectionAsASliceThatReachesNoNode() {
        DeviceSlice slice = DraObjects.slice(Serialization.unmarshal("""
                apiVersion: resource.k8s.io/v1
                kind: ResourceSlice
                metadata: {name: fabric-gpus}
                spec:
                  driver: gpu.example.com
                  pool: {name: fabric, generation: 1, resourceSliceCount: 1}
                  perDeviceNodeSelection: true
                  devices:
                    - {name: gpu-0, nodeName: node-0}
                    - {name: gpu-1, allNodes: true}
                """, GenericKubernetesResource.class));
        DeviceSlice plain = DraObjects.slice(Serialization.unmarshal("""
                apiVersion: resource.k8s.io/v1
                kind: ResourceSlice
                metadata: {name: all-gpus}
                spec:
                  driver: gpu.example.com
                  pool: {name: fabric, generation: 1, resourceSliceCount: 1}
                  allNodes: true
                  devices: [{name: gpu-0}]
                """, GenericKubernetesResource.class));

        NodeInfo node = new NodeInfo("node-0", Map.of(), ResourceVector.of(Map.of("cpu", 1_000L, "pods", 110L)), true, false);
        assertThat(slice.perDeviceNodeSelection()).isTrue();
        assertThat(slice.devices()).extracting(Device::name).containsExactly("gpu-0", "gpu-1");
        assertThat(slice.reaches(node)).isFalse();
        assertThat(plain.perDeviceNodeSelection()).isFalse();
        assertThat(plain.reaches(node)).isTrue();
    }

    @Test
    void readsTolerationsDistinctAttributeAndRefusesCapacityRequestsAndAdminAccessByTheirFieldsAndWritesTolerationsIntoTheAllocation() {
        DeviceClaim claim = DraObjects.claim(Serialization.unmarshal("""
                apiVersion: resource.k8s.io/v1
                kind: ResourceClaim
                metadata: {name: c, namespace: ns}
                spec:
                  devices:
                    requests:
                      - name: gpus
                        exactly:
                          deviceClassName: gpu.example.com
                          tolerations: [{key: gpu.example.com/unhealthy, operator: Exists, effect: NoExecute, tolerationSeconds: 60}]
                      - name: slice
                        exactly:
                          deviceClassName: gpu.example.com
                          adminAccess: true
                          capacity: {requests: {memory: 10Gi}}
                      - name: nic
                        firstAvailable:
                          - {name: fast, deviceClassName: nic.example.com, capacity: {requests: {bandwidth: 10G}}}
                          - {name: any, deviceClassName: nic.example.com}
                    constraints:
                      - {requests: [gpus], distinctAttribute: gpu.example.com/index}
                      - {requests: [nic]}
                """, GenericKubernetesResource.class));

        assertThat(claim.constraints()).extracting(DeviceConstraint::attribute, DeviceConstraint::distinct).containsExactly(
                tuple("gpu.example.com/index", true),
                tuple("(a constraint of a kind Muster does not know)", false));
        DeviceToleration toleration = new DeviceToleration("gpu.example.com/unhealthy", "Exists", "", "NoExecute", 60L);
        assertThat(claim.requests().get(0).alternatives().get(0).tolerations()).containsExactly(toleration);
        assertThat(claim.requests()).extracting(DeviceRequest::refused).containsExactly(List.of(),
                List.of("adminAccess", "exactly.capacity.requests (consumable capacity)"),
                List.of("firstAvailable[fast].capacity.requests (consumable capacity)"));

        DeviceAllocation allocation = new DeviceAllocation(List.of(new DeviceAllocation.AllocatedDevice("gpus",
                "gpu.example.com", "node-0", "gpu-0", List.of(toleration))), "node-0");
        Map<String, Object> status = DraObjects.allocationStatus(allocation);
        assertThat(Serialization.asYaml(status)).contains("tolerations:", "key: \"gpu.example.com/unhealthy\"",
                "operator: \"Exists\"", "effect: \"NoExecute\"", "tolerationSeconds: 60");
        GenericKubernetesResource again = new GenericKubernetesResource();
        again.setMetadata(new io.fabric8.kubernetes.api.model.ObjectMetaBuilder().withName("c").withNamespace("ns").build());
        again.setAdditionalProperty("spec", Map.of());
        again.setAdditionalProperty("status", Map.of("allocation", status));
        assertThat(DraObjects.claim(again).allocation()).isEqualTo(allocation);
    }

    @Test
    void readsTheConfigOfClassesAndClaimsAndWritesTheAllocationsConfigForTheDriver() {
        DeviceClass deviceClass = DraObjects.deviceClass(Serialization.unmarshal("""
                apiVersion: resource.k8s.io/v1
                kind: DeviceClass
                metadata: {name: gpu.example.com}
                spec:
                  config: [{opaque: {driver: gpu.example.com, parameters: {sharing: time-slicing}}}]
                """, GenericKubernetesResource.class));
        DeviceClaim claim = DraObjects.claim(Serialization.unmarshal("""
                apiVersion: resource.k8s.io/v1
                kind: ResourceClaim
                metadata: {name: c, namespace: ns}
                spec:
                  devices:
                    requests: [{name: gpus, exactly: {deviceClassName: gpu.example.com}}]
                    config: [{requests: [gpus], opaque: {driver: gpu.example.com, parameters: {domain: d-1}}}]
                """, GenericKubernetesResource.class));

        Map<String, Object> sharing = Map.of("opaque", Map.of("driver", "gpu.example.com", "parameters",
                Map.of("sharing", "time-slicing")));
        Map<String, Object> channel = Map.of("opaque", Map.of("driver", "gpu.example.com", "parameters",
                Map.of("domain", "d-1")));
        assertThat(deviceClass.config()).containsExactly(new DeviceConfig(null, List.of(), sharing));
        assertThat(claim.config()).containsExactly(new DeviceConfig(null, List.of("gpus"), channel));

        DeviceAllocation allocation = new DeviceAllocation(List.of(new DeviceAllocation.AllocatedDevice("gpus",
                "gpu.example.com", "node-0", "gpu-0")), "node-0", List.of(
                new DeviceConfig(DeviceConfig.FROM_CLASS, List.of(), sharing),
                new DeviceConfig(DeviceConfig.FROM_CLAIM, List.of("gpus"), channel)));
        Map<String, Object> status = DraObjects.allocationStatus(allocation);
        assertThat(map(status.get("devices")).get("config")).isEqualTo(List.of(
                Map.of("source", "FromClass", "opaque", sharing.get("opaque")),
                Map.of("source", "FromClaim", "requests", List.of("gpus"), "opaque", channel.get("opaque"))));
        GenericKubernetesResource again = new GenericKubernetesResource();
        again.setMetadata(new io.fabric8.kubernetes.api.model.ObjectMetaBuilder().withName("c").withNamespace("ns").build());
        again.setAdditionalProperty("spec", Map.of());
        again.setAdditionalProperty("status", Map.of("allocation", status));
        assertThat(DraObjects.claim(again).allocation()).isEqualTo(allocation);
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> map(Object value) {
        return (Map<String, Object>) value;
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
