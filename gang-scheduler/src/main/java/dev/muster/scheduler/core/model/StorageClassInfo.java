package dev.muster.scheduler.core.model;

import java.util.List;
import java.util.Objects;

/**
 * What the scheduler needs to know of a StorageClass.
 *
 * @param name                 class name
 * @param waitForFirstConsumer whether {@code volumeBindingMode} is {@code WaitForFirstConsumer}, so that
 *                             its claims are bound once a pod using them is scheduled ({@code Immediate},
 *                             the default, binds them before)
 * @param allowedTopologies    {@code allowedTopologies} as node selector terms, ORed; empty for anywhere
 */
public record StorageClassInfo(String name, boolean waitForFirstConsumer, List<NodeSelectorTerm> allowedTopologies) {
    public StorageClassInfo {
        Objects.requireNonNull(name, "name");
        allowedTopologies = allowedTopologies == null ? List.of() : List.copyOf(allowedTopologies);
    }
}
