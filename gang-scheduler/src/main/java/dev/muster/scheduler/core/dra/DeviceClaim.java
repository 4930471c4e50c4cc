package dev.muster.scheduler.core.dra;

import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.Objects;

/**
 * What the scheduler needs of a ResourceClaim (or of the claim a ResourceClaimTemplate will give a pod
 * that does not exist yet).
 *
 * @param namespace   the namespace
 * @param name        the claim's name
 * @param requests    {@code spec.devices.requests}
 * @param constraints {@code spec.devices.constraints}
 * @param allocation  {@code status.allocation}; {@code null} while unallocated
 * @param reservedFor names of the pods in {@code status.reservedFor}
 * @param config      {@code spec.devices.config}, copied into the allocation
 */
public record DeviceClaim(String namespace, String name, List<DeviceRequest> requests,
                          List<DeviceConstraint> constraints, DeviceAllocation allocation, List<String> reservedFor,
                          List<DeviceConfig> config) {
    public DeviceClaim {
        Objects.requireNonNull(namespace, "namespace");
        Objects.requireNonNull(name, "name");
        requests = List.copyOf(requests);
        constraints = constraints == null ? List.of() : List.copyOf(constraints);
        reservedFor = reservedFor == null ? List.of() : List.copyOf(reservedFor);
        config = config == null ? List.of() : List.copyOf(config);
    }

    /** A claim without config. */
    public DeviceClaim(String namespace, String name, List<DeviceRequest> requests, List<DeviceConstraint> constraints,
                       DeviceAllocation allocation, List<String> reservedFor) {
        this(namespace, name, requests, constraints, allocation, reservedFor, List.of());
    }

    /** This claim with another allocation. */
    public DeviceClaim withAllocation(DeviceAllocation other) {
        return new DeviceClaim(namespace, name, requests, constraints, other, reservedFor, config);
    }

    /** The claim this one, a template's, makes under another name: unallocated, reserved for no pod. */
    public DeviceClaim named(String claimNamespace, String claimName) {
        return new DeviceClaim(claimNamespace, claimName, requests, constraints, null, List.of(), config);
    }

    /** An unallocated claim. */
    public DeviceClaim(String namespace, String name, List<DeviceRequest> requests, List<DeviceConstraint> constraints) {
        this(namespace, name, requests, constraints, null, List.of());
    }

    /**
     * The key of the claim a ResourceClaimTemplate will give a pod, before it exists:
     * {@code namespace/pod/claim/template}, not a valid object name, so it names no existing claim.
     */
    public static String pendingKey(String namespace, String podName, String claimName, String templateName) {
        return namespace + "/" + podName + "/" + claimName + "/" + templateName;
    }

    /** Why a pod waits for a claim the scheduler does not know, in words, by the claim's key. */
    public static String missing(String key) {
        String[] parts = key.split("/");
        return parts.length == 4
                ? "pod " + parts[0] + "/" + parts[1] + " waits for the ResourceClaim of its claim " + parts[2]
                        + " (template " + parts[3] + ") to be created"
                : "ResourceClaim " + key + " does not exist";
    }

    /**
     * The devices the claim asks for, per class, as the resource {@link DeviceInventory#resourceName} names
     * them: the count of each request with one way to satisfy it by count; a {@code firstAvailable} request
     * with several ways, or one with {@code allocationMode: All}, asks for a number not known before
     * allocation and counts nothing.
     */
    public Map<String, Long> deviceCounts() {
        Map<String, Long> counts = new TreeMap<>();
        for (DeviceRequest request : requests) {
            if (request.alternatives().size() == 1 && !request.alternatives().get(0).all()) {
                DeviceRequest.Alternative only = request.alternatives().get(0);
                counts.merge(DeviceInventory.resourceName(only.deviceClassName()), (long) only.count(), Long::sum);
            }
        }
        return counts;
    }

    /**
     * How messages name the claim: {@code claim namespace/name}, or for the claim a template will make,
     * {@code claim <name> of pod namespace/pod (template <template>)}.
     */
    public String title() {
        String[] parts = key().split("/");
        return parts.length == 4 ? "claim " + parts[2] + " of pod " + parts[0] + "/" + parts[1] + " (template "
                + parts[3] + ")" : "claim " + key();
    }

    /** {@code namespace/name}, how pods and the ledger name a claim. */
    public String key() {
        return namespace + "/" + name;
    }

    @Override
    public String toString() {
        return key();
    }
}
