package dev.muster.scheduler.core.dra;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * One {@code config} entry of a DeviceClass or a claim ({@code spec.devices.config}): parameters for the driver
 * (e.g. NVIDIA's GPU sharing or ComputeDomain channel settings), which the scheduler does not read but copies
 * into the allocation, where the driver finds them, as kube-scheduler's allocator does.
 *
 * @param source     {@code FromClass} or {@code FromClaim} in an allocation; {@code null} as the class or claim gives it
 * @param requests   the requests (or {@code request/subrequest}s) it applies to; empty: every request
 * @param parameters the entry's other fields, as given (e.g. {@code opaque: {driver, parameters}})
 */
public record DeviceConfig(String source, List<String> requests, Map<String, Object> parameters) {
    /** The source of a DeviceClass's entry in an allocation. */
    public static final String FROM_CLASS = "FromClass";
    /** The source of a claim's entry in an allocation. */
    public static final String FROM_CLAIM = "FromClaim";

    public DeviceConfig {
        requests = requests == null ? List.of() : List.copyOf(requests);
        // Not Map.copyOf: the driver's parameters are the user's, and a null in them must not fail the read.
        parameters = parameters == null ? Map.of() : Collections.unmodifiableMap(new LinkedHashMap<>(parameters));
    }
}
