package dev.muster.scheduler.core.model;

import java.util.List;

/**
 * What places a pod relative to other pods rather than to a node alone: its required inter-pod affinity
 * and anti-affinity terms, its host ports and its topology spread constraints. Whether a node passes
 * them, or how it scores for the ScheduleAnyway ones, depends on the pods around it, so they are evaluated
 * against the cycle's {@code PodLayout}, not in the per-shape node index.
 *
 * @param affinity     {@code podAffinity.requiredDuringSchedulingIgnoredDuringExecution}
 * @param antiAffinity {@code podAntiAffinity.requiredDuringSchedulingIgnoredDuringExecution}
 * @param hostPorts    the host ports of the pod's containers
 * @param spread       {@code topologySpreadConstraints} with {@code whenUnsatisfiable: DoNotSchedule}
 * @param softSpread   {@code topologySpreadConstraints} with {@code whenUnsatisfiable: ScheduleAnyway},
 *                     which score nodes ({@code TopologySpreadScore}) rather than filter them
 * @param preferredAffinity     {@code podAffinity.preferredDuringSchedulingIgnoredDuringExecution}, scores
 *                              ({@code InterPodAffinityScore})
 * @param preferredAntiAffinity {@code podAntiAffinity.preferredDuringSchedulingIgnoredDuringExecution}, scores
 */
public record InterPodTerms(List<PodAffinityTerm> affinity, List<PodAffinityTerm> antiAffinity,
                            List<HostPort> hostPorts, List<SpreadConstraint> spread,
                            List<SpreadConstraint> softSpread, List<WeightedPodAffinityTerm> preferredAffinity,
                            List<WeightedPodAffinityTerm> preferredAntiAffinity) {
    /** No terms, no host ports, no spread: the pod goes wherever its shape fits. */
    public static final InterPodTerms NONE = new InterPodTerms(List.of(), List.of(), List.of(), List.of(), List.of(),
            List.of(), List.of());

    public InterPodTerms {
        affinity = affinity == null ? List.of() : List.copyOf(affinity);
        antiAffinity = antiAffinity == null ? List.of() : List.copyOf(antiAffinity);
        hostPorts = hostPorts == null ? List.of() : List.copyOf(hostPorts);
        spread = spread == null ? List.of() : List.copyOf(spread);
        softSpread = softSpread == null ? List.of() : List.copyOf(softSpread);
        preferredAffinity = preferredAffinity == null ? List.of() : List.copyOf(preferredAffinity);
        preferredAntiAffinity = preferredAntiAffinity == null ? List.of() : List.copyOf(preferredAntiAffinity);
    }

    /** Required terms, host ports and both kinds of spread, without preferred inter-pod terms. */
    public InterPodTerms(List<PodAffinityTerm> affinity, List<PodAffinityTerm> antiAffinity, List<HostPort> hostPorts,
                         List<SpreadConstraint> spread, List<SpreadConstraint> softSpread) {
        this(affinity, antiAffinity, hostPorts, spread, softSpread, List.of(), List.of());
    }

    /** Terms, host ports and DoNotSchedule spread, without ScheduleAnyway spread. */
    public InterPodTerms(List<PodAffinityTerm> affinity, List<PodAffinityTerm> antiAffinity, List<HostPort> hostPorts,
                         List<SpreadConstraint> spread) {
        this(affinity, antiAffinity, hostPorts, spread, List.of(), List.of(), List.of());
    }

    /** Terms and host ports without topology spread. */
    public InterPodTerms(List<PodAffinityTerm> affinity, List<PodAffinityTerm> antiAffinity, List<HostPort> hostPorts) {
        this(affinity, antiAffinity, hostPorts, List.of(), List.of(), List.of(), List.of());
    }

    /** Whether there is nothing to evaluate. */
    public boolean isEmpty() {
        // Pods without terms share NONE, and every placement asks.
        return this == NONE || affinity.isEmpty() && antiAffinity.isEmpty() && hostPorts.isEmpty() && spread.isEmpty()
                && softSpread.isEmpty() && preferredAffinity.isEmpty() && preferredAntiAffinity.isEmpty();
    }
}
