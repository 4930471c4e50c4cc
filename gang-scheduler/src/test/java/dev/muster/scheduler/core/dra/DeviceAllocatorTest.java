package dev.muster.scheduler.core.dra;

import static org.assertj.core.api.Assertions.assertThat;

import dev.muster.scheduler.core.model.NodeInfo;
import dev.muster.scheduler.core.model.ResourceVector;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class DeviceAllocatorTest {
    static final String DRIVER = "gpu.example.com";
    static final String CLIQUE = DRIVER + "/clique";

    static Device gpu(String node, int i, String model, String clique) {
        return new Device(DRIVER, node, "gpu-" + i, Map.of(DRIVER + "/model", model, CLIQUE, clique,
                DRIVER + "/index", (long) i), Map.of(DRIVER + "/memory", 80L << 30));
    }

    static DeviceSlice slice(String node, List<Device> devices) {
        return new DeviceSlice(node + "-gpus", DRIVER, node, node, false, List.of(), devices);
    }

    static NodeInfo node(String name) {
        return new NodeInfo(name, Map.of(), ResourceVector.of(Map.of("cpu", 64_000L, "pods", 110L)), true, false);
    }

    static DeviceClaim claim(String name, DeviceRequest request, DeviceConstraint... constraints) {
        return new DeviceClaim("default", name, List.of(request), List.of(constraints));
    }

    static final DeviceClass GPU = new DeviceClass(DRIVER, List.of("device.driver == \"" + DRIVER + "\""));

    /** Node a: 4 GPUs of clique x and 4 of clique y. */
    static DeviceLedger twoCliques(DeviceClaim... known) {
        List<Device> devices = new ArrayList<>();
        for (int i = 0; i < 8; i++) {
            devices.add(gpu("a", i, i % 2 == 0 ? "h100" : "a100", i < 4 ? "x" : "y"));
        }
        return new DeviceLedger(new DeviceInventory(List.of(slice("a", devices)), List.of(GPU)), List.of(known));
    }

    @Test
    void countDevicesOfOneCliqueOrNone() {
        DeviceAllocator allocator = new DeviceAllocator(twoCliques());
        DeviceClaim four = claim("four", DeviceRequest.exactly("gpus", DRIVER, 4), new DeviceConstraint(List.of(), CLIQUE));
        Map<String, DeviceAllocation> result = allocator.allocate(List.of(four), node("a"));
        assertThat(result.get("default/four").devices()).extracting(DeviceAllocation.AllocatedDevice::device)
                .containsExactly("gpu-0", "gpu-1", "gpu-2", "gpu-3");
        assertThat(result.get("default/four").nodeName()).isEqualTo("a");

        DeviceClaim five = claim("five", DeviceRequest.exactly("gpus", DRIVER, 5), new DeviceConstraint(List.of(), CLIQUE));
        assertThat(allocator.allocate(List.of(five), node("a"))).isNull();
        assertThat(allocator.whyNot(List.of(five), node("a"))).isEqualTo(
                "node(s) cannot allocate claim default/five: 5 device(s) of class gpu.example.com, one " + CLIQUE);
        assertThat(allocator.allocate(List.of(five), node("b"))).isNull();
    }

    @Test
    void devicesInUseAreSkippedAndConstraintsBacktrack() {
        DeviceAllocation taken = new DeviceAllocation(List.of(
                new DeviceAllocation.AllocatedDevice("gpus", DRIVER, "a", "gpu-0")), "a");
        DeviceLedger ledger = twoCliques(new DeviceClaim("default", "old", List.of(), List.of(), taken, List.of("p")));
        DeviceClaim four = claim("four", DeviceRequest.exactly("gpus", DRIVER, 4), new DeviceConstraint(List.of(), CLIQUE));
        Map<String, DeviceAllocation> result = new DeviceAllocator(ledger).allocate(List.of(four), node("a"));
        // Clique x has only three free devices left, so the search backtracks to clique y.
        assertThat(result.get("default/four").devices()).extracting(DeviceAllocation.AllocatedDevice::device)
                .containsExactly("gpu-4", "gpu-5", "gpu-6", "gpu-7");
        ledger.allocate("default/four", result.get("default/four"));
        assertThat(ledger.devicesInUse()).isEqualTo(5);
        ledger.release("default/four");
        assertThat(ledger.devicesInUse()).isEqualTo(1);
    }

    @Test
    void selectorsFirstAvailableAndAllMode() {
        DeviceAllocator allocator = new DeviceAllocator(twoCliques());
        DeviceRequest firstAvailable = new DeviceRequest("gpu", List.of(
                new DeviceRequest.Alternative("b200", DRIVER, List.of("device.attributes[\"gpu.example.com\"].model == \"b200\""), false, 1),
                new DeviceRequest.Alternative("a100", DRIVER, List.of("device.attributes[\"gpu.example.com\"].model == \"a100\""), false, 2)),
                false);
        DeviceAllocation allocation = allocator.allocate(List.of(claim("fa", firstAvailable)), node("a")).get("default/fa");
        assertThat(allocation.devices()).extracting(DeviceAllocation.AllocatedDevice::request, DeviceAllocation.AllocatedDevice::device)
                .containsExactly(org.assertj.core.groups.Tuple.tuple("gpu/a100", "gpu-1"),
                        org.assertj.core.groups.Tuple.tuple("gpu/a100", "gpu-3"));

        DeviceRequest all = new DeviceRequest("all", List.of(new DeviceRequest.Alternative(null, DRIVER,
                List.of("device.capacity[\"gpu.example.com\"].memory >= 1024 && device.attributes[\"gpu.example.com\"].index >= 6"),
                true, 0)), false);
        assertThat(allocator.allocate(List.of(claim("all", all)), node("a")).get("default/all").devices())
                .extracting(DeviceAllocation.AllocatedDevice::device).containsExactly("gpu-6", "gpu-7");
    }

    @Test
    void refusesAdminAccessUnknownClassesAndBadSelectorsNamingTheClaim() {
        DeviceAllocator allocator = new DeviceAllocator(twoCliques());
        DeviceRequest admin = new DeviceRequest("gpus", DeviceRequest.exactly("gpus", DRIVER, 1).alternatives(), true);
        assertThat(allocator.whyNot(List.of(claim("admin", admin)), node("a")))
                .isEqualTo("claim default/admin: request gpus asks for adminAccess, which Muster does not allocate");
        assertThat(allocator.whyNot(List.of(claim("nc", DeviceRequest.exactly("gpus", "tpu.example.com", 1))), node("a")))
                .isEqualTo("claim default/nc: request gpus names DeviceClass tpu.example.com, which does not exist");
        assertThat(allocator.whyNot(List.of(claim("bad", DeviceRequest.exactly("gpus", DRIVER, 1, "device.("))), node("a")))
                .startsWith("claim default/bad: request gpus: selector device.( does not compile");
    }

    @Test
    void anAllocatedClaimNeedsOnlyANodeThatReachesIt() {
        DeviceAllocation onA = new DeviceAllocation(List.of(
                new DeviceAllocation.AllocatedDevice("gpus", DRIVER, "a", "gpu-0")), "a");
        DeviceClaim shared = new DeviceClaim("default", "shared", List.of(DeviceRequest.exactly("gpus", DRIVER, 1)),
                List.of(), onA, List.of("p"));
        DeviceAllocator allocator = new DeviceAllocator(twoCliques(shared));
        assertThat(allocator.allocate(List.of(shared), node("a"))).isEmpty();
        assertThat(allocator.allocate(List.of(shared), node("b"))).isNull();
        assertThat(allocator.whyNot(List.of(shared), node("b")))
                .isEqualTo("node(s) cannot use the devices allocated to claim default/shared");
    }

    @Test
    void networkAttachedDevicesAreReachableWhereTheSliceSays() {
        DeviceSlice fabric = new DeviceSlice("fabric", DRIVER, "fabric", null, true, List.of(),
                List.of(gpu("fabric", 0, "h100", "z")));
        DeviceLedger ledger = new DeviceLedger(new DeviceInventory(List.of(fabric), List.of(GPU)), List.of());
        DeviceAllocation allocation = new DeviceAllocator(ledger)
                .allocate(List.of(claim("net", DeviceRequest.exactly("gpus", DRIVER, 1))), node("b")).get("default/net");
        assertThat(allocation.nodeName()).isNull();
        assertThat(ledger.reaches(allocation, node("c"))).isTrue();
    }
}
