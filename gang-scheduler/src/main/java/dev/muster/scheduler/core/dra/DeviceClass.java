package dev.muster.scheduler.core.dra;

import java.util.List;
import java.util.Objects;

/**
 * A DeviceClass: the selectors every device of the class must pass, on top of a request's own.
 *
 * @param name      the class's name
 * @param selectors CEL expressions over {@code device}
 * @param config    {@code spec.config}, copied into the allocations of requests of the class
 */
public record DeviceClass(String name, List<String> selectors, List<DeviceConfig> config) {
    public DeviceClass {
        Objects.requireNonNull(name, "name");
        selectors = selectors == null ? List.of() : List.copyOf(selectors);
        config = config == null ? List.of() : List.copyOf(config);
    }

    /** A class without config. */
    public DeviceClass(String name, List<String> selectors) {
        this(name, selectors, List.of());
    }
}
