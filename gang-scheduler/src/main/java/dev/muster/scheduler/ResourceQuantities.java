package dev.muster.scheduler;

import dev.muster.api.QuantityFormat;
import dev.muster.scheduler.core.model.ResourceVector;
import io.fabric8.kubernetes.api.model.Quantity;

import java.math.BigDecimal;
import java.math.RoundingMode;
import java.util.Map;
import java.util.TreeMap;

/**
 * Turns Kubernetes quantities into the core's integer units (millicores for cpu, base units otherwise) and
 * back.
 */
final class ResourceQuantities {
    private static final BigDecimal THOUSAND = BigDecimal.valueOf(1000);

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
     * A vector as a resource list, pod slots left out, each amount written as {@link QuantityFormat} writes it
     * ({@code 4}, {@code 500m}, {@code 16Gi}); empty for a zero vector.
     */
    static Map<String, Quantity> toQuantities(ResourceVector vector) {
        Map<String, Quantity> quantities = new TreeMap<>();
        vector.asMap().forEach((resource, amount) -> {
            if (!ResourceVector.PODS.equals(resource)) {
                BigDecimal base = ResourceVector.CPU.equals(resource) ? BigDecimal.valueOf(amount, 3) : BigDecimal.valueOf(amount);
                quantities.put(resource, new Quantity(QuantityFormat.of(resource, base)));
            }
        });
        return quantities;
    }

    static long amount(String resource, Quantity quantity) {
        BigDecimal amount = Quantity.getAmountInBytes(quantity);
        if (ResourceVector.CPU.equals(resource)) {
            amount = amount.multiply(THOUSAND);
        }
        return amount.setScale(0, RoundingMode.CEILING).longValueExact();
    }
}
