package dev.muster.scheduler.core.model;

import java.util.List;
import java.util.Objects;

/**
 * Pods labelled for a PodGroup that does not exist (yet). They are not tried at all: the gang's
 * requirements are unknown, and placing its pods one by one would defeat the gang. They wait, saying
 * why, until the PodGroup appears.
 *
 * @param group the missing PodGroup
 * @param pods  its pending pods
 */
public record MissingPodGroup(GroupKey group, List<PodInfo> pods) {

    public MissingPodGroup {
        Objects.requireNonNull(group, "group");
        if (group.standalonePod()) {
            throw new IllegalArgumentException("a pod without a PodGroup is a gang of one, never missing its group");
        }
        pods = List.copyOf(pods);
    }

    /**
     * Why the pods wait, e.g. {@code pod group "default/nginx" not found}, or for a Kubernetes PodGroup
     * {@code podgroups.scheduling.k8s.io "default/nginx" not found}.
     */
    public String message() {
        return group.workloadPodGroupName()
                .map(name -> "podgroups.scheduling.k8s.io \"" + group.namespace() + "/" + name + "\" not found")
                .orElseGet(() -> "pod group \"" + group.namespace() + "/" + group.name() + "\" not found");
    }
}
