package dev.muster.scheduler.core.model;

import java.util.Objects;
import java.util.Optional;

/**
 * Names a gang: a PodGroup, or a single pod that names no PodGroup and is therefore a gang of one.
 *
 * <p>A Kubernetes PodGroup ({@code scheduling.k8s.io}, the Workload API's), which a pod names in its
 * {@code spec.schedulingGroup}, is keyed by its name behind {@value #WORKLOAD_POD_GROUP_PREFIX}: object names
 * cannot contain {@code /}, so it never meets a Muster PodGroup of the same name, and everything keyed by gang
 * (the cache, the verdicts, the queues) serves both without a second kind of key.
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

    /** What precedes a Kubernetes PodGroup's name in its key. */
    public static final String WORKLOAD_POD_GROUP_PREFIX = "scheduling.k8s.io/";

    /** The key of a Kubernetes PodGroup ({@code scheduling.k8s.io}) of that name. */
    public static GroupKey workloadPodGroup(String namespace, String name) {
        return new GroupKey(namespace, WORKLOAD_POD_GROUP_PREFIX + name, false);
    }

    /** The name of the Kubernetes PodGroup this key names, if it names one. */
    public Optional<String> workloadPodGroupName() {
        return !standalonePod && name.startsWith(WORKLOAD_POD_GROUP_PREFIX)
                ? Optional.of(name.substring(WORKLOAD_POD_GROUP_PREFIX.length())) : Optional.empty();
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
