package dev.muster.scheduler.core.cluster;

import dev.muster.scheduler.core.model.ResourceVector;

import java.util.Arrays;

/**
 * The mutable running total of what the pods on one node request, including the pod slots they take.
 * Kept as a bare {@code long[]} because fit checks read it for every node a pod is tried on.
 */
public final class ResourceTally {
    private long[] amounts;

    /** An empty tally: nothing requested, no pod slot taken. */
    public ResourceTally() {
        this.amounts = new long[ResourceVector.dimensionCount()];
    }

    private ResourceTally(long[] amounts) {
        this.amounts = amounts;
    }

    /** The amount requested of one resource dimension ({@link ResourceVector#dimensionOf}), 0 if none. */
    public long at(int dim) {
        return dim < amounts.length ? amounts[dim] : 0;
    }

    /** Adds a pod: its requests and one pod slot. */
    public void addPod(ResourceVector requests) {
        grow(requests.length());
        for (int d = 0; d < requests.length(); d++) {
            amounts[d] += requests.at(d);
        }
        amounts[ResourceVector.PODS_DIM]++;
    }

    /** Removes a pod added before; exact, so a discarded trial leaves no trace. */
    void removePod(ResourceVector requests) {
        grow(requests.length());
        for (int d = 0; d < requests.length(); d++) {
            amounts[d] -= requests.at(d);
        }
        amounts[ResourceVector.PODS_DIM]--;
    }

    /** Whether no pod is counted any more. */
    boolean isEmpty() {
        return amounts[ResourceVector.PODS_DIM] == 0;
    }

    ResourceTally copy() {
        return new ResourceTally(amounts.clone());
    }

    ResourceVector toVector() {
        ResourceVector.Builder builder = ResourceVector.builder();
        for (int d = 0; d < amounts.length; d++) {
            if (amounts[d] != 0) {
                builder.set(ResourceVector.nameOf(d), amounts[d]);
            }
        }
        return builder.build();
    }

    private void grow(int length) {
        int needed = Math.max(length, ResourceVector.PODS_DIM + 1);
        if (needed > amounts.length) {
            amounts = Arrays.copyOf(amounts, needed);
        }
    }
}
