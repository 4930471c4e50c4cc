package dev.muster.scheduler.core.dra;

import dev.muster.scheduler.core.model.NodeInfo;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeSet;

/**
 * Finds devices for a pod's claims on one node, with the structured-parameters semantics of
 * kube-scheduler's allocator: per request, {@code exactly} or the first {@code firstAvailable}
 * subrequest that works, {@code count} devices or {@code allocationMode: All} (every matching device the
 * node reaches, none of them allocated, at least one), the class's and the request's CEL selectors, and
 * {@code matchAttribute} and {@code distinctAttribute} constraints (every device the constraint covers carries
 * the attribute, with one value, or each with a value no other has). A device goes to one claim at a time: the ledger's devices in use are skipped. A claim already
 * allocated needs no devices, only that the node reaches its allocation. A device with a {@code NoSchedule}
 * or {@code NoExecute} taint goes only to a request that tolerates it, as kube-scheduler's allocator does with
 * device taints on. Requests asking for what Muster does not allocate (admin access, consumable capacity) are
 * refused, and devices it cannot account for (partitions sharing counters, devices allowing several
 * allocations) are never allocated.
 *
 * <p>The search is depth-first over the requests of all the pod's unallocated claims, devices taken in
 * number order within a request so that no set is tried twice, and backtracks on a constraint's
 * conflict. It gives up after {@link #STEP_LIMIT} steps, as kube-scheduler's allocator bounds its time.
 */
public final class DeviceAllocator {
    /** Devices tried per node before the search gives up and the node counts as not fitting. */
    static final int STEP_LIMIT = 100_000;

    private final DeviceLedger ledger;

    /** An allocator against the ledger's devices in use. */
    public DeviceAllocator(DeviceLedger ledger) {
        this.ledger = ledger;
    }

    /**
     * Allocations for the claims that are not allocated yet, on devices the node reaches, or {@code null}
     * if there are none (then {@link #whyNot} says why). Nothing is recorded in the ledger.
     */
    public Map<String, DeviceAllocation> allocate(List<DeviceClaim> claims, NodeInfo node) {
        List<DeviceClaim> open = new ArrayList<>(claims.size());
        for (DeviceClaim claim : claims) {
            DeviceAllocation existing = ledger.allocation(claim.key());
            if (existing != null) {
                if (!ledger.reaches(existing, node)) {
                    return null;
                }
            } else if (refusal(claim) != null) {
                return null;
            } else if (!open.contains(claim)) {
                open.add(claim);
            }
        }
        if (open.isEmpty()) {
            return Map.of();
        }
        return new Search(open, node).run();
    }

    /**
     * Why the claims cannot be allocated on the node, naming the claim, or {@code null} if they can: the
     * first claim that cannot be allocated alone, else all of them together.
     */
    public String whyNot(List<DeviceClaim> claims, NodeInfo node) {
        if (allocate(claims, node) != null) {
            return null;
        }
        for (DeviceClaim claim : claims) {
            String refused = refusal(claim);
            if (refused != null) {
                return refused;
            }
            DeviceAllocation existing = ledger.allocation(claim.key());
            if (existing != null && !ledger.reaches(existing, node)) {
                return "node(s) cannot use the devices allocated to " + claim.title();
            }
            if (existing == null && allocate(List.of(claim), node) == null) {
                return "node(s) cannot allocate " + claim.title() + ": " + describe(claim) + leftOut(claim, node);
            }
        }
        List<String> keys = claims.stream().map(DeviceClaim::key).toList();
        return "node(s) cannot allocate claims " + String.join(", ", keys) + " together";
    }

    /** Why the claim is refused wherever the pod goes, or {@code null}. */
    String refusal(DeviceClaim claim) {
        for (DeviceRequest request : claim.requests()) {
            if (!request.refused().isEmpty()) {
                return claim.title() + ": request " + request.name() + " asks for "
                        + String.join(" and ", request.refused()) + ", which Muster does not allocate";
            }
            for (DeviceRequest.Alternative alternative : request.alternatives()) {
                DeviceClass deviceClass = ledger.inventory().deviceClass(alternative.deviceClassName());
                if (deviceClass == null) {
                    return claim.title() + ": request " + request.name() + " names DeviceClass "
                            + alternative.deviceClassName() + ", which does not exist";
                }
                List<String> selectors = new ArrayList<>(deviceClass.selectors());
                selectors.addAll(alternative.selectors());
                for (String selector : selectors) {
                    String error = DeviceSelectors.compileError(selector);
                    if (error != null) {
                        return claim.title() + ": request " + request.name() + ": selector " + selector
                                + " does not compile: " + error;
                    }
                }
            }
        }
        return null;
    }

    /**
     * Which of the devices on the node that pass the claim's classes and selectors the claim cannot get for
     * a reason a user would not see in the claim, naming the ResourceSlice field: {@code  (devices left out
     * there: ...)}, or empty if none is. Devices that may be on the node but that Muster places on no node
     * ({@link DeviceInventory#leftOutEverywhere}) count too.
     */
    private String leftOut(DeviceClaim claim, NodeInfo node) {
        DeviceInventory inventory = ledger.inventory();
        Set<String> reasons = new TreeSet<>();
        for (DeviceRequest request : claim.requests()) {
            for (DeviceRequest.Alternative alternative : request.alternatives()) {
                for (int device : inventory.reachableFrom(node)) {
                    if (!inventory.matches(alternative, device) || inventory.offered(alternative, device)) {
                        continue;
                    }
                    String notAllocated = inventory.device(device).notAllocated();
                    reasons.add(notAllocated != null ? notAllocated + ", which Muster does not allocate"
                            : "taints the request does not tolerate");
                }
            }
        }
        String everywhere = inventory.leftOutEverywhere(claim);
        if (everywhere != null) {
            reasons.add(everywhere);
        }
        return reasons.isEmpty() ? "" : " (devices left out there: " + String.join("; ", reasons) + ")";
    }

    /** What the claim asks for, in words: {@code 8 device(s) of class gpu.example.com, one gpu.example.com/clique}. */
    public static String describe(DeviceClaim claim) {
        List<String> parts = new ArrayList<>();
        for (DeviceRequest request : claim.requests()) {
            List<String> ways = new ArrayList<>();
            for (DeviceRequest.Alternative alternative : request.alternatives()) {
                ways.add(alternative.countText() + " device(s) of class " + alternative.deviceClassName()
                        + (alternative.selectors().isEmpty() ? "" : " passing its selectors"));
            }
            parts.add(String.join(" or ", ways));
        }
        String text = String.join(" and ", parts);
        for (DeviceConstraint constraint : claim.constraints()) {
            text += ", " + constraint.text();
        }
        return text;
    }

    /**
     * The allocation's {@code devices.config}, as kube-scheduler's allocator puts it together: the config of each
     * class a request was allocated from, once per class, for the requests of that class; then the claim's
     * entries for every request, or for one of its requests or chosen subrequests. An entry that covers every
     * request of the claim lists none.
     *
     * @param ways the alternative chosen per request, by the name the allocation gives it ({@code request} or
     *             {@code request/subrequest})
     */
    private List<DeviceConfig> config(DeviceClaim claim, Map<String, DeviceRequest.Alternative> ways) {
        Map<String, List<String>> requestsByClass = new LinkedHashMap<>();
        ways.forEach((request, way) -> requestsByClass.computeIfAbsent(way.deviceClassName(), name -> new ArrayList<>())
                .add(request));
        List<DeviceConfig> config = new ArrayList<>();
        requestsByClass.forEach((className, requests) -> {
            DeviceClass deviceClass = ledger.inventory().deviceClass(className);
            for (DeviceConfig entry : deviceClass == null ? List.<DeviceConfig>of() : deviceClass.config()) {
                config.add(new DeviceConfig(DeviceConfig.FROM_CLASS, requests, entry.parameters()));
            }
        });
        for (DeviceConfig entry : claim.config()) {
            boolean applies = entry.requests().isEmpty() || entry.requests().stream().anyMatch(named ->
                    ways.containsKey(named) || ways.keySet().stream().anyMatch(way -> way.startsWith(named + "/")));
            if (applies) {
                config.add(new DeviceConfig(DeviceConfig.FROM_CLAIM, entry.requests(), entry.parameters()));
            }
        }
        return config.stream().map(entry -> entry.requests().size() == claim.requests().size()
                ? new DeviceConfig(entry.source(), List.of(), entry.parameters()) : entry).toList();
    }

    /** One depth-first search for one pod on one node. */
    private final class Search {
        private final List<DeviceClaim> claims;
        private final NodeInfo node;
        private final int[] reachable;
        /** Per claim, per request: which alternative is being tried. */
        private final List<Slot> slots = new ArrayList<>();
        /**
         * Per claim, per constraint: for matchAttribute, the value the devices chosen so far share and how many
         * carry it; for distinctAttribute, the values they carry, all different.
         */
        private final Object[][] values;
        private final int[][] holders;
        private final List<List<Set<Object>>> distinctValues = new ArrayList<>();
        private final List<Integer> chosen = new ArrayList<>();
        private final List<String> chosenFor = new ArrayList<>();
        private final List<DeviceRequest.Alternative> chosenWay = new ArrayList<>();
        private int steps;

        Search(List<DeviceClaim> claims, NodeInfo node) {
            this.claims = claims;
            this.node = node;
            this.reachable = ledger.inventory().reachableFrom(node);
            this.values = new Object[claims.size()][];
            this.holders = new int[claims.size()][];
            for (int c = 0; c < claims.size(); c++) {
                values[c] = new Object[claims.get(c).constraints().size()];
                holders[c] = new int[claims.get(c).constraints().size()];
                List<Set<Object>> sets = new ArrayList<>();
                for (DeviceConstraint constraint : claims.get(c).constraints()) {
                    sets.add(constraint.distinct() ? new HashSet<>() : null);
                }
                distinctValues.add(sets);
                for (DeviceRequest request : claims.get(c).requests()) {
                    slots.add(new Slot(c, request));
                }
            }
        }

        Map<String, DeviceAllocation> run() {
            if (!solve(0)) {
                return null;
            }
            Map<String, List<DeviceAllocation.AllocatedDevice>> devices = new LinkedHashMap<>();
            Map<String, Map<String, DeviceRequest.Alternative>> ways = new LinkedHashMap<>();
            Map<String, Boolean> local = new LinkedHashMap<>();
            for (DeviceClaim claim : claims) {
                devices.put(claim.key(), new ArrayList<>());
                ways.put(claim.key(), new LinkedHashMap<>());
                local.put(claim.key(), false);
            }
            DeviceInventory inventory = ledger.inventory();
            for (int i = 0; i < chosen.size(); i++) {
                int index = chosen.get(i);
                String[] owner = chosenFor.get(i).split("\u0000", 2);
                Device device = inventory.device(index);
                devices.get(owner[0]).add(new DeviceAllocation.AllocatedDevice(owner[1], device.driver(),
                        device.pool(), device.name(), chosenWay.get(i).tolerations()));
                ways.get(owner[0]).putIfAbsent(owner[1], chosenWay.get(i));
                if (inventory.nodeLocal(index)) {
                    local.put(owner[0], true);
                }
            }
            Map<String, DeviceAllocation> result = new LinkedHashMap<>();
            for (DeviceClaim claim : claims) {
                result.put(claim.key(), new DeviceAllocation(devices.get(claim.key()),
                        local.get(claim.key()) ? node.name() : null, config(claim, ways.get(claim.key()))));
            }
            return result;
        }

        private boolean solve(int slot) {
            if (slot == slots.size()) {
                return true;
            }
            Slot current = slots.get(slot);
            for (DeviceRequest.Alternative alternative : current.request().alternatives()) {
                boolean done = alternative.all() ? takeAll(slot, alternative) : take(slot, alternative, 0,
                        alternative.count());
                if (done) {
                    return true;
                }
                if (steps > STEP_LIMIT) {
                    return false;
                }
            }
            return false;
        }

        /** Takes {@code needed} more devices for the slot from {@code reachable[from...]}, then solves the next slots. */
        private boolean take(int slot, DeviceRequest.Alternative alternative, int from, int needed) {
            if (needed == 0) {
                return solve(slot + 1);
            }
            for (int i = from; i <= reachable.length - needed; i++) {
                if (++steps > STEP_LIMIT) {
                    return false;
                }
                int device = reachable[i];
                if (!usable(device, alternative) || !push(slot, alternative, device)) {
                    continue;
                }
                if (take(slot, alternative, i + 1, needed - 1)) {
                    return true;
                }
                pop(slot, alternative);
            }
            return false;
        }

        private boolean takeAll(int slot, DeviceRequest.Alternative alternative) {
            int pushed = 0;
            boolean possible = true;
            for (int device : reachable) {
                steps++;
                if (!ledger.inventory().matches(alternative, device)) {
                    continue;
                }
                if (ledger.inUse(device) || chosen.contains(device) || !ledger.inventory().offered(alternative, device)
                        || !push(slot, alternative, device)) {
                    possible = false;
                    break;
                }
                pushed++;
            }
            if (possible && pushed > 0 && solve(slot + 1)) {
                return true;
            }
            for (int i = 0; i < pushed; i++) {
                pop(slot, alternative);
            }
            return false;
        }

        private boolean usable(int device, DeviceRequest.Alternative alternative) {
            return !ledger.inUse(device) && ledger.inventory().matches(alternative, device)
                    && ledger.inventory().offered(alternative, device) && !chosen.contains(device);
        }

        /** Chooses the device for the slot if every constraint covering it allows. */
        private boolean push(int slot, DeviceRequest.Alternative alternative, int device) {
            Slot current = slots.get(slot);
            DeviceClaim claim = claims.get(current.claim());
            List<DeviceConstraint> constraints = claim.constraints();
            Device candidate = ledger.inventory().device(device);
            for (int k = 0; k < constraints.size(); k++) {
                DeviceConstraint constraint = constraints.get(k);
                if (!constraint.covers(current.request().name(), alternative.subrequest())) {
                    continue;
                }
                Object value = candidate.attributes().get(constraint.attribute());
                if (value == null) {
                    return false;
                }
                if (constraint.distinct()) {
                    if (distinctValues.get(current.claim()).get(k).contains(value)) {
                        return false;
                    }
                } else if (holders[current.claim()][k] > 0 && !Objects.equals(values[current.claim()][k], value)) {
                    return false;
                }
            }
            for (int k = 0; k < constraints.size(); k++) {
                DeviceConstraint constraint = constraints.get(k);
                if (constraint.covers(current.request().name(), alternative.subrequest())) {
                    Object value = candidate.attributes().get(constraint.attribute());
                    if (constraint.distinct()) {
                        distinctValues.get(current.claim()).get(k).add(value);
                    } else {
                        values[current.claim()][k] = value;
                        holders[current.claim()][k]++;
                    }
                }
            }
            chosen.add(device);
            String request = alternative.subrequest() == null ? current.request().name()
                    : current.request().name() + "/" + alternative.subrequest();
            chosenFor.add(claim.key() + "\u0000" + request);
            chosenWay.add(alternative);
            return true;
        }

        private void pop(int slot, DeviceRequest.Alternative alternative) {
            Slot current = slots.get(slot);
            List<DeviceConstraint> constraints = claims.get(current.claim()).constraints();
            Device last = ledger.inventory().device(chosen.get(chosen.size() - 1));
            for (int k = 0; k < constraints.size(); k++) {
                DeviceConstraint constraint = constraints.get(k);
                if (!constraint.covers(current.request().name(), alternative.subrequest())) {
                    continue;
                }
                if (constraint.distinct()) {
                    distinctValues.get(current.claim()).get(k).remove(last.attributes().get(constraint.attribute()));
                } else if (--holders[current.claim()][k] == 0) {
                    values[current.claim()][k] = null;
                }
            }
            chosen.remove(chosen.size() - 1);
            chosenFor.remove(chosenFor.size() - 1);
            chosenWay.remove(chosenWay.size() - 1);
        }
    }

    /** One request of one of the claims searched. */
    private record Slot(int claim, DeviceRequest request) {
    }
}
