package dev.muster.scheduler.core.dra;

import java.util.List;
import java.util.Objects;

/**
 * One request of a claim: either {@code exactly} one way to satisfy it, or {@code firstAvailable}, a list
 * of ways tried in order.
 *
 * @param name         the request's name, unique within the claim
 * @param alternatives the ways to satisfy it: one for {@code exactly}, the subrequests of
 *                     {@code firstAvailable} in order
 * @param adminAccess  whether {@code exactly.adminAccess} is set; such a request is refused
 */
public record DeviceRequest(String name, List<Alternative> alternatives, boolean adminAccess) {
    public DeviceRequest {
        Objects.requireNonNull(name, "name");
        alternatives = List.copyOf(alternatives);
        if (alternatives.isEmpty()) {
            throw new IllegalArgumentException("request " + name + " has neither exactly nor firstAvailable");
        }
    }

    /** A request of {@code count} devices of a class. */
    public static DeviceRequest exactly(String name, String deviceClassName, int count, String... selectors) {
        return new DeviceRequest(name, List.of(new Alternative(null, deviceClassName, List.of(selectors), false,
                count)), false);
    }

    /**
     * One way to satisfy a request.
     *
     * @param subrequest      the subrequest's name for {@code firstAvailable}; {@code null} for {@code exactly}
     * @param deviceClassName the class every device must be of
     * @param selectors       the request's own CEL selectors
     * @param all             {@code allocationMode: All}: every matching device the node reaches, at least one
     * @param count           {@code allocationMode: ExactCount}: how many devices
     */
    public record Alternative(String subrequest, String deviceClassName, List<String> selectors, boolean all,
                              int count) {
        public Alternative {
            Objects.requireNonNull(deviceClassName, "deviceClassName");
            selectors = selectors == null ? List.of() : List.copyOf(selectors);
            if (!all && count < 1) {
                throw new IllegalArgumentException("count must be at least 1, was " + count);
            }
        }

        /** How many devices it wants, for messages; "all" for allocationMode All. */
        String countText() {
            return all ? "all" : Integer.toString(count);
        }
    }
}
