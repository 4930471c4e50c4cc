package dev.muster.podgroup;

import dev.muster.api.PodNode;
import dev.muster.api.PodGroupLabel;
import io.fabric8.kubernetes.api.model.Pod;

import java.util.List;
import java.util.Map;
import java.util.function.Function;

/**
 * Pod informer index from node name to the group members bound to that node, so that a node that
 * disappears (or appears) makes the controller look at exactly the groups with pods on it. Pods that
 * join no group are left out to keep the index small.
 */
final class PodsByNodeIndex {
    /** Name of the index on the shared Pod informer. */
    static final String NAME = "podgroup-controller/group-members-by-node";

    private PodsByNodeIndex() {
    }

    /** The index to add to the Pod informer. */
    static Map<String, Function<Pod, List<String>>> indexers() {
        return Map.of(NAME, pod -> {
            return PodGroupLabel.groupName(pod).isEmpty() ? List.of() : PodNode.of(pod).map(List::of).orElse(List.of());
        });
    }
}
