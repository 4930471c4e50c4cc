package dev.muster.cli;

import io.fabric8.kubernetes.api.model.Quantity;

import java.math.BigDecimal;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Collectors;

/** Resource amounts written back the way manifests write them: {@code 500m} cpu, {@code 8Gi} memory, {@code 4} GPUs. */
final class Quantities {
    private static final BigDecimal THOUSAND = BigDecimal.valueOf(1000);
    private static final List<String> BINARY_SUFFIXES = List.of("Ei", "Pi", "Ti", "Gi", "Mi", "Ki");

    private Quantities() {
    }

    /** {@code amount}, in the base unit of {@code resource}, in the largest unit that keeps it whole. */
    static String format(String resource, BigDecimal amount) {
        if (isBytes(resource)) {
            for (int i = 0; i < BINARY_SUFFIXES.size(); i++) {
                BigDecimal unit = BigDecimal.valueOf(2).pow(10 * (BINARY_SUFFIXES.size() - i));
                BigDecimal[] division = amount.divideAndRemainder(unit);
                if (division[1].signum() == 0 && division[0].signum() > 0) {
                    return division[0].toPlainString() + BINARY_SUFFIXES.get(i);
                }
            }
        } else if (amount.stripTrailingZeros().scale() > 0) {
            return amount.multiply(THOUSAND).stripTrailingZeros().toPlainString() + "m";
        }
        return amount.stripTrailingZeros().toPlainString();
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
                .map(e -> e.getKey() + "=" + format(e.getKey(), e.getValue().getNumericalAmount()))
                .collect(Collectors.joining(","));
    }

    private static boolean isBytes(String resource) {
        return resource.equals("memory") || resource.equals("ephemeral-storage") || resource.startsWith("hugepages-");
    }
}
