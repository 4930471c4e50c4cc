package dev.muster.scheduler.core.cluster;

import dev.muster.scheduler.core.model.NodeInfo;
import dev.muster.scheduler.core.model.PodInfo;
import dev.muster.scheduler.core.model.ResourceVector;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;

/**
 * The scheduler's running account of the nodes and of what the pods bound (or being bound) to them
 * request, updated incrementally as pods and nodes come and go, so that a cycle's snapshot is a copy of
 * per-node totals rather than a sum over all pods. Pods may be counted on a node the state does not
 * know (yet): their usage is kept and applies once the node appears.
 *
 * <p>Not thread-safe; the owner serialises access.
 */
public final class ClusterState {
    private final TreeMap<String, NodeInfo> nodes = new TreeMap<>();
    private final Map<String, ResourceTally> usage = new HashMap<>();
    /**
     * Per node, the pods counted on it, for inter-pod affinity and host ports; each list is replaced,
     * never changed, so a snapshot can share it.
     */
    private final Map<String, List<PodInfo>> pods = new HashMap<>();
    /**
     * Per namespace, its labels, which inter-pod terms' namespaceSelectors select; replaced, never
     * changed, so a snapshot can share it.
     */
    private Map<String, Map<String, String>> namespaceLabels = Map.of();

    /**
     * Adds or replaces a node.
     *
     * @return whether anything the scheduler looks at changed
     */
    public boolean putNode(NodeInfo node) {
        return !node.equals(nodes.put(node.name(), node));
    }

    /**
     * Removes a node; the usage of pods still counted on it is kept until they are released.
     *
     * @return whether the node was known
     */
    public boolean removeNode(String name) {
        boolean known = nodes.remove(name) != null;
        ResourceTally tally = usage.get(name);
        if (tally != null && tally.isEmpty()) {
            usage.remove(name);
        }
        return known;
    }

    /**
     * Adds or replaces a namespace's labels.
     *
     * @return whether they changed
     */
    public boolean putNamespace(String name, Map<String, String> labels) {
        Map<String, String> now = labels == null ? Map.of() : Map.copyOf(labels);
        if (now.equals(namespaceLabels.get(name))) {
            return false;
        }
        Map<String, Map<String, String>> after = new HashMap<>(namespaceLabels);
        after.put(name, now);
        namespaceLabels = Map.copyOf(after);
        return true;
    }

    /**
     * Forgets a namespace.
     *
     * @return whether it was known
     */
    public boolean removeNamespace(String name) {
        if (!namespaceLabels.containsKey(name)) {
            return false;
        }
        Map<String, Map<String, String>> after = new HashMap<>(namespaceLabels);
        after.remove(name);
        namespaceLabels = Map.copyOf(after);
        return true;
    }

    /** Whether the node is in the cluster; usage counted on a node that is not shows in no snapshot. */
    public boolean hasNode(String name) {
        return nodes.containsKey(name);
    }

    /** Counts a pod's requests and one pod slot against the node. */
    public void occupy(String nodeName, ResourceVector podRequests) {
        Objects.requireNonNull(nodeName, "nodeName");
        usage.computeIfAbsent(nodeName, n -> new ResourceTally()).addPod(podRequests);
    }

    /**
     * Counts the pod against the node: its requests and slot, and the pod itself, which other pods'
     * affinity terms may select and whose own terms and host ports keep other pods away.
     */
    public void occupy(String nodeName, PodInfo pod) {
        occupy(nodeName, pod.requests());
        List<PodInfo> before = pods.getOrDefault(nodeName, List.of());
        List<PodInfo> after = new ArrayList<>(before.size() + 1);
        after.addAll(before);
        after.add(pod);
        pods.put(nodeName, List.copyOf(after));
    }

    /** Undoes one {@link #occupy(String, PodInfo)} of the pod (found by namespace and name). */
    public void release(String nodeName, PodInfo pod) {
        release(nodeName, pod.requests());
        List<PodInfo> after = new ArrayList<>(pods.getOrDefault(nodeName, List.of()));
        after.removeIf(p -> p.name().equals(pod.name()) && p.namespace().equals(pod.namespace()));
        if (after.isEmpty()) {
            pods.remove(nodeName);
        } else {
            pods.put(nodeName, List.copyOf(after));
        }
    }

    /**
     * Undoes one {@link #occupy(String, ResourceVector)} with the same arguments. Counting room without a
     * pod is for usage no affinity term needs to see.
     */
    public void release(String nodeName, ResourceVector podRequests) {
        ResourceTally tally = usage.get(nodeName);
        if (tally == null) {
            throw new IllegalStateException("no pod is counted on node " + nodeName);
        }
        tally.removePod(podRequests);
        if (tally.isEmpty() && !nodes.containsKey(nodeName)) {
            usage.remove(nodeName);
        }
    }

    /** A copy for one cycle: later changes to this state do not show in it, nor its trials here. */
    public ClusterSnapshot snapshot() {
        NodeState[] copy = new NodeState[nodes.size()];
        int i = 0;
        for (NodeInfo node : nodes.values()) {
            ResourceTally tally = usage.get(node.name());
            copy[i] = new NodeState(node, tally == null ? new ResourceTally() : tally.copy(), i,
                    pods.getOrDefault(node.name(), List.of()));
            i++;
        }
        return new ClusterSnapshot(copy, namespaceLabels);
    }
}
