package dev.muster.scheduler.core.placement;

import dev.muster.scheduler.core.model.PodAffinityTerm;
import dev.muster.scheduler.core.model.PodInfo;

import java.util.ArrayList;
import java.util.List;

/**
 * kube-scheduler's InterPodAffinity filter on required terms, against the pods of the layout: the
 * cluster's and those placed earlier in the cycle, the gang's own included.
 *
 * <ul>
 *   <li>affinity: the node has every term's topology key, and each term's domain holds a pod selected
 *       by all the terms; unless no such pod exists anywhere and the pod itself is selected by all its
 *       terms (the first pod of a group that wants to be together);</li>
 *   <li>anti-affinity: no term's domain of the node holds a pod the term selects;</li>
 *   <li>existing pods' anti-affinity: no pod in the layout whose required anti-affinity term selects
 *       this pod is in the term's domain of the node.</li>
 * </ul>
 *
 * <p>Per-domain counts come from the layout ({@link PodLayout#counts}), so a node is judged in time
 * proportional to the pod's terms, not to the pods around it.
 */
final class InterPodAffinity implements PodFilter {
    static final String AFFINITY = "node(s) didn't match pod affinity rules";
    static final String ANTI_AFFINITY = "node(s) didn't match pod anti-affinity rules";
    static final String EXISTING_ANTI_AFFINITY = "node(s) didn't satisfy existing pods anti-affinity rules";

    @Override
    public NodeCheck prepare(PodInfo pod, PodLayout layout) {
        List<PodAffinityTerm> affinityTerms = pod.interPod().affinity();
        List<PodAffinityTerm> antiTerms = pod.interPod().antiAffinity();
        List<PodLayout.DomainCounts> against = layout.antiAffinityAgainst(pod);
        if (affinityTerms.isEmpty() && antiTerms.isEmpty() && against.isEmpty()) {
            return null;
        }
        List<PodLayout.DomainCounts> affinity = new ArrayList<>(affinityTerms.size());
        boolean selectedAnywhere = false;
        for (PodAffinityTerm term : affinityTerms) {
            // Counts pods selected by all the terms, keyed by the list, as kube-scheduler's affinityCounts.
            PodLayout.DomainCounts counts = layout.counts(affinityTerms,
                    p -> affinityTerms.stream().allMatch(t -> layout.selects(t, p)), term.topologyKey());
            affinity.add(counts);
            selectedAnywhere |= counts.total() > 0;
        }
        boolean firstOfItsGroup = !selectedAnywhere && affinityTerms.stream().allMatch(t -> layout.selects(t, pod));
        List<PodLayout.DomainCounts> anti = new ArrayList<>(antiTerms.size());
        for (PodAffinityTerm term : antiTerms) {
            anti.add(layout.counts(term));
        }
        return node -> {
            boolean together = true;
            for (PodLayout.DomainCounts counts : affinity) {
                if (!counts.hasDomain(node)) {
                    return AFFINITY;
                }
                together &= counts.atNode(node) > 0;
            }
            if (!together && !firstOfItsGroup) {
                return AFFINITY;
            }
            for (PodLayout.DomainCounts counts : anti) {
                if (counts.atNode(node) > 0) {
                    return ANTI_AFFINITY;
                }
            }
            for (PodLayout.DomainCounts owners : against) {
                if (owners.atNode(node) > 0) {
                    return EXISTING_ANTI_AFFINITY;
                }
            }
            return null;
        };
    }
}
