package dev.muster.scheduler.core.dra;

import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * One device a driver publishes in a ResourceSlice.
 *
 * @param driver                   the driver's name, which is also the domain of its unqualified attribute names
 * @param pool                     the pool the slice belongs to
 * @param name                     the device's name, unique within the pool
 * @param attributes               attribute values by fully qualified name ({@code domain/id}): {@link Long},
 *                                 {@link Boolean} or {@link String} (a version attribute is kept as its string)
 * @param capacity                 capacities by fully qualified name, as integers in the quantity's base unit
 * @param taints                   {@code taints}: a request gets the device only if it tolerates each that
 *                                 {@linkplain DeviceTaint#blocksAllocation() blocks allocation}
 * @param consumesCounters         whether {@code consumesCounters} is set: a partition of a device whose counters
 *                                 (the slice's {@code sharedCounters}) other partitions share; not allocated
 * @param allowMultipleAllocations {@code allowMultipleAllocations}: a device whose capacity several claims
 *                                 consume at once; not allocated
 * @param bindingConditions        whether {@code bindingConditions} is set: a device that must become ready
 *                                 (e.g. attached over a fabric) before the pod binds; not allocated
 */
public record Device(String driver, String pool, String name, Map<String, Object> attributes,
                     Map<String, Long> capacity, List<DeviceTaint> taints, boolean consumesCounters,
                     boolean allowMultipleAllocations, boolean bindingConditions) {
    public Device {
        Objects.requireNonNull(driver, "driver");
        Objects.requireNonNull(pool, "pool");
        Objects.requireNonNull(name, "name");
        attributes = attributes == null ? Map.of() : Map.copyOf(attributes);
        capacity = capacity == null ? Map.of() : Map.copyOf(capacity);
        taints = taints == null ? List.of() : List.copyOf(taints);
    }

    /** The device with these taints instead of its own (a DeviceTaintRule's added to the driver's). */
    public Device withTaints(List<DeviceTaint> newTaints) {
        return new Device(driver, pool, name, attributes, capacity, newTaints, consumesCounters,
                allowMultipleAllocations, bindingConditions);
    }

    /** The device's identity in an allocation: {@code driver/pool/name}. */
    public String id() {
        return driver + "/" + pool + "/" + name;
    }

    /**
     * Why Muster never allocates the device, naming the ResourceSlice field, or {@code null} if it may: it cannot
     * account for counters shared among partitions, nor for capacity consumed by several claims, so it hands out
     * neither as if the device were whole; nor does it wait for a device's binding conditions before binding.
     */
    public String notAllocated() {
        if (consumesCounters) {
            return "consumesCounters (a partitionable device)";
        }
        if (allowMultipleAllocations) {
            return "allowMultipleAllocations (consumable capacity)";
        }
        if (bindingConditions) {
            return "bindingConditions (a device that binds late)";
        }
        return null;
    }

    /** Whether a request with these tolerations may get the device: each taint that blocks allocation is tolerated. */
    public boolean tolerated(List<DeviceToleration> tolerations) {
        for (DeviceTaint taint : taints) {
            if (taint.blocksAllocation() && tolerations.stream().noneMatch(toleration -> toleration.tolerates(taint))) {
                return false;
            }
        }
        return true;
    }

    /**
     * An attribute or capacity name as kube-scheduler resolves it: a name without a domain is in the
     * driver's.
     */
    public static String qualified(String driver, String name) {
        return name.indexOf('/') >= 0 ? name : driver + "/" + name;
    }
}
