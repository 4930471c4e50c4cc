package dev.muster.scheduler.core.model;

import java.util.List;
import java.util.Map;

/**
 * One term of a required node affinity: every expression must hold. A term with no expressions matches
 * no node, as in Kubernetes.
 *
 * @param matchExpressions requirements on node labels
 * @param matchFields      requirements on node fields; only {@code metadata.name} exists
 */
public record NodeSelectorTerm(List<NodeSelectorRequirement> matchExpressions,
                               List<NodeSelectorRequirement> matchFields) {
    /** The only field a node selector term may name. */
    public static final String NODE_NAME_FIELD = "metadata.name";

    public NodeSelectorTerm {
        matchExpressions = matchExpressions == null ? List.of() : List.copyOf(matchExpressions);
        matchFields = matchFields == null ? List.of() : List.copyOf(matchFields);
    }

    /** Whether the node satisfies every expression of the term. */
    public boolean matches(NodeInfo node) {
        if (matchExpressions.isEmpty() && matchFields.isEmpty()) {
            return false;
        }
        for (NodeSelectorRequirement requirement : matchExpressions) {
            if (!requirement.matches(node.labels())) {
                return false;
            }
        }
        if (matchFields.isEmpty()) {
            return true;
        }
        Map<String, String> fields = Map.of(NODE_NAME_FIELD, node.name());
        for (NodeSelectorRequirement requirement : matchFields) {
            if (!requirement.matches(fields)) {
                return false;
            }
        }
        return true;
    }
}
