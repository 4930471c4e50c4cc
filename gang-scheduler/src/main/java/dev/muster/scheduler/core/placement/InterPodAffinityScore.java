package dev.muster.scheduler.core.placement;

import dev.muster.scheduler.core.model.PodAffinityTerm;
import dev.muster.scheduler.core.model.PodInfo;
import dev.muster.scheduler.core.model.WeightedPodAffinityTerm;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * kube-scheduler's InterPodAffinity score, weighted 2 as in its default profile. A node scores, per
 * topology domain it is in: for each of the pod's preferred affinity (anti-affinity) terms, its weight
 * added (subtracted) once per pod the term selects in the term's domain of the node; and, symmetrically,
 * for each pod in the layout whose preferred affinity (anti-affinity) term selects this pod, the term's
 * weight added (subtracted) if the owner is in the term's domain of the node, and
 * {@link #HARD_POD_AFFINITY_WEIGHT} for each such required affinity term. Scores are normalised over the
 * candidates from the lowest (0) to the highest (100); all equal is 0 everywhere. Pods counted are the
 * layout's, the gang's own placed earlier in the cycle included, read from per-domain counts.
 */
final class InterPodAffinityScore implements PodScore {
    /** The InterPodAffinity plugin's weight in kube-scheduler's default profile. */
    static final int WEIGHT = 2;
    /** kube-scheduler's default {@code hardPodAffinityWeight}: what an existing pod's required affinity adds. */
    static final int HARD_POD_AFFINITY_WEIGHT = 1;
    private static final double MAX_SCORE = 100;

    /** The pod's own terms' counts and signed weights, then the owners of the terms that select it. */
    private final List<PodLayout.DomainCounts> counts;
    private final int[] weights;

    private InterPodAffinityScore(List<PodLayout.DomainCounts> counts, int[] weights) {
        this.counts = counts;
        this.weights = weights;
    }

    /**
     * PreScore: the counts the pod's score reads, or {@code null} if neither the pod has preferred
     * inter-pod terms nor a pod in the layout has a scoring term selecting it, which leaves it on the
     * shape index's fast path. Valid until the layout next changes.
     */
    static InterPodAffinityScore prepare(PodInfo pod, PodLayout layout) {
        List<WeightedPodAffinityTerm> affinity = pod.interPod().preferredAffinity();
        List<WeightedPodAffinityTerm> anti = pod.interPod().preferredAntiAffinity();
        List<Map.Entry<PodLayout.ScoringTerm, PodLayout.DomainCounts>> against = layout.scoringAgainst(pod);
        if (affinity.isEmpty() && anti.isEmpty() && against.isEmpty()) {
            return null;
        }
        int size = affinity.size() + anti.size() + against.size();
        List<PodLayout.DomainCounts> counts = new ArrayList<>(size);
        int[] weights = new int[size];
        for (WeightedPodAffinityTerm preferred : affinity) {
            PodAffinityTerm term = preferred.term();
            weights[counts.size()] = preferred.weight();
            counts.add(layout.counts(term));
        }
        for (WeightedPodAffinityTerm preferred : anti) {
            PodAffinityTerm term = preferred.term();
            weights[counts.size()] = -preferred.weight();
            counts.add(layout.counts(term));
        }
        for (Map.Entry<PodLayout.ScoringTerm, PodLayout.DomainCounts> owners : against) {
            weights[counts.size()] = owners.getKey().weight();
            counts.add(owners.getValue());
        }
        return new InterPodAffinityScore(counts, weights);
    }

    @Override
    public void addTo(int[] candidates, int count, long[] total) {
        long[] raw = new long[count];
        long min = Long.MAX_VALUE;
        long max = Long.MIN_VALUE;
        for (int i = 0; i < count; i++) {
            for (int t = 0; t < weights.length; t++) {
                // atNode is 0 for a node without the term's key, which kube-scheduler leaves unscored too.
                raw[i] += (long) weights[t] * counts.get(t).atNode(candidates[i]);
            }
            min = Math.min(min, raw[i]);
            max = Math.max(max, raw[i]);
        }
        long spread = max - min;
        for (int i = 0; i < count; i++) {
            // kube-scheduler computes this in floating point and truncates.
            long normalised = spread > 0 ? (long) (MAX_SCORE * ((double) (raw[i] - min) / spread)) : 0;
            total[i] += WEIGHT * normalised;
        }
    }
}
