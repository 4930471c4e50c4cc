package dev.muster.scheduler.core.dra;

import java.util.Map;
import java.util.Objects;

/**
 * One device a driver publishes in a ResourceSlice.
 *
 * @param driver     the driver's name, which is also the domain of its unqualified attribute names
 * @param pool       the pool the slice belongs to
 * @param name       the device's name, unique within the pool
 * @param attributes attribute values by fully qualified name ({@code domain/id}): {@link Long},
 *                   {@link Boolean} or {@link String} (a version attribute is kept as its string)
 * @param capacity   capacities by fully qualified name, as integers in the quantity's base unit
 */
public record Device(String driver, String pool, String name, Map<String, Object> attributes,
                     Map<String, Long> capacity) {
    public Device {
        Objects.requireNonNull(driver, "driver");
        Objects.requireNonNull(pool, "pool");
        Objects.requireNonNull(name, "name");
        attributes = attributes == null ? Map.of() : Map.copyOf(attributes);
        capacity = capacity == null ? Map.of() : Map.copyOf(capacity);
    }

    /** The device's identity in an allocation: {@code driver/pool/name}. */
    public String id() {
        return driver + "/" + pool + "/" + name;
    }

    /**
     * An attribute or capacity name as kube-scheduler resolves it: a name without a domain is in the
     * driver's.
     */
    public static String qualified(String driver, String name) {
        return name.indexOf('/') >= 0 ? name : driver + "/" + name;
    }
}
