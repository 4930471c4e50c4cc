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
 * @param refused      the fields it sets that Muster does not allocate, as a user would find them (e.g.
 *                     {@code adminAccess}, {@code exactly.capacity.requests}); a request with any is refused
 */
public record DeviceRequest(String name, List<Alternative> alternatives, List<String> refused) {
    /** The field of a request for admin access to devices (for monitoring), which Muster does not allocate. */
    public static final String ADMIN_ACCESS = "adminAccess";

    public DeviceRequest {
        Objects.requireNonNull(name, "name");
        alternatives = List.copyOf(alternatives);
        refused = refused == null ? List.of() : List.copyOf(refused);
        if (alternatives.isEmpty()) {
            throw new IllegalArgumentException("request " + name + " has neither exactly nor firstAvailable");
        }
    }

    /** A request of {@code count} devices of a class. */
    public static DeviceRequest exactly(String name, String deviceClassName, int count, String... selectors) {
        return new DeviceRequest(name, List.of(new Alternative(null, deviceClassName, List.of(selectors), false,
                count)), List.of());
    }

    /**
     * One way to satisfy a request.
     *
     * @param subrequest      the subrequest's name for {@code firstAvailable}; {@code null} for {@code exactly}
     * @param deviceClassName the class every device must be of
     * @param selectors       the request's own CEL selectors
     * @param all             {@code allocationMode: All}: every matching device the node reaches, at least one
     * @param count           {@code allocationMode: ExactCount}: how many devices
     * @param tolerations     the device taints it tolerates
     */
    public record Alternative(String subrequest, String deviceClassName, List<String> selectors, boolean all,
                              int count, List<DeviceToleration> tolerations) {
        public Alternative {
            Objects.requireNonNull(deviceClassName, "deviceClassName");
            selectors = selectors == null ? List.of() : List.copyOf(selectors);
            tolerations = tolerations == null ? List.of() : List.copyOf(tolerations);
            if (!all && count < 1) {
                throw new IllegalArgumentException("count must be at least 1, was " + count);
            }
        }

        /** A way that tolerates no taint. */
        public Alternative(String subrequest, String deviceClassName, List<String> selectors, boolean all, int count) {
            this(subrequest, deviceClassName, selectors, all, count, List.of());
        }

        /** How many devices it wants, for messages; "all" for allocationMode All. */
        String countText() {
            return all ? "all" : Integer.toString(count);
        }
    }
}
