package dev.muster.api;

import java.math.BigDecimal;
import java.util.List;

/**
 * Resource amounts written the way manifests write them: {@code 500m} or {@code 4} cpu, {@code 16Gi} memory,
 * {@code 8} GPUs. The one rendering of an amount for people: the Queue status the scheduler writes and the
 * command line's tables and explanations both use it, so a queue reads the same in {@code kubectl get q -o yaml}
 * and in {@code ./muster queues}.
 */
public final class QuantityFormat {
    private static final BigDecimal THOUSAND = BigDecimal.valueOf(1000);
    private static final List<String> BINARY_SUFFIXES = List.of("Ei", "Pi", "Ti", "Gi", "Mi", "Ki");

    private QuantityFormat() {
    }

    /**
     * {@code amount}, in the base unit of {@code resource} (cores for cpu, bytes for memory-like resources),
     * in the largest unit that keeps it whole: a binary suffix for bytes, millis for a fraction, else plain.
     */
    public static String of(String resource, BigDecimal amount) {
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

    /** Whether {@code resource} is counted in bytes: memory, any storage, huge pages. */
    public static boolean isBytes(String resource) {
        return resource.equals("memory") || resource.contains("storage") || resource.startsWith("hugepages-");
    }
}
