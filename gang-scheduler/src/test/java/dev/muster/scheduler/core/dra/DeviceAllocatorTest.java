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
                DRIVER + "/index", (long) i), Map.of(DRIVER + "/memory", 80L << 30), List.of(), false, false, false);
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
                List.of());
        DeviceAllocation allocation = allocator.allocate(List.of(claim("fa", firstAvailable)), node("a")).get("default/fa");
        assertThat(allocation.devices()).extracting(DeviceAllocation.AllocatedDevice::request, DeviceAllocation.AllocatedDevice::device)
                .containsExactly(org.assertj.core.groups.Tuple.tuple("gpu/a100", "gpu-1"),
                        org.assertj.core.groups.Tuple.tuple("gpu/a100", "gpu-3"));

        DeviceRequest all = new DeviceRequest("all", List.of(new DeviceRequest.Alternative(null, DRIVER,
                List.of("device.capacity[\"gpu.example.com\"].memory >= 1024 && device.attributes[\"gpu.example.com\"].index >= 6"),
                true, 0)), List.of());
        assertThat(allocator.allocate(List.of(claim("all", all)), node("a")).get("default/all").devices())
                .extracting(DeviceAllocation.AllocatedDevice::device).containsExactly("gpu-6", "gpu-7");
    }

    @Test
    void refusesAdminAccessUnknownClassesAndBadSelectorsNamingTheClaim() {
        DeviceAllocator allocator = new DeviceAllocator(twoCliques());
        DeviceRequest admin = new DeviceRequest("gpus", DeviceRequest.exactly("gpus", DRIVER, 1).alternatives(), List.of(DeviceRequest.ADMIN_ACCESS));
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

    /** Node a: gpu-0 with a NoSchedule taint, gpu-1 with a NoExecute one, gpu-2 with an informational (None) one, gpu-3 clean. */
    static DeviceLedger tainted() {
        List<Device> devices = new ArrayList<>();
        String[] effects = {"NoSchedule", "NoExecute", "None", null};
        for (int i = 0; i < 4; i++) {
            Device plain = gpu("a", i, "h100", "x");
            devices.add(new Device(DRIVER, "a", plain.name(), plain.attributes(), plain.capacity(),
                    effects[i] == null ? List.of() : List.of(new DeviceTaint(DRIVER + "/unhealthy", "ecc", effects[i])),
                    false, false, false));
        }
        return new DeviceLedger(new DeviceInventory(List.of(slice("a", devices)), List.of(GPU)), List.of());
    }

    static DeviceRequest tolerating(String name, int count, boolean all, DeviceToleration... tolerations) {
        return new DeviceRequest(name, List.of(new DeviceRequest.Alternative(null, DRIVER, List.of(), all, count,
                List.of(tolerations))), List.of());
    }

    @Test
    void aTaintedDeviceGoesOnlyToARequestThatToleratesItsTaint() {
        DeviceAllocator allocator = new DeviceAllocator(tainted());
        Map<String, DeviceAllocation> untolerating = allocator.allocate(List.of(claim("two", tolerating("gpus", 2, false))), node("a"));
        assertThat(untolerating.get("default/two").devices()).extracting(DeviceAllocation.AllocatedDevice::device)
                .as("the None taint does not keep gpu-2 away").containsExactly("gpu-2", "gpu-3");
        assertThat(untolerating.get("default/two").devices()).allSatisfy(d -> assertThat(d.tolerations()).isEmpty());

        DeviceClaim three = claim("three", tolerating("gpus", 3, false));
        assertThat(allocator.allocate(List.of(three), node("a"))).isNull();
        assertThat(allocator.whyNot(List.of(three), node("a"))).isEqualTo("node(s) cannot allocate claim default/three: "
                + "3 device(s) of class gpu.example.com (devices left out there: taints the request does not tolerate)");

        DeviceToleration noSchedule = new DeviceToleration(DRIVER + "/unhealthy", "Equal", "ecc", "NoSchedule", null);
        assertThat(allocator.allocate(List.of(claim("three", tolerating("gpus", 3, false, noSchedule))), node("a"))
                .get("default/three").devices()).extracting(DeviceAllocation.AllocatedDevice::device)
                .containsExactly("gpu-0", "gpu-2", "gpu-3");

        DeviceToleration any = new DeviceToleration(DRIVER + "/unhealthy", "Exists", "", "", 300L);
        DeviceAllocation four = allocator.allocate(List.of(claim("four", tolerating("gpus", 4, false, any))), node("a"))
                .get("default/four");
        assertThat(four.devices()).hasSize(4);
        assertThat(four.devices()).as("the allocation carries the tolerations, for the eviction of NoExecute taints")
                .allSatisfy(d -> assertThat(d.tolerations()).containsExactly(any));
    }

    @Test
    void allModeFailsWhereAMatchingDeviceIsTaintedAndNotTolerated() {
        DeviceAllocator allocator = new DeviceAllocator(tainted());
        assertThat(allocator.allocate(List.of(claim("all", tolerating("gpus", 0, true))), node("a"))).isNull();
        DeviceToleration everything = new DeviceToleration("", "Exists", "", "", null);
        assertThat(allocator.allocate(List.of(claim("all", tolerating("gpus", 0, true, everything))), node("a"))
                .get("default/all").devices()).hasSize(4);
    }

    @Test
    void partitionsSharingCountersAndDevicesAllowingSeveralAllocationsAreNeverAllocatedAndTheMessageSaysSo() {
        Device whole = gpu("a", 0, "h100", "x");
        Device partition = new Device(DRIVER, "a", "gpu-1-mig-1g", whole.attributes(), whole.capacity(), List.of(), true, false, false);
        Device shared = new Device(DRIVER, "a", "gpu-2", whole.attributes(), whole.capacity(), List.of(), false, true, false);
        DeviceLedger ledger = new DeviceLedger(new DeviceInventory(List.of(slice("a", List.of(whole, partition, shared))),
                List.of(GPU)), List.of());
        assertThat(ledger.inventory().classTotals(node("a")))
                .as("only the whole device counts as the class's resource").containsExactly(
                        Map.entry(DeviceInventory.resourceName(DRIVER), 1L));

        DeviceAllocator allocator = new DeviceAllocator(ledger);
        assertThat(allocator.allocate(List.of(claim("one", DeviceRequest.exactly("gpus", DRIVER, 1))), node("a"))
                .get("default/one").devices()).extracting(DeviceAllocation.AllocatedDevice::device).containsExactly("gpu-0");
        DeviceClaim two = claim("two", DeviceRequest.exactly("gpus", DRIVER, 2));
        assertThat(allocator.allocate(List.of(two), node("a"))).isNull();
        assertThat(allocator.whyNot(List.of(two), node("a"))).isEqualTo("node(s) cannot allocate claim default/two: "
                + "2 device(s) of class gpu.example.com (devices left out there: allowMultipleAllocations (consumable "
                + "capacity), which Muster does not allocate; consumesCounters (a partitionable device), which Muster "
                + "does not allocate)");
        assertThat(allocator.allocate(List.of(claim("all", tolerating("gpus", 0, true))), node("a")))
                .as("all devices cannot be allocated when some of them cannot").isNull();
    }

    @Test
    void devicesOfASliceWithPerDeviceNodeSelectionAreAllocatedNowhereAndTheMessageSaysSoOnlyForClaimsThatPickThem() {
        Device fabricGpu = new Device(DRIVER, "fabric", "gpu-9", gpu("a", 9, "h100", "x").attributes(), Map.of(),
                List.of(), false, false, false);
        DeviceSlice perDevice = new DeviceSlice("fabric", DRIVER, "fabric", null, false, List.of(), List.of(fabricGpu), true);
        DeviceLedger ledger = new DeviceLedger(new DeviceInventory(List.of(slice("a", List.of(gpu("a", 0, "h100", "x"))),
                perDevice), List.of(GPU)), List.of());
        assertThat(ledger.inventory().classTotals(node("a"))).containsExactly(Map.entry(DeviceInventory.resourceName(DRIVER), 1L));

        DeviceAllocator allocator = new DeviceAllocator(ledger);
        DeviceClaim two = claim("two", DeviceRequest.exactly("gpus", DRIVER, 2));
        DeviceClaim a100 = claim("a100", DeviceRequest.exactly("gpus", DRIVER, 1,
                "device.attributes[\"" + DRIVER + "\"].model == \"a100\""));
        assertThat(allocator.allocate(List.of(two), node("a"))).isNull();
        assertThat(allocator.whyNot(List.of(two), node("a"))).isEqualTo("node(s) cannot allocate claim default/two: "
                + "2 device(s) of class gpu.example.com (devices left out there: perDeviceNodeSelection (devices that "
                + "each name their node), which Muster does not allocate)");
        assertThat(allocator.whyNot(List.of(a100), node("a"))).as("the fabric GPU is not an a100")
                .isEqualTo("node(s) cannot allocate claim default/a100: 1 device(s) of class gpu.example.com passing its "
                        + "selectors");
    }

    @Test
    void refusesConsumableCapacityRequestsNamingTheFieldAndTheClaim() {
        DeviceRequest capacity = new DeviceRequest("gpus", DeviceRequest.exactly("gpus", DRIVER, 1).alternatives(),
                List.of("exactly.capacity.requests (consumable capacity)"));
        DeviceAllocator allocator = new DeviceAllocator(twoCliques());
        assertThat(allocator.allocate(List.of(claim("cap", capacity)), node("a"))).isNull();
        assertThat(allocator.whyNot(List.of(claim("cap", capacity)), node("a"))).isEqualTo("claim default/cap: request "
                + "gpus asks for exactly.capacity.requests (consumable capacity), which Muster does not allocate");
    }

    @Test
    void distinctAttributeGivesEachDeviceItsOwnValue() {
        DeviceAllocator allocator = new DeviceAllocator(twoCliques());
        DeviceConstraint distinctClique = new DeviceConstraint(List.of(), CLIQUE, true);
        DeviceClaim two = claim("two", DeviceRequest.exactly("gpus", DRIVER, 2), distinctClique);
        assertThat(allocator.allocate(List.of(two), node("a")).get("default/two").devices())
                .extracting(DeviceAllocation.AllocatedDevice::device).containsExactly("gpu-0", "gpu-4");

        DeviceClaim three = claim("three", DeviceRequest.exactly("gpus", DRIVER, 3), distinctClique);
        assertThat(allocator.allocate(List.of(three), node("a"))).isNull();
        assertThat(allocator.whyNot(List.of(three), node("a"))).isEqualTo(
                "node(s) cannot allocate claim default/three: 3 device(s) of class gpu.example.com, each a different " + CLIQUE);
    }

    @Test
    void theAllocationCarriesTheConfigOfTheClassesUsedAndOfTheClaimForTheDriver() {
        Map<String, Object> sharing = Map.of("opaque", Map.of("driver", DRIVER, "parameters", Map.of("sharing", "time-slicing")));
        Map<String, Object> channel = Map.of("opaque", Map.of("driver", DRIVER, "parameters", Map.of("domain", "d-1")));
        Map<String, Object> unused = Map.of("opaque", Map.of("driver", DRIVER, "parameters", Map.of("unused", true)));
        DeviceClass gpuWithConfig = new DeviceClass(DRIVER, GPU.selectors(), List.of(new DeviceConfig(null, List.of(), sharing)));
        DeviceClass other = new DeviceClass("other", List.of("device.driver == \"other.example.com\""),
                List.of(new DeviceConfig(null, List.of(), unused)));
        List<Device> devices = List.of(gpu("a", 0, "h100", "x"), gpu("a", 1, "h100", "x"));
        DeviceLedger ledger = new DeviceLedger(new DeviceInventory(List.of(slice("a", devices)), List.of(gpuWithConfig, other)),
                List.of());
        DeviceRequest firstAvailable = new DeviceRequest("second", List.of(
                new DeviceRequest.Alternative("none", "other", List.of(), false, 1),
                new DeviceRequest.Alternative("gpu", DRIVER, List.of(), false, 1)), List.of());
        DeviceClaim claim = new DeviceClaim("default", "cfg", List.of(DeviceRequest.exactly("first", DRIVER, 1), firstAvailable),
                List.of(), null, List.of(), List.of(new DeviceConfig(null, List.of("second/gpu"), channel),
                        new DeviceConfig(null, List.of("second/none"), unused), new DeviceConfig(null, List.of(), channel)));

        DeviceAllocation allocation = new DeviceAllocator(ledger).allocate(List.of(claim), node("a")).get("default/cfg");

        assertThat(allocation.config()).containsExactly(
                new DeviceConfig(DeviceConfig.FROM_CLASS, List.of(), sharing),
                new DeviceConfig(DeviceConfig.FROM_CLAIM, List.of("second/gpu"), channel),
                new DeviceConfig(DeviceConfig.FROM_CLAIM, List.of(), channel));
    }
}
