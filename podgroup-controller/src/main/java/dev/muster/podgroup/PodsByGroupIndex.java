package dev.muster.podgroup;

import dev.muster.api.PodGroupLabel;
import io.fabric8.kubernetes.api.model.Pod;

import java.util.List;
import java.util.Map;
import java.util.function.Function;

/**
 * Pod informer index from {@code namespace/podgroup} to the pods labelled
 * {@code scheduling.muster.dev/pod-group: podgroup}, so that reconciling a group reads its pods without
 * scanning every pod in the cluster.
 */
public final class PodsByGroupIndex {
    /** Name of the index on the shared Pod informer. */
    public static final String NAME = "podgroup-controller/pods-by-group";

    private PodsByGroupIndex() {
    }

    /** The index to add to the Pod informer. */
    public static Map<String, Function<Pod, List<String>>> indexers() {
        return Map.of(NAME, pod -> PodGroupLabel.groupKey(pod).map(List::of).orElse(List.of()));
    }
}
