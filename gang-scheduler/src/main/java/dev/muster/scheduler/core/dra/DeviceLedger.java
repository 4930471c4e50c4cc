package dev.muster.scheduler.core.dra;

import dev.muster.scheduler.core.model.NodeInfo;
import java.util.BitSet;
import java.util.Collection;
import java.util.HashMap;
import java.util.Map;

/**
 * Which devices are allocated, and to which claim, during one cycle: the claims' allocations as their
 * status showed them when the cycle began, plus what the cycle's trials allocated since. A device is
 * allocated to one claim at a time. Gang trials change it through their placement statement, which undoes
 * the changes of a discarded trial. Not thread-safe: the cycle thread owns it.
 */
public final class DeviceLedger {
    private final DeviceInventory inventory;
    private final Map<String, DeviceClaim> claims = new HashMap<>();
    private final Map<String, DeviceAllocation> allocations = new HashMap<>();
    private final BitSet inUse = new BitSet();

    /** The ledger of the claims as they are; an allocated claim's devices are in use. */
    public DeviceLedger(DeviceInventory inventory, Collection<DeviceClaim> known) {
        this.inventory = inventory;
        for (DeviceClaim claim : known) {
            claims.put(claim.key(), claim);
            if (claim.allocation() != null) {
                allocate(claim.key(), claim.allocation());
            }
        }
    }

    /** A ledger without devices and claims. */
    public static DeviceLedger empty() {
        return new DeviceLedger(DeviceInventory.empty(), java.util.List.of());
    }

    /** The devices. */
    public DeviceInventory inventory() {
        return inventory;
    }

    /** The claim by {@code namespace/name}, or {@code null} if the scheduler does not know it. */
    public DeviceClaim claim(String key) {
        return claims.get(key);
    }

    /**
     * Makes a claim known that exists nowhere yet: the one a ResourceClaimTemplate will give a pod that is
     * still to be created, which admission counts.
     */
    public void addClaim(DeviceClaim claim) {
        claims.putIfAbsent(claim.key(), claim);
    }

    /** The claim's allocation now, or {@code null}. */
    public DeviceAllocation allocation(String claimKey) {
        return allocations.get(claimKey);
    }

    /** Whether the device is allocated to some claim. */
    public boolean inUse(int device) {
        return inUse.get(device);
    }

    /** How many devices are allocated. */
    public int devicesInUse() {
        return inUse.cardinality();
    }

    /** Records the claim's allocation; its devices are in use from now on. */
    public void allocate(String claimKey, DeviceAllocation allocation) {
        if (allocations.putIfAbsent(claimKey, allocation) != null) {
            throw new IllegalStateException("claim " + claimKey + " is already allocated");
        }
        for (DeviceAllocation.AllocatedDevice device : allocation.devices()) {
            int index = inventory.indexOf(device.id());
            if (index >= 0) {
                inUse.set(index);
            }
        }
    }

    /** Takes the claim's allocation back; its devices are free again. */
    public void release(String claimKey) {
        DeviceAllocation allocation = allocations.remove(claimKey);
        if (allocation == null) {
            return;
        }
        for (DeviceAllocation.AllocatedDevice device : allocation.devices()) {
            int index = inventory.indexOf(device.id());
            if (index >= 0) {
                inUse.clear(index);
            }
        }
    }

    /** Whether a pod on the node can use an allocation: every device on the node or reachable from it. */
    public boolean reaches(DeviceAllocation allocation, NodeInfo node) {
        if (allocation.nodeName() != null) {
            return allocation.nodeName().equals(node.name());
        }
        for (DeviceAllocation.AllocatedDevice device : allocation.devices()) {
            int index = inventory.indexOf(device.id());
            if (index < 0 || !inventory.reaches(index, node)) {
                return false;
            }
        }
        return true;
    }
}
