package dev.muster.scheduler.core.model;

import java.time.Instant;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.SortedSet;
import java.util.TreeSet;

/**
 * What the scheduler needs to know of a pod.
 *
 * @param namespace   pod namespace
 * @param name        pod name
 * @param group       the gang the pod belongs to
 * @param task        task name within the gang ({@code batch.muster.dev/task-name}), empty if none
 * @param priority    pod priority ({@code spec.priority}), 0 if unset
 * @param requests    effective requests as kube-scheduler counts them; never names {@code pods}
 *                    since a pod always takes exactly one slot
 * @param constraints nodeSelector, required node affinity and tolerations
 * @param labels      the pod's labels, which other pods' affinity terms select
 * @param interPod    inter-pod (anti-)affinity, required and preferred, host ports and topology spread
 * @param notEvaluated the pod spec's fields that would bear on its placement and that the scheduler does
 *                     not evaluate, as paths such as {@code spec.resourceClaims}, sorted; the pod is
 *                     placed as if they were absent, and its gang says so
 * @param createdAt   the pod's creation time, which orders a gang's members for preemption (newest are
 *                    taken first); {@code null} when unknown, ordered as the oldest
 * @param deviceClaims the ResourceClaims of {@code spec.resourceClaims} as {@code namespace/name}, in the
 *                     spec's order: the claim a template gave the pod, or the shared claim it names; the
 *                     cycle's {@link dev.muster.scheduler.core.dra.DeviceLedger} knows them by these keys
 */
public record PodInfo(String namespace, String name, GroupKey group, String task, int priority,
                      ResourceVector requests, PlacementConstraints constraints, Map<String, String> labels,
                      InterPodTerms interPod, SortedSet<String> notEvaluated, Instant createdAt,
                      List<String> deviceClaims) {

    public PodInfo {
        Objects.requireNonNull(namespace, "namespace");
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(group, "group");
        task = task == null ? "" : task;
        Objects.requireNonNull(requests, "requests");
        if (requests.get(ResourceVector.PODS) != 0) {
            throw new IllegalArgumentException("pod requests must not name pods; a pod always takes one slot");
        }
        constraints = constraints == null ? PlacementConstraints.NONE : constraints;
        labels = labels == null ? Map.of() : Map.copyOf(labels);
        interPod = interPod == null ? InterPodTerms.NONE : interPod;
        notEvaluated = notEvaluated == null || notEvaluated.isEmpty() ? Collections.emptySortedSet()
                : Collections.unmodifiableSortedSet(new TreeSet<>(notEvaluated));
        deviceClaims = deviceClaims == null ? List.of() : List.copyOf(deviceClaims);
    }

    /** A pod that claims no devices. */
    public PodInfo(String namespace, String name, GroupKey group, String task, int priority,
                   ResourceVector requests, PlacementConstraints constraints, Map<String, String> labels,
                   InterPodTerms interPod, SortedSet<String> notEvaluated, Instant createdAt) {
        this(namespace, name, group, task, priority, requests, constraints, labels, interPod, notEvaluated, createdAt,
                List.of());
    }

    /** A pod whose creation time is not known. */
    public PodInfo(String namespace, String name, GroupKey group, String task, int priority,
                   ResourceVector requests, PlacementConstraints constraints, Map<String, String> labels,
                   InterPodTerms interPod, SortedSet<String> notEvaluated) {
        this(namespace, name, group, task, priority, requests, constraints, labels, interPod, notEvaluated, null);
    }

    /** A pod whose spec the scheduler evaluates in full. */
    public PodInfo(String namespace, String name, GroupKey group, String task, int priority,
                   ResourceVector requests, PlacementConstraints constraints, Map<String, String> labels,
                   InterPodTerms interPod) {
        this(namespace, name, group, task, priority, requests, constraints, labels, interPod, null);
    }

    /** A pod without labels, inter-pod terms and host ports. */
    public PodInfo(String namespace, String name, GroupKey group, String task, int priority,
                   ResourceVector requests, PlacementConstraints constraints) {
        this(namespace, name, group, task, priority, requests, constraints, Map.of(), InterPodTerms.NONE);
    }

    /** A pod constrained by a nodeSelector only. */
    public PodInfo(String namespace, String name, GroupKey group, String task, int priority,
                   ResourceVector requests, Map<String, String> nodeSelector) {
        this(namespace, name, group, task, priority, requests, PlacementConstraints.ofNodeSelector(nodeSelector));
    }

    /** This pod with other placement constraints, everything else the same. */
    public PodInfo withConstraints(PlacementConstraints other) {
        return new PodInfo(namespace, name, group, task, priority, requests, other, labels, interPod, notEvaluated,
                createdAt, deviceClaims);
    }

    /** This pod with other requests, everything else the same. */
    public PodInfo withRequests(ResourceVector other) {
        return new PodInfo(namespace, name, group, task, priority, other, constraints, labels, interPod, notEvaluated,
                createdAt, deviceClaims);
    }

    /** Labels a node must carry. */
    public Map<String, String> nodeSelector() {
        return constraints.nodeSelector();
    }

    /** What decides which nodes the pod fits: pods of one shape fit the same nodes. */
    public PodShape shape() {
        return new PodShape(requests, constraints);
    }

    @Override
    public String toString() {
        return namespace + "/" + name;
    }
}
