package dev.muster.scheduler;

import dev.muster.scheduler.core.ResourceVector;
import io.fabric8.kubernetes.api.model.Quantity;

import java.math.BigDecimal;
import java.math.RoundingMode;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Turns Kubernetes quantities into the core's integer units (millicores for cpu, base units otherwise) and
 * back.
 */
final class ResourceQuantities {
    private static final BigDecimal THOUSAND = BigDecimal.valueOf(1000);
    private static final List<String> BINARY_SUFFIXES = List.of("Ki", "Mi", "Gi", "Ti", "Pi");

    private ResourceQuantities() {
    }

    /** A resource list as a vector; amounts are rounded up, as kube-scheduler's MilliValue and Value do. */
    static ResourceVector toVector(Map<String, Quantity> quantities) {
        ResourceVector.Builder builder = ResourceVector.builder();
        if (quantities != null) {
            quantities.forEach((resource, quantity) -> builder.set(resource, amount(resource, quantity)));
        }
        return builder.build();
    }

    /**
     * A vector as a resource list, pod slots left out: cpu in cores or millicores ({@code 4}, {@code 500m}),
     * other amounts whole, with the largest binary suffix that divides them for memory-like amounts
     * ({@code 16Gi}); empty for a zero vector.
     */
    static Map<String, Quantity> toQuantities(ResourceVector vector) {
        Map<String, Quantity> quantities = new TreeMap<>();
        vector.asMap().forEach((resource, amount) -> {
            if (!ResourceVector.PODS.equals(resource)) {
                quantities.put(resource, new Quantity(format(resource, amount)));
            }
        });
        return quantities;
    }

    private static String format(String resource, long amount) {
        if (ResourceVector.CPU.equals(resource)) {
            return amount % 1000 == 0 ? String.valueOf(amount / 1000) : amount + "m";
        }
        if (ResourceVector.MEMORY.equals(resource) || resource.contains("storage")) {
            long value = amount;
            int suffix = -1;
            while (suffix + 1 < BINARY_SUFFIXES.size() && value % 1024 == 0) {
                value /= 1024;
                suffix++;
            }
            return suffix < 0 ? String.valueOf(amount) : value + BINARY_SUFFIXES.get(suffix);
        }
        return String.valueOf(amount);
    }

    static long amount(String resource, Quantity quantity) {
        BigDecimal amount = Quantity.getAmountInBytes(quantity);
        if (ResourceVector.CPU.equals(resource)) {
            amount = amount.multiply(THOUSAND);
        }
        return amount.setScale(0, RoundingMode.CEILING).longValueExact();
    }
}
