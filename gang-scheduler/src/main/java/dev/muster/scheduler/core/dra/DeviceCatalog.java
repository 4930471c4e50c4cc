package dev.muster.scheduler.core.dra;

import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The scheduler's copy of the DRA objects as the informers show them (ResourceSlices, DeviceClasses,
 * DeviceTaintRules, ResourceClaims, ResourceClaimTemplates), plus the allocations the scheduler made that the
 * informer does not show yet; hands each cycle a fresh {@link DeviceLedger}. The inventory of devices, with the
 * rules' taints on the devices they select, is rebuilt only when a slice, class or rule changed. Not thread-safe:
 * the scheduler cache guards it.
 */
public final class DeviceCatalog {
    private final Map<String, DeviceSlice> slices = new LinkedHashMap<>();
    private final Map<String, DeviceClass> classes = new LinkedHashMap<>();
    private final Map<String, DeviceTaintRule> taintRules = new LinkedHashMap<>();
    private final Map<String, DeviceClaim> claims = new HashMap<>();
    private final Map<String, DeviceClaim> templates = new HashMap<>();
    /** Allocations written (or being written) by the scheduler that the claim's informer copy lacks. */
    private final Map<String, DeviceAllocation> assumed = new HashMap<>();
    private DeviceInventory inventory;

    /** Adds or replaces a slice; returns whether devices changed. */
    public boolean putSlice(DeviceSlice slice) {
        return devicesChangedIf(!slice.equals(slices.put(slice.name(), slice)));
    }

    public boolean removeSlice(String name) {
        return devicesChangedIf(slices.remove(name) != null);
    }

    /** Adds or replaces a class; returns whether it changed. */
    public boolean putClass(DeviceClass deviceClass) {
        return devicesChangedIf(!deviceClass.equals(classes.put(deviceClass.name(), deviceClass)));
    }

    public boolean removeClass(String name) {
        return devicesChangedIf(classes.remove(name) != null);
    }

    /** Adds or replaces a DeviceTaintRule; returns whether it changed. */
    public boolean putTaintRule(DeviceTaintRule rule) {
        return devicesChangedIf(!rule.equals(taintRules.put(rule.name(), rule)));
    }

    public boolean removeTaintRule(String name) {
        return devicesChangedIf(taintRules.remove(name) != null);
    }

    /** Drops the inventory if the devices changed, so that the next ledger rebuilds it; returns {@code changed}. */
    private boolean devicesChangedIf(boolean changed) {
        inventory = changed ? null : inventory;
        return changed;
    }

    /**
     * Adds or replaces a claim. Once the claim shows an allocation, the scheduler's assumption about it is
     * dropped: the informer's copy speaks for it from then on.
     */
    public boolean putClaim(DeviceClaim claim) {
        if (claim.allocation() != null) {
            assumed.remove(claim.key());
        }
        return !claim.equals(claims.put(claim.key(), claim));
    }

    public boolean removeClaim(String key) {
        assumed.remove(key);
        return claims.remove(key) != null;
    }

    /** Adds or replaces a template, given as the claim it makes under the template's own name. */
    public boolean putTemplate(DeviceClaim template) {
        return !template.equals(templates.put(template.key(), template));
    }

    public boolean removeTemplate(String key) {
        return templates.remove(key) != null;
    }

    /** The claim a template makes, as {@code namespace/name} of a claim to be, or {@code null} if no such template. */
    public DeviceClaim fromTemplate(String templateKey, String claimNamespace, String claimName) {
        DeviceClaim template = templates.get(templateKey);
        return template == null ? null
                : template.named(claimNamespace, claimName);
    }

    /**
     * The devices a pod asks for through the claims its templates make, per class resource
     * ({@link DeviceClaim#deviceCounts}); a template not known (yet) counts nothing.
     *
     * @param templateKeys the templates as {@code namespace/name}, one per claim the pod makes from one
     */
    public Map<String, Long> requestsOf(List<String> templateKeys) {
        Map<String, Long> counts = new java.util.TreeMap<>();
        for (String key : templateKeys) {
            DeviceClaim template = templates.get(key);
            if (template != null) {
                template.deviceCounts().forEach((resource, count) -> counts.merge(resource, count, Long::sum));
            }
        }
        return counts;
    }

    /** The scheduler allocated the claim; counts as allocated until the informer shows it so. */
    public void assume(String claimKey, DeviceAllocation allocation) {
        DeviceClaim known = claims.get(claimKey);
        if (known == null || known.allocation() == null) {
            assumed.put(claimKey, allocation);
        }
    }

    /** Writing the allocation failed: the claim's devices are free again. */
    public void forget(String claimKey) {
        assumed.remove(claimKey);
    }

    /** The claim as the informer last showed it, or {@code null}. */
    public DeviceClaim claim(String key) {
        return claims.get(key);
    }

    /**
     * A ledger for one cycle: every known claim with its allocation (or the one assumed), plus the claims
     * templates will make for pods still to be created.
     */
    public DeviceLedger ledger(Collection<DeviceClaim> toBeCreated) {
        if (inventory == null) {
            List<DeviceSlice> tainted = DeviceTaintRule.apply(new ArrayList<>(slices.values()),
                    new ArrayList<>(taintRules.values()), classes);
            inventory = new DeviceInventory(tainted, new ArrayList<>(classes.values()));
        }
        List<DeviceClaim> known = new ArrayList<>(claims.size() + toBeCreated.size());
        for (DeviceClaim claim : claims.values()) {
            DeviceAllocation allocation = assumed.get(claim.key());
            known.add(allocation == null ? claim : claim.withAllocation(allocation));
        }
        known.addAll(toBeCreated);
        return new DeviceLedger(inventory, known);
    }
}
