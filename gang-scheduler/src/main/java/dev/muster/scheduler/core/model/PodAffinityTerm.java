package dev.muster.scheduler.core.model;

import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;

/**
 * A required inter-pod (anti-)affinity term as kube-scheduler evaluates it: the pods it selects, by
 * namespace and labels, and the node label whose values divide nodes into topology domains. The
 * namespaces it selects are those it names and those whose labels its namespaceSelector selects.
 *
 * @param selector          the label selector's requirements, matchLabels as In of one value, and
 *                          matchLabelKeys/mismatchLabelKeys already merged in; {@code null} for a term
 *                          without a label selector, which selects no pod
 * @param namespaces        namespaces whose pods the term selects; the owning pod's own one when the term
 *                          names none and has no namespaceSelector
 * @param allNamespaces     whether the term selects pods of every namespace (an empty namespaceSelector)
 * @param namespaceSelector a non-empty namespaceSelector's requirements, matched against the labels of a
 *                          pod's namespace; {@code null} for none (or an empty one, {@code allNamespaces})
 * @param topologyKey       node label naming the domains
 */
public record PodAffinityTerm(List<NodeSelectorRequirement> selector, Set<String> namespaces, boolean allNamespaces,
                              List<NodeSelectorRequirement> namespaceSelector, String topologyKey) {

    public PodAffinityTerm {
        selector = selector == null ? null : List.copyOf(selector);
        namespaces = namespaces == null ? Set.of() : Set.copyOf(namespaces);
        namespaceSelector = namespaceSelector == null || namespaceSelector.isEmpty() ? null
                : List.copyOf(namespaceSelector);
        Objects.requireNonNull(topologyKey, "topologyKey");
    }

    /** A term without a namespaceSelector, or with an empty one ({@code allNamespaces}). */
    public PodAffinityTerm(List<NodeSelectorRequirement> selector, Set<String> namespaces, boolean allNamespaces,
                           String topologyKey) {
        this(selector, namespaces, allNamespaces, null, topologyKey);
    }

    /** A term selecting pods with these labels in one namespace. */
    public static PodAffinityTerm ofLabels(Map<String, String> labels, String namespace, String topologyKey) {
        List<NodeSelectorRequirement> selector = labels.entrySet().stream()
                .map(e -> new NodeSelectorRequirement(e.getKey(), NodeSelectorRequirement.Operator.In,
                        Set.of(e.getValue())))
                .toList();
        return new PodAffinityTerm(selector, Set.of(namespace), false, topologyKey);
    }

    /**
     * Whether the term selects the pod.
     *
     * @param namespaceLabels the labels of each namespace the scheduler knows; a pod in a namespace it
     *                        does not know is selected by the namespaceSelector of no term
     */
    public boolean matches(PodInfo pod, Map<String, Map<String, String>> namespaceLabels) {
        return selectsNamespace(pod.namespace(), namespaceLabels)
                && NodeSelectorRequirement.selects(selector, pod.labels());
    }

    private boolean selectsNamespace(String namespace, Map<String, Map<String, String>> namespaceLabels) {
        if (allNamespaces || namespaces.contains(namespace)) {
            return true;
        }
        Map<String, String> labels = namespaceSelector == null ? null : namespaceLabels.get(namespace);
        return labels != null && NodeSelectorRequirement.selects(namespaceSelector, labels);
    }
}
