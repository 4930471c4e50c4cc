package dev.muster.scheduler.core.model;

import java.util.Collections;
import java.util.Map;
import java.util.SortedMap;
import java.util.StringJoiner;
import java.util.TreeMap;

/**
 * Why a pod fits no node, as kube-scheduler reports it: how many nodes there are and how many failed
 * for each reason, e.g. {@code 0/3 nodes are available: 3 Insufficient cpu.} A node may count under
 * several resource reasons, as in kube-scheduler.
 *
 * @param nodeCount    nodes in the cluster, schedulable or not
 * @param reasonCounts nodes per reason, sorted by reason
 */
public record UnschedulableMessage(int nodeCount, SortedMap<String, Integer> reasonCounts) {
    /** Prefix of a resource shortfall; the resource name follows. */
    public static final String INSUFFICIENT = "Insufficient ";
    public static final String TOO_MANY_PODS = "Too many pods";
    public static final String NODE_UNSCHEDULABLE = "node(s) were unschedulable";
    public static final String NODE_NOT_READY = "node(s) were not ready";
    public static final String NODE_SELECTOR_MISMATCH = "node(s) didn't match Pod's node affinity/selector";
    /** Prefix of a taint the pod does not tolerate; the taint follows as {@code {key: value}}. */
    public static final String UNTOLERATED_TAINT = "node(s) had untolerated taint";

    public UnschedulableMessage(int nodeCount, Map<String, Integer> reasonCounts) {
        this(nodeCount, new TreeMap<>(reasonCounts));
    }

    public UnschedulableMessage {
        reasonCounts = Collections.unmodifiableSortedMap(new TreeMap<>(reasonCounts));
    }

    /** The message in kube-scheduler's words. */
    public String message() {
        if (nodeCount == 0) {
            return "no nodes available to schedule pods";
        }
        StringJoiner reasons = new StringJoiner(", ", "0/" + nodeCount + " nodes are available: ", ".");
        reasonCounts.forEach((reason, count) -> reasons.add(count + " " + reason));
        return reasons.toString();
    }

    @Override
    public String toString() {
        return message();
    }
}
