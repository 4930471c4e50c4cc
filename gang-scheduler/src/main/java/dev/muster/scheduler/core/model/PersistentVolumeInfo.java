package dev.muster.scheduler.core.model;

import java.util.List;
import java.util.Objects;

/**
 * What the scheduler needs to know of a PersistentVolume.
 *
 * @param name         volume name
 * @param nodeAffinity {@code spec.nodeAffinity.required} node selector terms, ORed; empty when the volume
 *                     can be used from any node
 */
public record PersistentVolumeInfo(String name, List<NodeSelectorTerm> nodeAffinity) {
    public PersistentVolumeInfo {
        Objects.requireNonNull(name, "name");
        nodeAffinity = nodeAffinity == null ? List.of() : List.copyOf(nodeAffinity);
    }
}
