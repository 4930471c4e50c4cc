package dev.muster.scheduler.core.dra;

import dev.muster.scheduler.core.model.NodeInfo;
import java.util.ArrayList;
import java.util.BitSet;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Every device of a cycle's ResourceSlices, numbered, with the DeviceClasses; answers which devices a
 * node reaches and which pass a request's class and selectors, each computed once per cycle.
 */
public final class DeviceInventory {
    /**
     * Prefix of the resource that counts a class's devices, as Kubernetes names a DeviceClass's implicit
     * extended resource: {@code deviceclass.resource.kubernetes.io/<class>}.
     */
    public static final String RESOURCE_PREFIX = "deviceclass.resource.kubernetes.io/";

    private final List<Device> devices = new ArrayList<>();
    private final List<DeviceSlice> sliceOf = new ArrayList<>();
    private final Map<String, Integer> byId = new HashMap<>();
    private final Map<String, DeviceClass> classes = new HashMap<>();
    private final List<Integer> networkAttached = new ArrayList<>();
    private final Map<String, List<Integer>> onNode = new HashMap<>();
    private final Map<String, int[]> reachable = new HashMap<>();
    private final Map<DeviceRequest.Alternative, Verdicts> verdicts = new HashMap<>();
    private final Map<String, Map<String, Long>> classTotals = new HashMap<>();
    /** Devices Muster never allocates ({@link Device#notAllocated()}). */
    private final BitSet notAllocated = new BitSet();
    /** Devices with a taint that blocks allocation to a request that does not tolerate it. */
    private final BitSet tainted = new BitSet();
    /** Devices of slices with {@code perDeviceNodeSelection}, which reach no node. */
    private final BitSet placedPerDevice = new BitSet();

    /** An inventory of the slices' devices; a device published twice counts once (the first slice's). */
    public DeviceInventory(List<DeviceSlice> slices, List<DeviceClass> deviceClasses) {
        for (DeviceClass deviceClass : deviceClasses) {
            classes.put(deviceClass.name(), deviceClass);
        }
        for (DeviceSlice slice : slices) {
            for (Device device : slice.devices()) {
                if (byId.putIfAbsent(device.id(), devices.size()) != null) {
                    continue;
                }
                if (slice.nodeName() != null) {
                    onNode.computeIfAbsent(slice.nodeName(), node -> new ArrayList<>()).add(devices.size());
                } else {
                    networkAttached.add(devices.size());
                }
                if (device.notAllocated() != null) {
                    notAllocated.set(devices.size());
                }
                if (device.taints().stream().anyMatch(DeviceTaint::blocksAllocation)) {
                    tainted.set(devices.size());
                }
                if (slice.perDeviceNodeSelection()) {
                    placedPerDevice.set(devices.size());
                }
                devices.add(device);
                sliceOf.add(slice);
            }
        }
    }

    /** An inventory without devices. */
    public static DeviceInventory empty() {
        return new DeviceInventory(List.of(), List.of());
    }

    /** How many devices there are. */
    public int size() {
        return devices.size();
    }

    /** Device by number. */
    public Device device(int index) {
        return devices.get(index);
    }

    /** A device's number, or -1 if no slice publishes it. */
    public int indexOf(String id) {
        Integer index = byId.get(id);
        return index == null ? -1 : index;
    }

    /** Whether the device is on a node (else network-attached). */
    boolean nodeLocal(int index) {
        return sliceOf.get(index).nodeName() != null;
    }

    /** Whether a pod on the node can use the device. */
    public boolean reaches(int index, NodeInfo node) {
        return sliceOf.get(index).reaches(node);
    }

    /** The devices a pod on the node can use, in number order: the node's own, then network-attached. */
    int[] reachableFrom(NodeInfo node) {
        return reachable.computeIfAbsent(node.name(), name -> {
            List<Integer> own = onNode.getOrDefault(name, List.of());
            int[] result = new int[own.size() + networkAttached.size()];
            int count = 0;
            for (int index : own) {
                result[count++] = index;
            }
            for (int index : networkAttached) {
                if (sliceOf.get(index).reaches(node)) {
                    result[count++] = index;
                }
            }
            return count == result.length ? result : java.util.Arrays.copyOf(result, count);
        });
    }

    /** The resource that counts devices of the class. */
    public static String resourceName(String deviceClassName) {
        return RESOURCE_PREFIX + deviceClassName;
    }

    /**
     * Per class (as {@link #resourceName}), how many devices a pod on the node can use, network-attached
     * ones included, those Muster never allocates ({@link Device#notAllocated()}) not; classes without any are
     * left out.
     */
    public Map<String, Long> classTotals(NodeInfo node) {
        return classTotals.computeIfAbsent(node.name(), name -> {
            Map<String, Long> totals = new HashMap<>();
            for (DeviceClass deviceClass : classes.values()) {
                DeviceRequest.Alternative any = new DeviceRequest.Alternative(null, deviceClass.name(), List.of(), true, 0);
                long count = 0;
                for (int device : reachableFrom(node)) {
                    if (!notAllocated.get(device) && matches(any, device)) {
                        count++;
                    }
                }
                if (count > 0) {
                    totals.put(resourceName(deviceClass.name()), count);
                }
            }
            return totals;
        });
    }

    /** The class, or {@code null} if none by that name exists. */
    DeviceClass deviceClass(String name) {
        return classes.get(name);
    }

    /**
     * Whether the alternative may get the device, given that it matches: Muster allocates the device, and the
     * alternative tolerates each of its taints that blocks allocation.
     */
    boolean offered(DeviceRequest.Alternative alternative, int index) {
        return !notAllocated.get(index) && (!tainted.get(index) || devices.get(index).tolerated(alternative.tolerations()));
    }

    /**
     * Why some devices that pass the claim's classes and selectors are allocated on no node, whatever the node, naming
     * the ResourceSlice field, e.g. {@code perDeviceNodeSelection (devices that each name their node), which Muster
     * does not allocate}; {@code null} if no such device is left out.
     */
    public String leftOutEverywhere(DeviceClaim claim) {
        if (placedPerDevice.isEmpty()) {
            return null;
        }
        for (DeviceRequest request : claim.requests()) {
            for (DeviceRequest.Alternative alternative : request.alternatives()) {
                for (int device = placedPerDevice.nextSetBit(0); device >= 0; device = placedPerDevice.nextSetBit(device + 1)) {
                    if (matches(alternative, device)) {
                        return DeviceSlice.PER_DEVICE_NODE_SELECTION + ", which Muster does not allocate";
                    }
                }
            }
        }
        return null;
    }

    /** Whether the device is of the alternative's class and passes its class's and its own selectors. */
    boolean matches(DeviceRequest.Alternative alternative, int index) {
        Verdicts known = verdicts.computeIfAbsent(alternative, key -> new Verdicts(new BitSet(), new BitSet()));
        if (!known.evaluated().get(index)) {
            known.evaluated().set(index);
            if (evaluate(alternative, devices.get(index))) {
                known.matching().set(index);
            }
        }
        return known.matching().get(index);
    }

    private boolean evaluate(DeviceRequest.Alternative alternative, Device device) {
        DeviceClass deviceClass = classes.get(alternative.deviceClassName());
        if (deviceClass == null) {
            return false;
        }
        for (String selector : deviceClass.selectors()) {
            if (!DeviceSelectors.matches(selector, device)) {
                return false;
            }
        }
        for (String selector : alternative.selectors()) {
            if (!DeviceSelectors.matches(selector, device)) {
                return false;
            }
        }
        return true;
    }

    private record Verdicts(BitSet evaluated, BitSet matching) {
    }
}
