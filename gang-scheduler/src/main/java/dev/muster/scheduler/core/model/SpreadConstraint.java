package dev.muster.scheduler.core.model;

import java.util.List;
import java.util.Objects;

/**
 * A topology spread constraint, as kube-scheduler's PodTopologySpread reads it: a filter with
 * {@code whenUnsatisfiable: DoNotSchedule}, a score with {@code ScheduleAnyway} (which ignores
 * {@code minDomains}). The pods it counts are in the owning pod's namespace.
 *
 * @param maxSkew           how much more the chosen domain may hold than the emptiest, counting the pod
 * @param topologyKey       node label naming the domains
 * @param selector          the label selector's requirements, with matchLabelKeys merged in; {@code null}
 *                          for no selector, which selects no pod
 * @param minDomains        below this many eligible domains, the emptiest counts as holding none
 * @param honorNodeAffinity nodeAffinityPolicy Honor (the default): only nodes matching the pod's
 *                          nodeSelector and required node affinity count
 * @param honorTaints       nodeTaintsPolicy Honor: only nodes whose taints the pod tolerates count
 *                          (the default, Ignore, counts every node)
 */
public record SpreadConstraint(int maxSkew, String topologyKey, List<NodeSelectorRequirement> selector,
                               int minDomains, boolean honorNodeAffinity, boolean honorTaints) {

    public SpreadConstraint {
        Objects.requireNonNull(topologyKey, "topologyKey");
        selector = selector == null ? null : List.copyOf(selector);
        minDomains = Math.max(1, minDomains);
    }

    /** Whether the constraint counts the pod, which must be in the owner's namespace. */
    public boolean selects(PodInfo pod) {
        return NodeSelectorRequirement.selects(selector, pod.labels());
    }
}
