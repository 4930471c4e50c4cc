package dev.muster.scheduler.core.dra;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * DeviceTaintRules select devices as kube-scheduler's ResourceSlice tracker does (Kubernetes 1.34), and their taint
 * keeps the devices from claims that do not tolerate it.
 */
class DeviceTaintRuleTest {
    private static final String DRIVER = "gpu.example.com";
    private static final DeviceTaint MAINTENANCE = new DeviceTaint("example.com/maintenance", "", "NoSchedule");
    private static final DeviceClass GPU = new DeviceClass("gpu", List.of("device.driver == \"" + DRIVER + "\""));
    private static final DeviceClass H100 = new DeviceClass("h100",
            List.of("device.attributes[\"" + DRIVER + "\"].model == \"h100\""));
    private static final Map<String, DeviceClass> CLASSES = Map.of("gpu", GPU, "h100", H100);

    private static Device gpu(String pool, String name, String model) {
        return new Device(DRIVER, pool, name, Map.of(DRIVER + "/model", model), Map.of(), List.of(), false, false, false);
    }

    private static DeviceTaintRule rule(String driver, String pool, String device, String deviceClassName,
                                        List<String> selectors) {
        return new DeviceTaintRule("r", driver, pool, device, deviceClassName, selectors, MAINTENANCE);
    }

    @Test
    void eachSetFieldOfTheSelectorMustMatchAndNoSelectorSelectsEveryDevice() {
        Device a0 = gpu("node-a", "gpu-0", "h100");
        Device a1 = gpu("node-a", "gpu-1", "a100");
        Device b0 = gpu("node-b", "gpu-0", "h100");
        Device other = new Device("nic.example.com", "node-a", "gpu-0", Map.of(), Map.of(), List.of(), false, false, false);
        List<Device> all = List.of(a0, a1, b0, other);

        assertThat(all).filteredOn(d -> rule(null, null, null, null, List.of()).selects(d, CLASSES)).hasSize(4);
        assertThat(all).filteredOn(d -> rule(DRIVER, null, null, null, List.of()).selects(d, CLASSES))
                .containsExactly(a0, a1, b0);
        assertThat(all).filteredOn(d -> rule(null, "node-a", null, null, List.of()).selects(d, CLASSES))
                .containsExactly(a0, a1, other);
        assertThat(all).filteredOn(d -> rule(null, null, "gpu-0", null, List.of()).selects(d, CLASSES))
                .containsExactly(a0, b0, other);
        assertThat(all).filteredOn(d -> rule(DRIVER, "node-a", "gpu-0", null, List.of()).selects(d, CLASSES))
                .containsExactly(a0);
    }

    @Test
    void aClassMustExistAndPassAndTheRulesOwnSelectorsMustPassToo() {
        Device h100 = gpu("node-a", "gpu-0", "h100");
        Device a100 = gpu("node-a", "gpu-1", "a100");

        assertThat(rule(null, null, null, "h100", List.of()).selects(h100, CLASSES)).isTrue();
        assertThat(rule(null, null, null, "h100", List.of()).selects(a100, CLASSES)).isFalse();
        assertThat(rule(null, null, null, "no-such-class", List.of()).selects(h100, CLASSES))
                .as("a class that does not exist selects nothing").isFalse();
        List<String> a100Only = List.of("device.attributes[\"" + DRIVER + "\"].model == \"a100\"");
        assertThat(rule(null, null, null, null, a100Only).selects(a100, CLASSES)).isTrue();
        assertThat(rule(null, null, null, "h100", a100Only).selects(h100, CLASSES))
                .as("the class and the rule's own selectors must both pass").isFalse();
        assertThat(rule(null, null, null, null, List.of("device.attributes[\"" + DRIVER + "\"].memory > 1"))
                .selects(h100, CLASSES)).as("a selector that fails to evaluate does not select the device").isFalse();
    }

    @Test
    void aSelectorThatDoesNotCompileHereSaysSoNamingTheField() {
        assertThat(rule(DRIVER, null, null, null, List.of("true")).selectsNothing()).isNull();
        assertThat(rule(DRIVER, null, null, null, List.of("true", "device.capacity[\"" + DRIVER
                + "\"].memory.compareTo(quantity(\"10Gi\")) > 0")).selectsNothing())
                .startsWith("spec.deviceSelector.selectors[1].cel.expression does not compile in scheduler muster: ");
    }

    @Test
    void theTaintIsAddedAfterTheDriversOwnAndOnlySlicesItTouchesAreCopied() {
        DeviceTaint unhealthy = new DeviceTaint(DRIVER + "/unhealthy", "ecc", "NoExecute");
        Device sick = new Device(DRIVER, "node-a", "gpu-0", Map.of(), Map.of(), List.of(unhealthy), false, false, false);
        DeviceSlice a = new DeviceSlice("a", DRIVER, "node-a", "node-a", false, List.of(),
                List.of(sick, gpu("node-a", "gpu-1", "h100")));
        DeviceSlice b = new DeviceSlice("b", DRIVER, "node-b", "node-b", false, List.of(), List.of(gpu("node-b", "gpu-0", "h100")));

        List<DeviceSlice> tainted = DeviceTaintRule.apply(List.of(a, b),
                List.of(rule(null, "node-a", null, null, List.of())), CLASSES);

        assertThat(tainted.get(0).devices()).extracting(Device::taints)
                .containsExactly(List.of(unhealthy, MAINTENANCE), List.of(MAINTENANCE));
        assertThat(tainted.get(1)).isSameAs(b);
        assertThat(DeviceTaintRule.apply(List.of(a, b), List.of(), CLASSES)).containsExactly(a, b);
    }

    @Test
    void theCatalogKeepsARuledDeviceFromAClaimThatDoesNotTolerateItUntilTheRuleGoes() {
        DeviceCatalog catalog = new DeviceCatalog();
        catalog.putClass(GPU);
        catalog.putSlice(new DeviceSlice("a", DRIVER, "node-a", "node-a", false, List.of(),
                List.of(gpu("node-a", "gpu-0", "h100"))));
        assertThat(tainted(catalog)).isEmpty();

        assertThat(catalog.putTaintRule(rule(DRIVER, null, null, null, List.of()))).isTrue();
        assertThat(catalog.putTaintRule(rule(DRIVER, null, null, null, List.of()))).as("the same rule again").isFalse();
        assertThat(tainted(catalog)).containsExactly(MAINTENANCE);

        assertThat(catalog.removeTaintRule("r")).isTrue();
        assertThat(tainted(catalog)).isEmpty();
    }

    /** The taints of node-a's one device as a cycle's inventory sees them. */
    private static List<DeviceTaint> tainted(DeviceCatalog catalog) {
        DeviceInventory inventory = catalog.ledger(List.of()).inventory();
        return inventory.device(inventory.indexOf(DRIVER + "/node-a/gpu-0")).taints();
    }
}
