package dev.muster.scheduler.core.model;

import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * Where a pod may go regardless of free capacity: its nodeSelector, required node affinity (terms ORed;
 * none means any node), tolerations and the topology of its volumes; and how nodes score for it beyond their resources: preferred
 * node affinity and {@code PreferNoSchedule} taints it does not tolerate. Pods with equal constraints pass
 * and score the same nodes, so the core evaluates them once per distinct value per cycle; the hash is
 * computed once because it keys that work.
 */
public final class PlacementConstraints {
    /** No constraints: every schedulable, untainted node passes. */
    public static final PlacementConstraints NONE = new PlacementConstraints(Map.of(), List.of(), List.of());

    private final Map<String, String> nodeSelector;
    private final List<NodeSelectorTerm> requiredAffinity;
    private final List<Toleration> tolerations;
    private final List<PreferredTerm> preferredAffinity;
    private final List<VolumeTopology> volumes;
    private final int hash;

    /**
     * @param nodeSelector     labels a node must carry
     * @param requiredAffinity {@code requiredDuringSchedulingIgnoredDuringExecution} terms; empty for none
     * @param tolerations      the pod's tolerations
     */
    public PlacementConstraints(Map<String, String> nodeSelector, List<NodeSelectorTerm> requiredAffinity,
                                List<Toleration> tolerations) {
        this(nodeSelector, requiredAffinity, tolerations, List.of());
    }

    /**
     * @param nodeSelector      labels a node must carry
     * @param requiredAffinity  {@code requiredDuringSchedulingIgnoredDuringExecution} terms; empty for none
     * @param tolerations       the pod's tolerations
     * @param preferredAffinity {@code preferredDuringSchedulingIgnoredDuringExecution} terms; empty for none
     */
    public PlacementConstraints(Map<String, String> nodeSelector, List<NodeSelectorTerm> requiredAffinity,
                                List<Toleration> tolerations, List<PreferredTerm> preferredAffinity) {
        this(nodeSelector, requiredAffinity, tolerations, preferredAffinity, List.of());
    }

    /**
     * @param nodeSelector      labels a node must carry
     * @param requiredAffinity  {@code requiredDuringSchedulingIgnoredDuringExecution} terms; empty for none
     * @param tolerations       the pod's tolerations
     * @param preferredAffinity {@code preferredDuringSchedulingIgnoredDuringExecution} terms; empty for none
     * @param volumes           per volume with a topology, the nodes it can be used from; all must hold
     */
    public PlacementConstraints(Map<String, String> nodeSelector, List<NodeSelectorTerm> requiredAffinity,
                                List<Toleration> tolerations, List<PreferredTerm> preferredAffinity,
                                List<VolumeTopology> volumes) {
        this.nodeSelector = nodeSelector == null ? Map.of() : Map.copyOf(nodeSelector);
        this.requiredAffinity = requiredAffinity == null ? List.of() : List.copyOf(requiredAffinity);
        this.tolerations = tolerations == null ? List.of() : List.copyOf(tolerations);
        this.preferredAffinity = preferredAffinity == null ? List.of() : List.copyOf(preferredAffinity);
        this.volumes = volumes == null ? List.of() : List.copyOf(volumes);
        this.hash = Objects.hash(this.nodeSelector, this.requiredAffinity, this.tolerations, this.preferredAffinity,
                this.volumes);
    }

    /** Only a nodeSelector. */
    public static PlacementConstraints ofNodeSelector(Map<String, String> nodeSelector) {
        return nodeSelector == null || nodeSelector.isEmpty() ? NONE
                : new PlacementConstraints(nodeSelector, List.of(), List.of());
    }

    public Map<String, String> nodeSelector() {
        return nodeSelector;
    }

    public List<NodeSelectorTerm> requiredAffinity() {
        return requiredAffinity;
    }

    public List<Toleration> tolerations() {
        return tolerations;
    }

    public List<PreferredTerm> preferredAffinity() {
        return preferredAffinity;
    }

    public List<VolumeTopology> volumes() {
        return volumes;
    }

    /** This with another nodeSelector, everything else the same. */
    public PlacementConstraints withNodeSelector(Map<String, String> selector) {
        return new PlacementConstraints(selector, requiredAffinity, tolerations, preferredAffinity, volumes);
    }

    /** This with other required node affinity terms, everything else the same. */
    public PlacementConstraints withRequiredAffinity(List<NodeSelectorTerm> terms) {
        return new PlacementConstraints(nodeSelector, terms, tolerations, preferredAffinity, volumes);
    }

    /** This with the topology of the pod's volumes, everything else the same. */
    public PlacementConstraints withVolumes(List<VolumeTopology> topologies) {
        return new PlacementConstraints(nodeSelector, requiredAffinity, tolerations, preferredAffinity, topologies);
    }

    /** kube-scheduler's NodeAffinity score before normalising: the weights of the preferred terms the node matches. */
    public long preferredAffinityWeight(NodeInfo node) {
        long sum = 0;
        for (PreferredTerm preferred : preferredAffinity) {
            if (preferred.term().matches(node)) {
                sum += preferred.weight();
            }
        }
        return sum;
    }

    /**
     * kube-scheduler's TaintToleration score before normalising: the node's {@code PreferNoSchedule}
     * taints that no toleration with that effect (or none) tolerates.
     */
    public int intolerablePreferNoSchedule(NodeInfo node) {
        int count = 0;
        for (Taint taint : node.taints()) {
            if (Taint.PREFER_NO_SCHEDULE.equals(taint.effect()) && !tolerated(taint)) {
                count++;
            }
        }
        return count;
    }

    /** The first NoSchedule or NoExecute taint of the node that no toleration tolerates, or null. */
    public Taint untoleratedTaint(NodeInfo node) {
        for (Taint taint : node.taints()) {
            if (taint.keepsPodsOff() && !tolerated(taint)) {
                return taint;
            }
        }
        return null;
    }

    private boolean tolerated(Taint taint) {
        for (Toleration toleration : tolerations) {
            if (toleration.tolerates(taint)) {
                return true;
            }
        }
        return false;
    }

    /** Whether the node carries the nodeSelector's labels and satisfies a required affinity term. */
    public boolean matchesNodeAffinity(NodeInfo node) {
        Map<String, String> labels = node.labels();
        for (Map.Entry<String, String> required : nodeSelector.entrySet()) {
            if (!required.getValue().equals(labels.get(required.getKey()))) {
                return false;
            }
        }
        if (requiredAffinity.isEmpty()) {
            return true;
        }
        for (NodeSelectorTerm term : requiredAffinity) {
            if (term.matches(node)) {
                return true;
            }
        }
        return false;
    }

    /**
     * The first filter, in kube-scheduler's order, that keeps a pod with these constraints off the node
     * before resources are even looked at: its reason text, or null if the node passes. Volume topology
     * comes last; kube-scheduler's VolumeBinding runs after the resource fit, so a node failing both counts
     * under the volume's reason here, under the resource there.
     */
    public String rejection(NodeInfo node) {
        if (node.unschedulable()) {
            return UnschedulableMessage.NODE_UNSCHEDULABLE;
        }
        if (!node.ready()) {
            return UnschedulableMessage.NODE_NOT_READY;
        }
        Taint taint = untoleratedTaint(node);
        if (taint != null) {
            return UnschedulableMessage.UNTOLERATED_TAINT + " " + taint;
        }
        if (!matchesNodeAffinity(node)) {
            return UnschedulableMessage.NODE_SELECTOR_MISMATCH;
        }
        // Indexed: this runs for every node and shape, and most pods have no volume topology.
        for (int v = 0; v < volumes.size(); v++) {
            if (!volumes.get(v).reachableFrom(node)) {
                return volumes.get(v).reason();
            }
        }
        return null;
    }

    @Override
    public boolean equals(Object o) {
        return this == o || o instanceof PlacementConstraints other && hash == other.hash
                && nodeSelector.equals(other.nodeSelector) && requiredAffinity.equals(other.requiredAffinity)
                && tolerations.equals(other.tolerations) && preferredAffinity.equals(other.preferredAffinity)
                && volumes.equals(other.volumes);
    }

    @Override
    public int hashCode() {
        return hash;
    }

    @Override
    public String toString() {
        return "nodeSelector=" + nodeSelector + ", requiredAffinity=" + requiredAffinity + ", tolerations="
                + tolerations + ", preferredAffinity=" + preferredAffinity + ", volumes=" + volumes;
    }
}
