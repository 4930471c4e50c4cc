package dev.muster.scheduler.core.model;

import java.util.Objects;

/**
 * Names a gang: a PodGroup, or a single pod that names no PodGroup and is therefore a gang of one.
 *
 * @param namespace     namespace of the group's pods
 * @param name          PodGroup name, or the pod's name for a gang of one
 * @param standalonePod whether this is a gang of one pod rather than a PodGroup
 */
public record GroupKey(String namespace, String name, boolean standalonePod) {

    public GroupKey {
        Objects.requireNonNull(namespace, "namespace");
        Objects.requireNonNull(name, "name");
    }

    /** The key of a PodGroup. */
    public static GroupKey podGroup(String namespace, String name) {
        return new GroupKey(namespace, name, false);
    }

    /** The key of a pod that is a gang of one. */
    public static GroupKey standalonePod(String namespace, String podName) {
        return new GroupKey(namespace, podName, true);
    }

    @Override
    public String toString() {
        return (standalonePod ? "pod " : "podgroup ") + namespace + "/" + name;
    }
}
