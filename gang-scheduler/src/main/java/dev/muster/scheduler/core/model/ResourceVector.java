package dev.muster.scheduler.core.model;

import dev.muster.api.QuantityFormat;

import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * An immutable amount of each resource: cpu in millicores, memory in bytes, pod slots, and any other
 * resource (extended resources such as {@code nvidia.com/gpu}, ephemeral-storage) in its integer unit.
 *
 * <p>Amounts live in a {@code long[]} indexed by a process-wide dimension number per resource name, so
 * that fit checks on the hot path are array reads instead of map look-ups. A cluster names only a few
 * dozen resources, so the dimension table stays tiny; it only grows. Missing trailing dimensions read
 * as zero, and trailing zeros are trimmed so that equal amounts have equal arrays.
 */
public final class ResourceVector {
    /** CPU, in millicores. */
    public static final String CPU = "cpu";
    /** Memory, in bytes. */
    public static final String MEMORY = "memory";
    /** Pod slots of a node. A pod's requests never name it: placing a pod always takes one slot. */
    public static final String PODS = "pods";

    /** The dimension of {@link #CPU}. */
    public static final int CPU_DIM = 0;
    /** The dimension of {@link #MEMORY}. */
    public static final int MEMORY_DIM = 1;
    /** The dimension of {@link #PODS}. */
    public static final int PODS_DIM = 2;

    private static final Map<String, Integer> DIMENSIONS = new ConcurrentHashMap<>();
    private static final List<String> NAMES = new ArrayList<>();

    static {
        dimensionOf(CPU);
        dimensionOf(MEMORY);
        dimensionOf(PODS);
    }

    /** No resources at all. */
    public static final ResourceVector ZERO = new ResourceVector(new long[0]);

    private final long[] amounts;

    private ResourceVector(long[] amounts) {
        this.amounts = amounts;
    }

    /** A vector with the given amounts per resource name; absent resources are zero. */
    public static ResourceVector of(Map<String, Long> amounts) {
        Builder builder = builder();
        amounts.forEach(builder::set);
        return builder.build();
    }

    /** Starts an empty vector. */
    public static Builder builder() {
        return new Builder();
    }

    /** The amount of one resource, zero if absent. */
    public long get(String resource) {
        Integer dim = DIMENSIONS.get(resource);
        return dim == null ? 0 : at(dim);
    }

    /** The element-wise sum. */
    public ResourceVector plus(ResourceVector other) {
        long[] sum = Arrays.copyOf(amounts, Math.max(amounts.length, other.amounts.length));
        for (int d = 0; d < other.amounts.length; d++) {
            sum[d] += other.amounts[d];
        }
        return new ResourceVector(trim(sum));
    }

    /** The element-wise maximum. */
    public ResourceVector max(ResourceVector other) {
        long[] max = Arrays.copyOf(amounts, Math.max(amounts.length, other.amounts.length));
        for (int d = 0; d < other.amounts.length; d++) {
            max[d] = Math.max(max[d], other.amounts[d]);
        }
        return new ResourceVector(trim(max));
    }

    /** The non-zero amounts by resource name, in dimension order (cpu, memory, pods first). */
    public Map<String, Long> asMap() {
        Map<String, Long> map = new LinkedHashMap<>();
        for (int d = 0; d < amounts.length; d++) {
            if (amounts[d] != 0) {
                map.put(nameOf(d), amounts[d]);
            }
        }
        return Collections.unmodifiableMap(map);
    }

    /**
     * An amount in the units vectors count (cpu in millicores, other resources in their base unit) for
     * messages, as {@link QuantityFormat} writes amounts for people: {@code 4} or {@code 500m} cpu,
     * {@code 16Gi} memory, {@code 8} GPUs.
     */
    public static String quantity(String resource, long amount) {
        BigDecimal base = CPU.equals(resource) ? BigDecimal.valueOf(amount, 3) : BigDecimal.valueOf(amount);
        return QuantityFormat.of(resource, base);
    }

    /** The amount of one resource dimension ({@link #dimensionOf}), 0 beyond the stored ones. */
    public long at(int dim) {
        return dim < amounts.length ? amounts[dim] : 0;
    }

    /** How many dimensions are stored: those past it read as 0. */
    public int length() {
        return amounts.length;
    }

    /** The process-wide dimension of a resource name, registered on first use. */
    public static int dimensionOf(String resource) {
        Integer dim = DIMENSIONS.get(resource);
        return dim != null ? dim : register(resource);
    }

    private static synchronized int register(String resource) {
        Integer dim = DIMENSIONS.get(resource);
        if (dim != null) {
            return dim;
        }
        NAMES.add(resource);
        DIMENSIONS.put(resource, NAMES.size() - 1);
        return NAMES.size() - 1;
    }

    /** The resource name of a registered dimension. */
    public static synchronized String nameOf(int dim) {
        return NAMES.get(dim);
    }

    /** How many dimensions are registered so far; it only grows. */
    public static synchronized int dimensionCount() {
        return NAMES.size();
    }

    private static long[] trim(long[] amounts) {
        int length = amounts.length;
        while (length > 0 && amounts[length - 1] == 0) {
            length--;
        }
        return length == amounts.length ? amounts : Arrays.copyOf(amounts, length);
    }

    @Override
    public boolean equals(Object o) {
        return this == o || o instanceof ResourceVector other && Arrays.equals(amounts, other.amounts);
    }

    @Override
    public int hashCode() {
        return Arrays.hashCode(amounts);
    }

    @Override
    public String toString() {
        return asMap().toString();
    }

    /** Collects amounts; setting a resource twice keeps the last amount. */
    public static final class Builder {
        private long[] amounts = new long[3];

        private Builder() {
        }

        /** CPU in millicores. */
        public Builder cpuMillis(long millis) {
            return set(CPU, millis);
        }

        /** Memory in bytes. */
        public Builder memoryBytes(long bytes) {
            return set(MEMORY, bytes);
        }

        /** Pod slots (for a node's allocatable). */
        public Builder pods(long pods) {
            return set(PODS, pods);
        }

        /** Any resource by its Kubernetes name, in its integer unit. */
        public Builder set(String resource, long amount) {
            if (amount < 0) {
                throw new IllegalArgumentException("negative amount of " + resource + ": " + amount);
            }
            int dim = dimensionOf(resource);
            if (dim >= amounts.length) {
                amounts = Arrays.copyOf(amounts, dim + 1);
            }
            amounts[dim] = amount;
            return this;
        }

        /** The vector; the builder may be reused. */
        public ResourceVector build() {
            return new ResourceVector(trim(amounts.clone()));
        }
    }
}
