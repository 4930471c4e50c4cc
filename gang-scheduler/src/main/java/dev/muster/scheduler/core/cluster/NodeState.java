package dev.muster.scheduler.core.cluster;

import dev.muster.scheduler.core.model.NodeInfo;
import dev.muster.scheduler.core.model.PodInfo;
import dev.muster.scheduler.core.model.ResourceVector;

import java.util.List;

/**
 * A node within a {@link ClusterSnapshot}: its {@link NodeInfo} and what the pods on it request. Trials
 * place and unplace pods on it; nothing else changes it.
 */
public final class NodeState {
    private final NodeInfo info;
    private final ResourceTally requested;
    private final int index;
    /** The pods counted on the node when the snapshot was taken; trials do not change it. */
    private final List<PodInfo> pods;

    NodeState(NodeInfo info, ResourceTally requested, int index, List<PodInfo> pods) {
        this.info = info;
        this.requested = requested;
        this.index = index;
        this.pods = pods;
    }

    /** The same node, with the same pods and usage, described by another {@link NodeInfo}. */
    NodeState withInfo(NodeInfo other) {
        return new NodeState(other, requested, index, pods);
    }

    /** The node as the informer last showed it. */
    public NodeInfo info() {
        return info;
    }

    /** The node's name. */
    public String name() {
        return info.name();
    }

    /** Position in the snapshot's name-sorted node array. */
    public int index() {
        return index;
    }

    /** The pods on the node when the snapshot was taken, as far as the scheduler knows them. */
    public List<PodInfo> snapshotPods() {
        return pods;
    }

    /** What the pods on this node request in total, including the pod slots they take. */
    public ResourceVector requested() {
        return requested.toVector();
    }

    /** What the pods on this node request of one dimension, without copying the whole tally. */
    public long requested(int dim) {
        return requested.at(dim);
    }

    /** Allocatable minus requested; negative when pods of other schedulers overcommit the node. */
    public long free(String resource) {
        int dim = ResourceVector.dimensionOf(resource);
        return info.allocatable().at(dim) - requested.at(dim);
    }

    /**
     * How many more pods with these requests fit the free capacity, counting only resources the pod
     * requests (as kube-scheduler does, so a zero-request pod fits an overcommitted node with a free
     * slot) and the pod slots.
     */
    public int slotsFor(ResourceVector podRequests) {
        return slotsFor(podRequests, 0);
    }

    private int slotsFor(ResourceVector podRequests, long alreadyPlaced) {
        ResourceVector allocatable = info.allocatable();
        long slots = allocatable.at(ResourceVector.PODS_DIM) - requested.at(ResourceVector.PODS_DIM) - alreadyPlaced;
        for (int d = 0; d < podRequests.length() && slots > 0; d++) {
            long wanted = podRequests.at(d);
            if (wanted > 0) {
                long free = allocatable.at(d) - requested.at(d) - alreadyPlaced * wanted;
                slots = Math.min(slots, free < 0 ? 0 : free / wanted);
            }
        }
        return (int) Math.max(0, Math.min(Integer.MAX_VALUE, slots));
    }

    /**
     * Bin-packing score (kube-scheduler's MostAllocated): the sum, over cpu, memory and every extended
     * resource the pod requests, of the fraction of allocatable that would be requested with the pod on
     * this node. Higher means fuller, so gangs land on few nodes and whole nodes stay free for big pods.
     */
    public double mostAllocatedScore(ResourceVector podRequests) {
        double score = fraction(ResourceVector.CPU_DIM, podRequests) + fraction(ResourceVector.MEMORY_DIM, podRequests);
        for (int d = ResourceVector.PODS_DIM + 1; d < podRequests.length(); d++) {
            if (podRequests.at(d) > 0) {
                score += fraction(d, podRequests);
            }
        }
        return score;
    }

    /** How many resources {@link #mostAllocatedScore} adds up for these requests: cpu, memory and each extended one. */
    public static int resourcesScored(ResourceVector podRequests) {
        int count = 2;
        for (int d = ResourceVector.PODS_DIM + 1; d < podRequests.length(); d++) {
            if (podRequests.at(d) > 0) {
                count++;
            }
        }
        return count;
    }

    private double fraction(int dim, ResourceVector podRequests) {
        long allocatable = info.allocatable().at(dim);
        return allocatable <= 0 ? 0 : (double) (requested.at(dim) + podRequests.at(dim)) / allocatable;
    }

    /**
     * Counts a pod with these requests as placed on the node; {@link #unplace} undoes it. Only a snapshot's statements
     * call it.
     */
    public void place(ResourceVector podRequests) {
        requested.addPod(podRequests);
    }

    /** Undoes one {@link #place} with the same requests, as when a pod is evicted or a placement discarded. */
    public void unplace(ResourceVector podRequests) {
        requested.removePod(podRequests);
    }

    /**
     * Counts, per dimension, whether the node lacks room for one more pod with these requests once
     * {@code alreadyPlaced} such pods were added; a lack of pod slots counts under {@code PODS_DIM}, which
     * pod requests never name. Every shortfall counts, as kube-scheduler lists them all.
     */
    public void countShortfalls(ResourceVector podRequests, long alreadyPlaced, int[] shortByDimension) {
        if (lacksPodSlot(alreadyPlaced)) {
            shortByDimension[ResourceVector.PODS_DIM]++;
        }
        for (int d = 0; d < podRequests.length(); d++) {
            if (lacks(podRequests, alreadyPlaced, d)) {
                shortByDimension[d]++;
            }
        }
    }

    /**
     * The dimensions {@link #countShortfalls} would count, as bit d for dimension d; for requests of fewer
     * than 64 dimensions.
     */
    public long shortfalls(ResourceVector podRequests, long alreadyPlaced) {
        long shortfalls = lacksPodSlot(alreadyPlaced) ? 1L << ResourceVector.PODS_DIM : 0;
        for (int d = 0; d < podRequests.length(); d++) {
            if (lacks(podRequests, alreadyPlaced, d)) {
                shortfalls |= 1L << d;
            }
        }
        return shortfalls;
    }

    private boolean lacksPodSlot(long alreadyPlaced) {
        return requested.at(ResourceVector.PODS_DIM) + alreadyPlaced >= info.allocatable().at(ResourceVector.PODS_DIM);
    }

    private boolean lacks(ResourceVector podRequests, long alreadyPlaced, int dim) {
        long wanted = podRequests.at(dim);
        return wanted > 0 && wanted > info.allocatable().at(dim) - requested.at(dim) - alreadyPlaced * wanted;
    }

    @Override
    public String toString() {
        return name() + " requested " + requested() + " of " + info.allocatable();
    }
}
