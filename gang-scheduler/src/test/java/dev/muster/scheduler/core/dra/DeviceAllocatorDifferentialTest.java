package dev.muster.scheduler.core.dra;

import static org.assertj.core.api.Assertions.assertThat;

import dev.muster.scheduler.core.model.NodeInfo;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Random;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * The allocator's depth-first search against a plain search of every subset of devices, on random
 * slices and claims (some devices tainted, some partitions, some requests tolerating the taint, matchAttribute and
 * distinctAttribute constraints): both find an
 * allocation for the same cases, and every allocation the allocator returns is valid by an independent check.
 */
class DeviceAllocatorDifferentialTest {
    private static final String DRIVER = "gpu.example.com";
    private static final String TAINT = "gpu.example.com/unhealthy";
    private static final List<DeviceClass> CLASSES = List.of(
            new DeviceClass("any", List.of()),
            new DeviceClass("model-a", List.of("device.attributes[\"gpu.example.com\"].model == \"a\"")));

    @Test
    void agreesWithAPlainSearchOnRandomCases() {
        Random random = new Random(27);
        int feasible = 0;
        for (int round = 0; round < 3000; round++) {
            List<Device> devices = new ArrayList<>();
            int deviceCount = 1 + random.nextInt(6);
            for (int i = 0; i < deviceCount; i++) {
                Map<String, Object> attributes = new java.util.HashMap<>();
                attributes.put(DRIVER + "/model", random.nextBoolean() ? "a" : "b");
                if (random.nextInt(5) > 0) {
                    attributes.put(DRIVER + "/clique", random.nextBoolean() ? "x" : "y");
                }
                // Some devices carry a taint that blocks allocation, a few are partitions Muster never allocates.
                List<DeviceTaint> taints = random.nextInt(4) == 0 ? List.of(new DeviceTaint(TAINT, "", "NoSchedule"))
                        : List.of();
                devices.add(new Device(DRIVER, "n", "d" + i, attributes, Map.of(), taints, random.nextInt(10) == 0,
                        false, false));
            }
            List<DeviceClaim> known = new ArrayList<>();
            List<DeviceAllocation.AllocatedDevice> taken = new ArrayList<>();
            for (Device device : devices) {
                if (random.nextInt(4) == 0) {
                    taken.add(new DeviceAllocation.AllocatedDevice("r", DRIVER, "n", device.name()));
                }
            }
            if (!taken.isEmpty()) {
                known.add(new DeviceClaim("ns", "old", List.of(), List.of(), new DeviceAllocation(taken, "n"), List.of()));
            }
            DeviceLedger ledger = new DeviceLedger(new DeviceInventory(List.of(
                    new DeviceSlice("s", DRIVER, "n", "n", false, List.of(), devices)), CLASSES), known);
            List<DeviceClaim> claims = randomClaims(random);
            NodeInfo node = DeviceAllocatorTest.node("n");

            Map<String, DeviceAllocation> found = new DeviceAllocator(ledger).allocate(claims, node);
            boolean plain = new PlainSearch(ledger, claims, devices.size()).feasible();
            assertThat(found != null).as("round %d: %s", round, claims).isEqualTo(plain);
            if (found != null) {
                feasible++;
                assertValid(ledger, claims, found);
            }
        }
        // Both outcomes are well represented, or the comparison would say little.
        assertThat(feasible).isBetween(300, 2700);
    }

    private static List<DeviceClaim> randomClaims(Random random) {
        List<DeviceClaim> claims = new ArrayList<>();
        int claimCount = 1 + random.nextInt(2);
        for (int c = 0; c < claimCount; c++) {
            List<DeviceRequest> requests = new ArrayList<>();
            int requestCount = 1 + random.nextInt(2);
            for (int r = 0; r < requestCount; r++) {
                List<DeviceRequest.Alternative> alternatives = new ArrayList<>();
                int ways = random.nextInt(3) == 0 ? 2 : 1;
                for (int w = 0; w < ways; w++) {
                    boolean all = random.nextInt(6) == 0;
                    List<String> selectors = random.nextInt(3) == 0
                            ? List.of("device.attributes[\"gpu.example.com\"].model == \"b\"") : List.of();
                    List<DeviceToleration> tolerations = random.nextInt(3) == 0
                            ? List.of(new DeviceToleration(TAINT, "Exists", "", "", null)) : List.of();
                    alternatives.add(new DeviceRequest.Alternative(ways == 1 ? null : "s" + w,
                            random.nextBoolean() ? "any" : "model-a", selectors, all, all ? 0 : 1 + random.nextInt(3),
                            tolerations));
                }
                requests.add(new DeviceRequest("r" + r, alternatives, List.of()));
            }
            List<DeviceConstraint> constraints = random.nextBoolean()
                    ? List.of(new DeviceConstraint(random.nextBoolean() ? List.of() : List.of("r0"), DRIVER + "/clique",
                            random.nextInt(3) == 0))
                    : List.of();
            claims.add(new DeviceClaim("ns", "c" + c, requests, constraints));
        }
        return claims;
    }

    /** Checks an allocation with nothing of the allocator's: counts, classes, selectors, disjointness, constraints. */
    private static void assertValid(DeviceLedger ledger, List<DeviceClaim> claims, Map<String, DeviceAllocation> found) {
        Set<String> used = new HashSet<>();
        DeviceInventory inventory = ledger.inventory();
        for (DeviceClaim claim : claims) {
            DeviceAllocation allocation = found.get(claim.key());
            for (DeviceAllocation.AllocatedDevice allocated : allocation.devices()) {
                int index = inventory.indexOf(allocated.id());
                assertThat(ledger.inUse(index)).isFalse();
                assertThat(used.add(allocated.id())).isTrue();
            }
            for (DeviceRequest request : claim.requests()) {
                List<DeviceAllocation.AllocatedDevice> mine = allocation.devices().stream()
                        .filter(d -> d.request().equals(request.name()) || d.request().startsWith(request.name() + "/"))
                        .toList();
                DeviceRequest.Alternative alternative = request.alternatives().stream()
                        .filter(a -> mine.get(0).request().equals(a.subrequest() == null ? request.name()
                                : request.name() + "/" + a.subrequest())).findFirst().orElseThrow();
                for (DeviceAllocation.AllocatedDevice allocated : mine) {
                    assertThat(usable(alternative, inventory.device(inventory.indexOf(allocated.id())))).isTrue();
                }
                if (!alternative.all()) {
                    assertThat(mine).hasSize(alternative.count());
                }
            }
            for (DeviceConstraint constraint : claim.constraints()) {
                List<Object> values = new ArrayList<>();
                for (DeviceAllocation.AllocatedDevice allocated : allocation.devices()) {
                    String[] names = allocated.request().split("/", 2);
                    if (constraint.covers(names[0], names.length > 1 ? names[1] : null)) {
                        values.add(inventory.device(inventory.indexOf(allocated.id())).attributes()
                                .get(constraint.attribute()));
                    }
                }
                assertThat(values).doesNotContainNull();
                if (constraint.distinct()) {
                    assertThat(values).doesNotHaveDuplicates();
                } else {
                    assertThat(new HashSet<>(values)).hasSizeLessThanOrEqualTo(1);
                }
            }
        }
    }

    /** Matches, and may be given to the alternative: not a partition, and any taint tolerated. */
    private static boolean usable(DeviceRequest.Alternative alternative, Device device) {
        boolean tolerated = device.taints().isEmpty()
                || alternative.tolerations().stream().anyMatch(toleration -> toleration.key().equals(TAINT));
        return matches(alternative, device) && !device.consumesCounters() && tolerated;
    }

    private static boolean matches(DeviceRequest.Alternative alternative, Device device) {
        boolean classOk = alternative.deviceClassName().equals("any") || "a".equals(device.attributes().get(DRIVER + "/model"));
        boolean selectorOk = alternative.selectors().isEmpty() || "b".equals(device.attributes().get(DRIVER + "/model"));
        return classOk && selectorOk;
    }

    /** Every subset of devices for every request, in turn; no pruning beyond disjointness. */
    private record PlainSearch(DeviceLedger ledger, List<DeviceClaim> claims, int deviceCount) {
        boolean feasible() {
            List<Object[]> slots = new ArrayList<>();
            for (DeviceClaim claim : claims) {
                for (DeviceRequest request : claim.requests()) {
                    slots.add(new Object[] {claim, request});
                }
            }
            return search(slots, 0, 0, new ArrayList<>());
        }

        private boolean search(List<Object[]> slots, int slot, int usedMask, List<int[]> picks) {
            if (slot == slots.size()) {
                return constraintsHold(slots, picks);
            }
            DeviceRequest request = (DeviceRequest) slots.get(slot)[1];
            for (int a = 0; a < request.alternatives().size(); a++) {
                DeviceRequest.Alternative alternative = request.alternatives().get(a);
                for (int mask = 1; mask < 1 << deviceCount; mask++) {
                    if ((mask & usedMask) != 0 || !fits(alternative, mask)) {
                        continue;
                    }
                    picks.add(new int[] {mask, a});
                    if (search(slots, slot + 1, usedMask | mask, picks)) {
                        return true;
                    }
                    picks.remove(picks.size() - 1);
                }
            }
            return false;
        }

        private boolean fits(DeviceRequest.Alternative alternative, int mask) {
            int matching = 0;
            for (int d = 0; d < deviceCount; d++) {
                boolean match = matches(alternative, ledger.inventory().device(d));
                boolean inMask = (mask & 1 << d) != 0;
                if (inMask && (!usable(alternative, ledger.inventory().device(d)) || ledger.inUse(d))) {
                    return false;
                }
                if (alternative.all() && match && !inMask) {
                    return false;
                }
                matching += inMask ? 1 : 0;
            }
            return alternative.all() || matching == alternative.count();
        }

        private boolean constraintsHold(List<Object[]> slots, List<int[]> picks) {
            for (DeviceClaim claim : claims) {
                for (DeviceConstraint constraint : claim.constraints()) {
                    List<Object> values = new ArrayList<>();
                    for (int s = 0; s < slots.size(); s++) {
                        DeviceRequest request = (DeviceRequest) slots.get(s)[1];
                        DeviceRequest.Alternative alternative = request.alternatives().get(picks.get(s)[1]);
                        if (slots.get(s)[0] != claim || !constraint.covers(request.name(), alternative.subrequest())) {
                            continue;
                        }
                        for (int d = 0; d < deviceCount; d++) {
                            if ((picks.get(s)[0] & 1 << d) != 0) {
                                values.add(Objects.requireNonNullElse(ledger.inventory().device(d).attributes()
                                        .get(constraint.attribute()), "missing"));
                            }
                        }
                    }
                    int distinctValues = new HashSet<>(values).size();
                    if (values.contains("missing") || (constraint.distinct() ? distinctValues < values.size()
                            : distinctValues > 1)) {
                        return false;
                    }
                }
            }
            return true;
        }
    }
}
