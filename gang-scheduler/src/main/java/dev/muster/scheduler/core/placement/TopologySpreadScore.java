package dev.muster.scheduler.core.placement;

import dev.muster.scheduler.core.model.PodInfo;
import dev.muster.scheduler.core.model.SpreadConstraint;

import java.util.List;

/**
 * kube-scheduler's PodTopologySpread score for {@code whenUnsatisfiable: ScheduleAnyway} constraints,
 * weighted 2 as in its default profile. Per constraint, a node's domain holding {@code cnt} selected pods
 * adds {@code cnt * log(domains + 2) + maxSkew - 1}, where {@code domains} is the number of domains of the
 * key among the candidate nodes (for {@code kubernetes.io/hostname}, the candidate nodes); the rounded sum
 * is normalised over the candidates so that the emptiest scores 100 ({@code 100 * (max + min - s) / max}).
 * A candidate without every constraint's key scores 0. Pods counted are those of the pod's namespace the
 * selector selects on eligible nodes ({@link PodLayout#spreadEligible}), the gang's own placed earlier in
 * the cycle included, read from the layout's per-domain counts: no scan of pods per node.
 *
 * <p>For the hostname key kube-scheduler counts the pods on the node itself; this counts its hostname
 * domain, which is the same as long as no two nodes share a hostname label value.
 */
final class TopologySpreadScore implements PodScore {
    /** The PodTopologySpread plugin's weight in kube-scheduler's default profile. */
    static final int WEIGHT = 2;
    private static final long MAX_SCORE = 100;
    private static final String HOSTNAME = "kubernetes.io/hostname";

    private final List<SpreadConstraint> constraints;
    private final PodLayout.DomainCounts[] counts;
    private final TopologyDomains[] domains;

    private TopologySpreadScore(List<SpreadConstraint> constraints, PodLayout.DomainCounts[] counts,
                                TopologyDomains[] domains) {
        this.constraints = constraints;
        this.counts = counts;
        this.domains = domains;
    }

    /**
     * PreScore: the pod's counts against the layout as it is now, or {@code null} if it has no
     * ScheduleAnyway constraint, which leaves it on the shape index's fast path. Valid until the layout
     * next changes.
     */
    static TopologySpreadScore prepare(PodInfo pod, PodLayout layout) {
        List<SpreadConstraint> constraints = pod.interPod().softSpread();
        if (constraints.isEmpty()) {
            return null;
        }
        PodLayout.DomainCounts[] counts = new PodLayout.DomainCounts[constraints.size()];
        TopologyDomains[] domains = new TopologyDomains[constraints.size()];
        for (int c = 0; c < constraints.size(); c++) {
            SpreadConstraint constraint = constraints.get(c);
            boolean[] eligible = layout.spreadEligible(pod, constraint, constraints);
            counts[c] = layout.counts(List.of(pod.namespace(), constraint, eligible),
                    p -> p.namespace().equals(pod.namespace()) && constraint.selects(p), constraint.topologyKey(),
                    eligible);
            domains[c] = layout.domains(constraint.topologyKey());
        }
        return new TopologySpreadScore(constraints, counts, domains);
    }

    @Override
    public void addTo(int[] candidates, int count, long[] total) {
        long[] out = new long[count];
        boolean[] ignored = new boolean[count];
        int scored = 0;
        for (int i = 0; i < count; i++) {
            for (int c = 0; c < constraints.size() && !ignored[i]; c++) {
                ignored[i] = domains[c].of(candidates[i]) < 0;
            }
            if (!ignored[i]) {
                scored++;
            }
        }
        double[] normalizingWeight = new double[constraints.size()];
        for (int c = 0; c < constraints.size(); c++) {
            int size = scored;
            if (!HOSTNAME.equals(constraints.get(c).topologyKey())) {
                boolean[] seen = new boolean[domains[c].count()];
                size = 0;
                for (int i = 0; i < count; i++) {
                    if (!ignored[i] && !seen[domains[c].of(candidates[i])]) {
                        seen[domains[c].of(candidates[i])] = true;
                        size++;
                    }
                }
            }
            normalizingWeight[c] = Math.log(size + 2);
        }
        long min = Long.MAX_VALUE;
        long max = 0;
        for (int i = 0; i < count; i++) {
            if (ignored[i]) {
                continue;
            }
            double sum = 0;
            for (int c = 0; c < constraints.size(); c++) {
                sum += counts[c].atNode(candidates[i]) * normalizingWeight[c] + (constraints.get(c).maxSkew() - 1);
            }
            out[i] = Math.round(sum);
            min = Math.min(min, out[i]);
            max = Math.max(max, out[i]);
        }
        for (int i = 0; i < count; i++) {
            long normalised;
            if (ignored[i]) {
                normalised = 0;
            } else if (max == 0) {
                normalised = MAX_SCORE;
            } else {
                normalised = MAX_SCORE * (max + min - out[i]) / max;
            }
            total[i] += WEIGHT * normalised;
        }
    }
}
