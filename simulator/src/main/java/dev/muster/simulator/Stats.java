package dev.muster.simulator;

import java.util.Arrays;

/**
 * Average and nearest-rank percentiles of a sample.
 *
 * @param count   values
 * @param average mean; NaN for no values
 * @param p50     median
 * @param p95     95th percentile
 * @param p99     99th percentile
 */
public record Stats(int count, double average, double p50, double p95, double p99) {

    /** The statistics of the values, which are not changed. */
    public static Stats of(double[] values) {
        double[] sorted = values.clone();
        Arrays.sort(sorted);
        return new Stats(sorted.length, Arrays.stream(sorted).average().orElse(Double.NaN),
                percentile(sorted, 50), percentile(sorted, 95), percentile(sorted, 99));
    }

    /** The nearest-rank percentile: the smallest value with at least {@code p} percent of values at or below it. */
    static double percentile(double[] sorted, double p) {
        if (sorted.length == 0) {
            return Double.NaN;
        }
        int rank = (int) Math.ceil(p / 100 * sorted.length);
        return sorted[Math.max(0, rank - 1)];
    }
}
