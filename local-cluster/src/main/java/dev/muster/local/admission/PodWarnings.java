package dev.muster.local.admission;

import com.fasterxml.jackson.databind.JsonNode;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Part of the warnings kube-apiserver sends with a pod it accepts ({@code GetWarningsForPod} in
 * <a href="https://github.com/kubernetes/kubernetes/blob/master/pkg/api/pod/warnings.go">pkg/api/pod/warnings.go</a>,
 * the deprecated node labels of
 * <a href="https://github.com/kubernetes/kubernetes/blob/master/pkg/api/node/util.go">pkg/api/node/util.go</a>),
 * in its words: deprecated node labels in the node selector, required node affinity and topology spread
 * constraints; annotations that no longer do anything; an environment variable defined twice in a container so that
 * the second hides the first. Each becomes a {@code Warning} header of the answer, whatever {@code fieldValidation}
 * says, as there.
 */
public final class PodWarnings {
    private static final Map<String, String> DEPRECATED_NODE_LABELS = Map.of(
            "beta.kubernetes.io/arch", "deprecated since v1.14; use \"kubernetes.io/arch\" instead",
            "beta.kubernetes.io/os", "deprecated since v1.14; use \"kubernetes.io/os\" instead",
            "failure-domain.beta.kubernetes.io/region", "deprecated since v1.17; use \"topology.kubernetes.io/region\" instead",
            "failure-domain.beta.kubernetes.io/zone", "deprecated since v1.17; use \"topology.kubernetes.io/zone\" instead",
            "beta.kubernetes.io/instance-type", "deprecated since v1.17; use \"node.kubernetes.io/instance-type\" instead",
            "app.kubernetes.io/created-by", "deprecated since v1.9",
            "scheduler.alpha.kubernetes.io/preferAvoidPods", "deprecated since v1.22; use Taints and Tolerations instead",
            "node-role.kubernetes.io/master", "use \"node-role.kubernetes.io/control-plane\" instead");
    private static final Map<String, String> DEPRECATED_ANNOTATIONS = Map.of(
            "scheduler.alpha.kubernetes.io/critical-pod", "non-functional in v1.16+; use the \"priorityClassName\" field instead",
            "security.alpha.kubernetes.io/sysctls", "non-functional in v1.11+; use the \"sysctls\" field instead",
            "security.alpha.kubernetes.io/unsafe-sysctls", "non-functional in v1.11+; use the \"sysctls\" field instead");
    /** The order in which kube-apiserver visits a pod's containers. */
    private static final List<String> CONTAINER_LISTS = List.of("initContainers", "containers", "ephemeralContainers");

    private PodWarnings() {
    }

    /** The warnings for a pod (as JSON) being created. */
    public static List<String> of(JsonNode pod) {
        List<String> warnings = new ArrayList<>();
        JsonNode spec = pod.path("spec");
        spec.path("nodeSelector").fieldNames().forEachRemaining(label -> {
            String deprecated = DEPRECATED_NODE_LABELS.get(label);
            if (deprecated != null) {
                warnings.add("spec.nodeSelector[" + label + "]: " + deprecated);
            }
        });
        String terms = "spec.affinity.nodeAffinity.requiredDuringSchedulingIgnoredDuringExecution.nodeSelectorTerms";
        JsonNode required = spec.path("affinity").path("nodeAffinity").path("requiredDuringSchedulingIgnoredDuringExecution")
                .path("nodeSelectorTerms");
        for (int t = 0; t < required.size(); t++) {
            JsonNode expressions = required.get(t).path("matchExpressions");
            for (int e = 0; e < expressions.size(); e++) {
                deprecatedKey(terms + "[" + t + "].matchExpressions[" + e + "].key", expressions.get(e).path("key").asText(), warnings);
            }
        }
        JsonNode spread = spec.path("topologySpreadConstraints");
        for (int i = 0; i < spread.size(); i++) {
            deprecatedKey("spec.topologySpreadConstraints[" + i + "].topologyKey", spread.get(i).path("topologyKey").asText(), warnings);
        }
        JsonNode annotations = pod.path("metadata").path("annotations");
        DEPRECATED_ANNOTATIONS.entrySet().stream().filter(a -> annotations.has(a.getKey())).sorted(Map.Entry.comparingByKey())
                .forEach(a -> warnings.add("metadata.annotations[" + a.getKey() + "]: " + a.getValue()));
        for (String list : CONTAINER_LISTS) {
            JsonNode containers = spec.path(list);
            for (int c = 0; c < containers.size(); c++) {
                hiddenEnv("spec." + list + "[" + c + "]", containers.get(c).path("env"), warnings);
            }
        }
        return warnings;
    }

    private static void deprecatedKey(String path, String key, List<String> warnings) {
        String deprecated = DEPRECATED_NODE_LABELS.get(key);
        if (deprecated != null) {
            warnings.add(path + ": " + key + " is " + deprecated);
        }
    }

    /**
     * A variable defined again, unless the later definition is a plain value that builds on the earlier one
     * ({@code X=$(X):more}): applying the object again may drop one of the two.
     */
    private static void hiddenEnv(String container, JsonNode env, List<String> warnings) {
        Set<String> seen = new HashSet<>();
        for (int i = 0; i < env.size(); i++) {
            JsonNode variable = env.get(i);
            String name = variable.path("name").asText();
            if (seen.add(name)) {
                continue;
            }
            String reference = "$(" + name + ")";
            String value = variable.path("value").asText("");
            if (variable.has("valueFrom") || value.equals(reference) || !value.contains(reference)) {
                warnings.add(container + ".env[" + i + "]: hides previous definition of \"" + name
                        + "\", which may be dropped when using apply");
            }
        }
    }
}
