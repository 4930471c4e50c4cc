package dev.muster.scheduler.core.model;

import java.util.Objects;

/**
 * One preferred inter-pod (anti-)affinity term ({@code preferredDuringSchedulingIgnoredDuringExecution}):
 * each pod the term selects in a node's domain adds its weight to the node's InterPodAffinity score
 * (subtracts it, for anti-affinity).
 *
 * @param weight 1 to 100
 * @param term   the pods and the topology key
 */
public record WeightedPodAffinityTerm(int weight, PodAffinityTerm term) {
    public WeightedPodAffinityTerm {
        Objects.requireNonNull(term, "term");
    }
}
