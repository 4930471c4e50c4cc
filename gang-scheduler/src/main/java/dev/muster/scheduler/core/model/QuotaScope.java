package dev.muster.scheduler.core.model;

import java.util.List;

/**
 * One scope of a ResourceQuota ({@code spec.scopes}, or an expression of {@code spec.scopeSelector}): a quota counts
 * and limits only the pods every one of its scopes selects.
 *
 * @param scopeName {@code Terminating}, {@code NotTerminating}, {@code BestEffort}, {@code NotBestEffort},
 *                  {@code PriorityClass} or {@code CrossNamespacePodAffinity}
 * @param operator  {@code In}, {@code NotIn}, {@code Exists} or {@code DoesNotExist}; a scope of {@code spec.scopes}
 *                  is {@code Exists}
 * @param values    the priority classes of {@code In} and {@code NotIn}
 */
public record QuotaScope(String scopeName, String operator, List<String> values) {
    /** The scope names the API server knows for pods. */
    public static final List<String> NAMES = List.of("Terminating", "NotTerminating", "BestEffort", "NotBestEffort",
            "PriorityClass", "CrossNamespacePodAffinity");

    public QuotaScope {
        values = values == null ? List.of() : List.copyOf(values);
    }

    /** Whether the scope selects a pod of these facts, as kube-apiserver's pod evaluator matches scopes. */
    public boolean selects(QuotaFacts pod) {
        return switch (scopeName) {
            case "Terminating" -> pod.terminating();
            case "NotTerminating" -> !pod.terminating();
            case "BestEffort" -> pod.bestEffort();
            case "NotBestEffort" -> !pod.bestEffort();
            case "PriorityClass" -> switch (operator) {
                case "Exists" -> !pod.priorityClassName().isEmpty();
                case "DoesNotExist" -> pod.priorityClassName().isEmpty();
                // A pod without a class has no value to match: In never selects it, NotIn always does.
                case "In" -> !pod.priorityClassName().isEmpty() && values.contains(pod.priorityClassName());
                case "NotIn" -> pod.priorityClassName().isEmpty() || !values.contains(pod.priorityClassName());
                default -> false;
            };
            case "CrossNamespacePodAffinity" -> pod.crossNamespaceAffinity();
            default -> false;
        };
    }
}
