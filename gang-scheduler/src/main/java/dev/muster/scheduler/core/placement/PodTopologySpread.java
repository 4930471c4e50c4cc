package dev.muster.scheduler.core.placement;

import dev.muster.scheduler.core.model.PodInfo;
import dev.muster.scheduler.core.model.SpreadConstraint;

import java.util.ArrayList;
import java.util.List;

/**
 * kube-scheduler's PodTopologySpread filter ({@code whenUnsatisfiable: DoNotSchedule}): a node passes a
 * constraint when it has the constraint's key and placing the pod there leaves its domain at most
 * {@code maxSkew} above the emptiest eligible domain (taken as empty when fewer than {@code minDomains}
 * domains are eligible). Eligible nodes have every constraint's key and, per the policies, match the
 * pod's node affinity and tolerate its taints; only pods of the pod's namespace on eligible nodes count,
 * the gang's own placed earlier in the cycle included.
 */
final class PodTopologySpread implements PodFilter {
    static final String MISSING_LABEL = "node(s) didn't match pod topology spread constraints (missing required label)";
    static final String SKEW = "node(s) didn't match pod topology spread constraints";

    @Override
    public NodeCheck prepare(PodInfo pod, PodLayout layout) {
        List<SpreadConstraint> constraints = pod.interPod().spread();
        if (constraints.isEmpty()) {
            return null;
        }
        List<PodLayout.DomainCounts> counts = new ArrayList<>(constraints.size());
        int[] room = new int[constraints.size()];
        for (int c = 0; c < constraints.size(); c++) {
            SpreadConstraint constraint = constraints.get(c);
            boolean[] eligible = layout.spreadEligible(pod, constraint, constraints);
            PodLayout.DomainCounts domainCounts = layout.counts(List.of(pod.namespace(), constraint, eligible),
                    p -> p.namespace().equals(pod.namespace()) && constraint.selects(p), constraint.topologyKey(),
                    eligible);
            counts.add(domainCounts);
            int selfMatch = constraint.selects(pod) ? 1 : 0;
            // The most the pod's domain may already hold: the emptiest eligible domain plus maxSkew, less the pod.
            room[c] = emptiest(domainCounts, layout.domainsOf(eligible, constraint.topologyKey()),
                    constraint.minDomains()) + constraint.maxSkew() - selfMatch;
        }
        return node -> {
            for (int c = 0; c < room.length; c++) {
                PodLayout.DomainCounts domainCounts = counts.get(c);
                if (!domainCounts.hasDomain(node)) {
                    return MISSING_LABEL;
                }
                if (domainCounts.atNode(node) > room[c]) {
                    return SKEW;
                }
            }
            return null;
        };
    }

    /** The fewest selected pods in an eligible domain; 0 when fewer domains than minDomains are eligible. */
    private static int emptiest(PodLayout.DomainCounts counts, boolean[] present, int minDomains) {
        int presentCount = 0;
        int min = Integer.MAX_VALUE;
        for (int d = 0; d < present.length; d++) {
            if (present[d]) {
                presentCount++;
                min = Math.min(min, counts.inDomain(d));
            }
        }
        return presentCount < minDomains || presentCount == 0 ? 0 : min;
    }
}
