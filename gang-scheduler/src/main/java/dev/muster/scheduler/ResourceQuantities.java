package dev.muster.scheduler;

import dev.muster.scheduler.core.ResourceVector;
import io.fabric8.kubernetes.api.model.Quantity;

import java.math.BigDecimal;
import java.math.RoundingMode;
import java.util.Map;

/** Turns Kubernetes quantities into the core's integer units: millicores for cpu, base units otherwise. */
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

    static long amount(String resource, Quantity quantity) {
        BigDecimal amount = Quantity.getAmountInBytes(quantity);
        if (ResourceVector.CPU.equals(resource)) {
            amount = amount.multiply(THOUSAND);
        }
        return amount.setScale(0, RoundingMode.CEILING).longValueExact();
    }
}
