package dev.muster.local.admission;

import com.fasterxml.jackson.databind.JsonNode;
import dev.muster.local.protocol.FieldError;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * kube-apiserver's validation of Kubernetes 1.36's alpha Workload API ({@code scheduling.k8s.io/v1alpha2}
 * Workloads and PodGroups, gate GenericWorkload) and of the pod field that joins a pod to a PodGroup,
 * {@code spec.schedulingGroup}, limited to the rules users meet first: exactly one scheduling policy, a positive
 * gang {@code minCount}, at most one topology constraint, a Workload's 1 to 8 uniquely named templates, and the
 * immutability of what the scheduler has read. Errors carry kube's field paths and wording; see
 * https://github.com/kubernetes/api/blob/master/scheduling/v1alpha2/types.go for the types.
 */
public final class WorkloadApiValidation {
    /** The most pod group templates a Workload may have. */
    static final int MAX_TEMPLATES = 8;
    private static final int MAX_TOPOLOGY_CONSTRAINTS = 1;
    private static final int SUBDOMAIN_MAX_LENGTH = 253;
    private static final int LABEL_MAX_LENGTH = 63;
    private static final Pattern LABEL = Pattern.compile("[a-z0-9]([-a-z0-9]*[a-z0-9])?");
    private static final Pattern SUBDOMAIN = Pattern.compile(LABEL.pattern() + "(\\." + LABEL.pattern() + ")*");
    private static final String LABEL_MESSAGE = "a lowercase RFC 1123 label must consist of lower case alphanumeric "
            + "characters or '-', and must start and end with an alphanumeric character (e.g. 'my-name',  or "
            + "'123-abc', regex used for validation is '" + LABEL.pattern() + "')";
    private static final String SUBDOMAIN_MESSAGE = "a lowercase RFC 1123 subdomain must consist of lower case "
            + "alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. "
            + "'example.com', regex used for validation is '" + SUBDOMAIN.pattern() + "')";
    private static final String IMMUTABLE = "field is immutable";
    private static final List<String> POLICIES = List.of("basic", "gang");
    private static final List<String> POD_GROUP_SPEC = List.of("podGroupTemplateRef", "schedulingPolicy",
            "schedulingConstraints", "resourceClaims");
    private static final List<String> WORKLOAD_SPEC = List.of("controllerRef", "podGroupTemplates");

    private WorkloadApiValidation() {
    }

    /**
     * The errors of a PodGroup's create ({@code old} null) or main-resource update ({@code old} the stored one).
     */
    public static List<FieldError> podGroup(JsonNode podGroup, JsonNode old) {
        List<FieldError> errors = new ArrayList<>();
        JsonNode spec = podGroup.path("spec");
        policy(spec.path("schedulingPolicy"), "spec.schedulingPolicy", errors);
        constraints(spec.path("schedulingConstraints"), "spec.schedulingConstraints", errors);
        if (old != null) {
            immutable(spec, old.path("spec"), POD_GROUP_SPEC, errors);
        }
        return errors;
    }

    /** The errors of a Workload's create ({@code old} null) or update ({@code old} the stored one). */
    public static List<FieldError> workload(JsonNode workload, JsonNode old) {
        List<FieldError> errors = new ArrayList<>();
        JsonNode spec = workload.path("spec");
        JsonNode templates = spec.path("podGroupTemplates");
        String path = "spec.podGroupTemplates";
        if (!templates.isArray() || templates.isEmpty()) {
            errors.add(FieldError.required(path));
        } else if (templates.size() > MAX_TEMPLATES) {
            errors.add(FieldError.tooMany(path, templates.size(), MAX_TEMPLATES));
        }
        Set<String> names = new HashSet<>();
        for (int i = 0; i < templates.size() && templates.isArray(); i++) {
            JsonNode template = templates.get(i);
            String at = path + "[" + i + "]";
            String name = template.path("name").asText("");
            if (name.isEmpty()) {
                errors.add(FieldError.required(at + ".name"));
            } else if (name.length() > LABEL_MAX_LENGTH) {
                errors.add(FieldError.invalid(at + ".name", name,
                        "must be no more than " + LABEL_MAX_LENGTH + " characters"));
            } else if (!LABEL.matcher(name).matches()) {
                errors.add(FieldError.invalid(at + ".name", name, LABEL_MESSAGE));
            } else if (!names.add(name)) {
                errors.add(FieldError.duplicate(at + ".name", name));
            }
            policy(template.path("schedulingPolicy"), at + ".schedulingPolicy", errors);
            constraints(template.path("schedulingConstraints"), at + ".schedulingConstraints", errors);
        }
        if (old != null) {
            immutable(spec, old.path("spec"), WORKLOAD_SPEC, errors);
        }
        return errors;
    }

    /**
     * The errors of a pod's {@code spec.schedulingGroup} ({@code old} null on create, else the stored pod): its
     * {@code podGroupName} a DNS subdomain, and, as a pod's spec, unchanged by an update.
     */
    public static List<FieldError> podSchedulingGroup(JsonNode pod, JsonNode old) {
        List<FieldError> errors = new ArrayList<>();
        JsonNode group = pod.path("spec").path("schedulingGroup");
        if (old != null) {
            if (!same(group, old.path("spec").path("schedulingGroup"))) {
                errors.add(FieldError.forbidden("spec.schedulingGroup", IMMUTABLE));
            }
            return errors;
        }
        if (!present(group)) {
            return errors;
        }
        String path = "spec.schedulingGroup.podGroupName";
        String name = group.path("podGroupName").asText("");
        if (name.isEmpty()) {
            errors.add(FieldError.required(path));
        } else if (name.length() > SUBDOMAIN_MAX_LENGTH) {
            errors.add(FieldError.invalid(path, name, "must be no more than " + SUBDOMAIN_MAX_LENGTH + " characters"));
        } else if (!SUBDOMAIN.matcher(name).matches()) {
            errors.add(FieldError.invalid(path, name, SUBDOMAIN_MESSAGE));
        }
        return errors;
    }

    /** A union of {@code basic} and {@code gang}: kube's declarative union rule wants exactly one. */
    private static void policy(JsonNode policy, String path, List<FieldError> errors) {
        List<String> set = POLICIES.stream().filter(member -> present(policy.path(member))).toList();
        String members = String.join(", ", POLICIES.stream().map(member -> "`" + member + "`").toList());
        if (set.isEmpty()) {
            errors.add(FieldError.invalid(path, "", "must specify one of: " + members));
        } else if (set.size() > 1) {
            errors.add(FieldError.invalid(path, "{" + String.join(", ", set.stream().map(m -> "`" + m + "`").toList()) + "}",
                    "must specify exactly one of: " + members));
        }
        JsonNode minCount = policy.path("gang").path("minCount");
        if (present(policy.path("gang"))) {
            // A Go int32 left out is 0, which the required rule refuses as unset.
            if (!present(minCount) || minCount.isNumber() && minCount.asLong() == 0) {
                errors.add(FieldError.required(path + ".gang.minCount"));
            } else if (minCount.isNumber() && minCount.asLong() < 1) {
                errors.add(FieldError.invalid(path + ".gang.minCount", minCount.asLong(),
                        "must be greater than or equal to 1"));
            }
        }
    }

    private static void constraints(JsonNode constraints, String path, List<FieldError> errors) {
        JsonNode topology = constraints.path("topology");
        if (!topology.isArray()) {
            return;
        }
        if (topology.size() > MAX_TOPOLOGY_CONSTRAINTS) {
            errors.add(FieldError.tooMany(path + ".topology", topology.size(), MAX_TOPOLOGY_CONSTRAINTS));
        }
        for (int i = 0; i < topology.size(); i++) {
            if (topology.get(i).path("key").asText("").isEmpty()) {
                errors.add(FieldError.required(path + ".topology[" + i + "].key"));
            }
        }
    }

    private static void immutable(JsonNode spec, JsonNode old, List<String> fields, List<FieldError> errors) {
        for (String field : fields) {
            if (!same(spec.path(field), old.path(field))) {
                errors.add(FieldError.forbidden("spec." + field, IMMUTABLE));
            }
        }
    }

    /** Equal, a field left out and one set to null being the same unset field. */
    private static boolean same(JsonNode value, JsonNode old) {
        return present(value) ? value.equals(old) : !present(old);
    }

    private static boolean present(JsonNode node) {
        return !node.isMissingNode() && !node.isNull();
    }
}
