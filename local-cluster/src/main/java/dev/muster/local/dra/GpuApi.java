package dev.muster.local.dra;

import java.util.Arrays;
import java.util.Locale;
import java.util.stream.Collectors;

/**
 * How the local cluster offers a simulated node's GPUs to pods: as the device plugin's {@code nvidia.com/gpu}
 * extended resource in the node's capacity, as devices of {@link SimulatedGpuDriver}'s ResourceSlice for DRA
 * claims, or both at once (the same GPUs counted twice: a cluster mixing both kinds of pods can hand one GPU to
 * one of each, which a real node with both plugins would not; use one of the others to test either path alone).
 */
public enum GpuApi {
    /** {@code nvidia.com/gpu} in the node's capacity only. */
    EXTENDED,
    /** A ResourceSlice of DRA devices only. */
    DRA,
    /** Both. */
    BOTH;

    /** Whether nodes report {@code nvidia.com/gpu}. */
    public boolean extendedResource() {
        return this != DRA;
    }

    /** Whether the simulated DRA driver publishes the nodes' GPUs. */
    public boolean dra() {
        return this != EXTENDED;
    }

    /** The value of a flag: {@code extended}, {@code dra} or {@code both}, in any case. */
    public static GpuApi parse(String value) {
        try {
            return valueOf(value.trim().toUpperCase(Locale.ROOT));
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("GPU API must be one of " + Arrays.stream(values())
                    .map(v -> v.name().toLowerCase(Locale.ROOT)).collect(Collectors.joining(", ")) + ", got " + value);
        }
    }
}
