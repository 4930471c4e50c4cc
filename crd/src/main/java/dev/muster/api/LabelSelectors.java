package dev.muster.api;

import dev.muster.api.batch.v1alpha1.validation.FieldError;
import io.fabric8.kubernetes.api.model.LabelSelector;
import io.fabric8.kubernetes.api.model.LabelSelectorRequirement;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * A {@code metav1.LabelSelector} read as Kubernetes reads it ({@code LabelSelectorAsSelector}): every
 * {@code matchLabels} pair and every {@code matchExpressions} requirement must hold; an empty selector selects
 * everything. A selector Kubernetes would refuse (an unknown operator, {@code In} without values,
 * {@code Exists} with values) selects nothing here, and {@link #problems} names what is wrong. Hand-written
 * because fabric8's model has no matcher outside its mock server, which the production image does not carry.
 */
public final class LabelSelectors {
    private LabelSelectors() {
    }

    /** Whether {@code selector} selects an object with {@code labels}. */
    public static boolean matches(LabelSelector selector, Map<String, String> labels) {
        Map<String, String> have = labels == null ? Map.of() : labels;
        if (!problems(selector, "").isEmpty()) {
            return false;
        }
        if (selector.getMatchLabels() != null) {
            for (Map.Entry<String, String> pair : selector.getMatchLabels().entrySet()) {
                if (!pair.getValue().equals(have.get(pair.getKey()))) {
                    return false;
                }
            }
        }
        if (selector.getMatchExpressions() != null) {
            for (LabelSelectorRequirement requirement : selector.getMatchExpressions()) {
                String value = have.get(requirement.getKey());
                boolean holds = switch (requirement.getOperator()) {
                    case "In" -> value != null && requirement.getValues().contains(value);
                    case "NotIn" -> value == null || !requirement.getValues().contains(value);
                    case "Exists" -> value != null;
                    default -> value == null;
                };
                if (!holds) {
                    return false;
                }
            }
        }
        return true;
    }

    /** What Kubernetes would refuse in the selector, each at {@code field} and the requirement's index. */
    public static List<FieldError> problems(LabelSelector selector, String field) {
        List<FieldError> problems = new ArrayList<>();
        if (selector == null || selector.getMatchExpressions() == null) {
            return problems;
        }
        List<LabelSelectorRequirement> expressions = selector.getMatchExpressions();
        for (int i = 0; i < expressions.size(); i++) {
            LabelSelectorRequirement requirement = expressions.get(i);
            String at = field + ".matchExpressions[" + i + "]";
            List<String> values = requirement == null || requirement.getValues() == null ? List.of() : requirement.getValues();
            String operator = requirement == null ? null : requirement.getOperator();
            if (requirement == null || requirement.getKey() == null || requirement.getKey().isEmpty()) {
                problems.add(new FieldError(at + ".key", "must be set"));
            } else if ("In".equals(operator) || "NotIn".equals(operator)) {
                if (values.isEmpty()) {
                    problems.add(new FieldError(at + ".values", "must be non-empty for operator " + operator));
                }
            } else if ("Exists".equals(operator) || "DoesNotExist".equals(operator)) {
                if (!values.isEmpty()) {
                    problems.add(new FieldError(at + ".values", "must be empty for operator " + operator));
                }
            } else {
                problems.add(new FieldError(at + ".operator", "must be In, NotIn, Exists or DoesNotExist, got '"
                        + operator + "'"));
            }
        }
        return problems;
    }
}
