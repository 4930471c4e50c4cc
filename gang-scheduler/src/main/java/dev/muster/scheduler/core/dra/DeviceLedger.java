package dev.muster.scheduler.core.dra;

import dev.muster.scheduler.core.model.NodeInfo;
import java.util.BitSet;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Which devices are allocated, and to which claim, during one cycle: the claims' allocations as their
 * status showed them when the cycle began, plus what the cycle's trials allocated since. A device is
 * allocated to one claim at a time. Gang trials change it through their placement statement, which undoes
 * the changes of a discarded trial.
 *
 * <p>A trial that evicts a bound pod (preemption, or a reservation counting on pods that end) frees the
 * claims of the pod that no one else uses: those whose every consumer in {@code status.reservedFor} is
 * evicted too. That is what follows the eviction in the cluster, where the resourceclaim controller drops
 * the gone pod from {@code reservedFor}, deallocates a claim no pod uses and deletes a claim made for the pod
 * from a template. kube-scheduler's preemption does not do this (its DynamicResources plugin has no
 * {@code PreFilterExtensions}, so a victim's devices stay taken in its dry run, KEP-5690), which leaves a
 * GPU job unable to preempt a lower-priority one for devices asked through claims. Not thread-safe: the
 * cycle thread owns it.
 */
public final class DeviceLedger {
    private final DeviceInventory inventory;
    private final Map<String, DeviceClaim> claims = new HashMap<>();
    private final Map<String, DeviceAllocation> allocations = new HashMap<>();
    private final BitSet inUse = new BitSet();
    /** The pods ({@code namespace/name}) the cycle's trials evicted, as far as they were not undone. */
    private final Set<String> evicted = new HashSet<>();

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

    /**
     * Records the eviction of a bound pod and frees the claims of it that no pod left uses: those whose every
     * consumer ({@code status.reservedFor}, the pod itself included) is now evicted.
     *
     * @param namespace the pod's namespace
     * @param pod       the pod's name
     * @param claimKeys the pod's claims as {@code namespace/name}
     * @return per claim freed, the allocation it had, for {@link #unevict}
     */
    public Map<String, DeviceAllocation> evict(String namespace, String pod, List<String> claimKeys) {
        evicted.add(namespace + "/" + pod);
        Map<String, DeviceAllocation> freed = new LinkedHashMap<>();
        for (String key : claimKeys) {
            DeviceAllocation allocation = allocations.get(key);
            DeviceClaim claim = claims.get(key);
            if (allocation != null && claim != null && usedOnlyBy(claim, evicted)) {
                release(key);
                freed.put(key, allocation);
            }
        }
        return freed;
    }

    /** Undoes {@link #evict}: the pod is no longer evicted and the claims it freed are allocated again. */
    public void unevict(String namespace, String pod, Map<String, DeviceAllocation> freed) {
        freed.forEach(this::allocate);
        evicted.remove(namespace + "/" + pod);
    }

    /**
     * Whether the claim is still allocated for none but the given pods: once they are gone, the resourceclaim
     * controller will deallocate or delete it, but until the scheduler sees that, its devices are taken.
     *
     * @param claimKey the claim as {@code namespace/name}
     * @param pods     pods as {@code namespace/name}
     */
    public boolean heldOnlyFor(String claimKey, Set<String> pods) {
        DeviceClaim claim = claims.get(claimKey);
        return claim != null && allocations.get(claimKey) != null && usedOnlyBy(claim, pods);
    }

    /** Whether every consumer of the claim ({@code status.reservedFor}) is among the pods ({@code namespace/name}). */
    private static boolean usedOnlyBy(DeviceClaim claim, Set<String> pods) {
        for (String consumer : claim.reservedFor()) {
            if (!pods.contains(claim.namespace() + "/" + consumer)) {
                return false;
            }
        }
        return true;
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
