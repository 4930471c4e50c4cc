package dev.muster.cli;

import dev.muster.api.QuantityFormat;
import io.fabric8.kubernetes.api.model.Quantity;

import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Collectors;

/** Resource lists in one table cell, each amount as {@link QuantityFormat} writes it. */
final class Quantities {
    private Quantities() {
    }

    /**
     * Amounts per resource in resource order, e.g. {@code cpu=4,memory=16Gi,nvidia.com/gpu=8};
     * {@value JobsCommand#NONE} when there are none.
     */
    static String format(Map<String, Quantity> amounts) {
        if (amounts == null || amounts.isEmpty()) {
            return JobsCommand.NONE;
        }
        return new TreeMap<>(amounts).entrySet().stream()
                .map(e -> e.getKey() + "=" + QuantityFormat.of(e.getKey(), e.getValue().getNumericalAmount()))
                .collect(Collectors.joining(","));
    }
}
