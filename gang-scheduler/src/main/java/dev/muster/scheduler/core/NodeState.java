package dev.muster.scheduler.core;

import java.util.Map;

/**
 * A node within a {@link ClusterSnapshot}: its {@link NodeInfo} and what the pods on it request. Trials
 * place and unplace pods on it; nothing else changes it.
 */
public final class NodeState {
    private final NodeInfo info;
    private final ResourceTally requested;
    private final boolean schedulable;

    NodeState(NodeInfo info, ResourceTally requested) {
        this.info = info;
        this.requested = requested;
        this.schedulable = info.schedulable();
    }

    /** The node as the informer last showed it. */
    public NodeInfo info() {
        return info;
    }

    /** The node's name. */
    public String name() {
        return info.name();
    }

    /** What the pods on this node request in total, including the pod slots they take. */
    public ResourceVector requested() {
        return requested.toVector();
    }

    /** Allocatable minus requested; negative when pods of other schedulers overcommit the node. */
    public long free(String resource) {
        int dim = ResourceVector.dimensionOf(resource);
        return info.allocatable().at(dim) - requested.at(dim);
    }

    boolean schedulable() {
        return schedulable;
    }

    /**
     * Whether a pod with these requests fits the free capacity. As in kube-scheduler, a resource the pod
     * does not request is not checked, so a zero-request pod fits an overcommitted node with a free slot.
     */
    boolean fits(ResourceVector podRequests) {
        ResourceVector allocatable = info.allocatable();
        if (requested.at(ResourceVector.PODS_DIM) >= allocatable.at(ResourceVector.PODS_DIM)) {
            return false;
        }
        for (int d = 0; d < podRequests.length(); d++) {
            long wanted = podRequests.at(d);
            if (wanted > 0 && wanted > allocatable.at(d) - requested.at(d)) {
                return false;
            }
        }
        return true;
    }

    /** Whether the node carries every label of the selector. */
    boolean matches(Map<String, String> nodeSelector) {
        if (nodeSelector.isEmpty()) {
            return true;
        }
        Map<String, String> labels = info.labels();
        for (Map.Entry<String, String> required : nodeSelector.entrySet()) {
            if (!required.getValue().equals(labels.get(required.getKey()))) {
                return false;
            }
        }
        return true;
    }

    /**
     * Bin-packing score (kube-scheduler's MostAllocated): the sum, over cpu, memory and every extended
     * resource the pod requests, of the fraction of allocatable that would be requested with the pod on
     * this node. Higher means fuller, so gangs land on few nodes and whole nodes stay free for big pods.
     */
    double mostAllocatedScore(ResourceVector podRequests) {
        double score = fraction(ResourceVector.CPU_DIM, podRequests) + fraction(ResourceVector.MEMORY_DIM, podRequests);
        for (int d = ResourceVector.PODS_DIM + 1; d < podRequests.length(); d++) {
            if (podRequests.at(d) > 0) {
                score += fraction(d, podRequests);
            }
        }
        return score;
    }

    private double fraction(int dim, ResourceVector podRequests) {
        long allocatable = info.allocatable().at(dim);
        return allocatable <= 0 ? 0 : (double) (requested.at(dim) + podRequests.at(dim)) / allocatable;
    }

    void place(ResourceVector podRequests) {
        requested.addPod(podRequests);
    }

    void unplace(ResourceVector podRequests) {
        requested.removePod(podRequests);
    }

    /**
     * Counts why the pod does not fit here, with kube-scheduler's reason texts. As kube-scheduler stops
     * at the first failing filter, a cordoned, not-ready or non-matching node gives one reason; resource
     * shortfalls are all listed.
     */
    void countMisfitReasons(PodInfo pod, Map<String, Integer> counts) {
        if (info.unschedulable()) {
            counts.merge(UnschedulableMessage.NODE_UNSCHEDULABLE, 1, Integer::sum);
            return;
        }
        if (!info.ready()) {
            counts.merge(UnschedulableMessage.NODE_NOT_READY, 1, Integer::sum);
            return;
        }
        if (!matches(pod.nodeSelector())) {
            counts.merge(UnschedulableMessage.NODE_SELECTOR_MISMATCH, 1, Integer::sum);
            return;
        }
        ResourceVector allocatable = info.allocatable();
        if (requested.at(ResourceVector.PODS_DIM) >= allocatable.at(ResourceVector.PODS_DIM)) {
            counts.merge(UnschedulableMessage.TOO_MANY_PODS, 1, Integer::sum);
        }
        ResourceVector podRequests = pod.requests();
        for (int d = 0; d < podRequests.length(); d++) {
            long wanted = podRequests.at(d);
            if (wanted > 0 && wanted > allocatable.at(d) - requested.at(d)) {
                counts.merge(UnschedulableMessage.INSUFFICIENT + ResourceVector.nameOf(d), 1, Integer::sum);
            }
        }
    }

    @Override
    public String toString() {
        return name() + " requested " + requested() + " of " + info.allocatable();
    }
}
