package dev.muster.scheduler.core.model;

import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;

/**
 * One expression of a required node affinity term, over node labels (or, in {@code matchFields}, over
 * the node's {@code metadata.name}).
 *
 * @param key      label key
 * @param operator how the label is compared
 * @param values   the operand: any number for In and NotIn, none for Exists and DoesNotExist, exactly
 *                 one integer for Gt and Lt
 */
public record NodeSelectorRequirement(String key, Operator operator, Set<String> values) {

    /** The operators of {@code NodeSelectorRequirement}, all of them. */
    public enum Operator {
        In, NotIn, Exists, DoesNotExist, Gt, Lt
    }

    public NodeSelectorRequirement {
        Objects.requireNonNull(key, "key");
        Objects.requireNonNull(operator, "operator");
        values = values == null ? Set.of() : Set.copyOf(values);
    }

    /** A requirement with its operand as listed in the pod spec; duplicates do not matter. */
    public NodeSelectorRequirement(String key, Operator operator, List<String> values) {
        this(key, operator, values == null ? Set.<String>of() : Set.copyOf(values));
    }

    /**
     * Whether a label selector, as a list of requirements that must all hold, selects the labels; a
     * {@code null} selector (none given) selects nothing, an empty one everything.
     */
    public static boolean selects(List<NodeSelectorRequirement> selector, Map<String, String> labels) {
        if (selector == null) {
            return false;
        }
        for (NodeSelectorRequirement requirement : selector) {
            if (!requirement.matches(labels)) {
                return false;
            }
        }
        return true;
    }

    /** Whether the labels satisfy this requirement. */
    public boolean matches(Map<String, String> labels) {
        String label = labels.get(key);
        return switch (operator) {
            case In -> label != null && values.contains(label);
            case NotIn -> label == null || !values.contains(label);
            case Exists -> label != null;
            case DoesNotExist -> label == null;
            case Gt -> compare(label) > 0;
            case Lt -> compare(label) < 0;
        };
    }

    /**
     * The label compared with the single integer operand; 0 (no match for Gt nor Lt) when either is
     * missing or not an integer, as the API treats such a requirement as unsatisfied.
     */
    private int compare(String label) {
        if (label == null || values.size() != 1) {
            return 0;
        }
        try {
            return Long.compare(Long.parseLong(label), Long.parseLong(values.iterator().next()));
        } catch (NumberFormatException e) {
            return 0;
        }
    }
}
