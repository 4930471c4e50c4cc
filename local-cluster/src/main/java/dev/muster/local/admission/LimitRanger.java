package dev.muster.local.admission;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.muster.api.LimitRangeDefaults;
import io.fabric8.kubernetes.api.model.Quantity;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * kube-apiserver's LimitRanger admission as it defaults a new pod: each container, init containers included, gets
 * the limits and requests of its namespace's LimitRanges that it does not set ({@link LimitRangeDefaults}), and the
 * pod records what was set in the annotation {@value #ANNOTATION}, in kube's words
 * ({@code LimitRanger plugin set: cpu, memory request for container main; cpu limit for container main}). The
 * LimitRanges' {@code min}, {@code max} and {@code maxLimitRequestRatio} are not enforced here.
 */
public final class LimitRanger {
    /** Where kube-apiserver says what LimitRanger set. */
    public static final String ANNOTATION = "kubernetes.io/limit-ranger";

    private LimitRanger() {
    }

    /** A copy of the pod with the defaults its containers lack, or the pod itself when there are none. */
    public static JsonNode apply(JsonNode pod, LimitRangeDefaults defaults) {
        if (defaults.isEmpty() || !(pod instanceof ObjectNode)) {
            return pod;
        }
        ObjectNode defaulted = pod.deepCopy();
        JsonNode spec = defaulted.path("spec");
        List<String> said = new ArrayList<>();
        for (JsonNode container : spec.path("containers")) {
            said.addAll(apply(container, "container", defaults));
        }
        for (JsonNode container : spec.path("initContainers")) {
            said.addAll(apply(container, "init container", defaults));
        }
        if (!said.isEmpty()) {
            defaulted.withObjectProperty("metadata").withObjectProperty("annotations")
                    .put(ANNOTATION, "LimitRanger plugin set: " + String.join("; ", said));
        }
        return defaulted;
    }

    private static List<String> apply(JsonNode node, String kind, LimitRangeDefaults defaults) {
        if (!(node instanceof ObjectNode container)) {
            return List.of();
        }
        ObjectNode resources = container.withObjectProperty("resources");
        Map<String, Quantity> limits = quantities(resources.path("limits"));
        Map<String, Quantity> requests = quantities(resources.path("requests"));
        Map<String, Quantity> newLimits = defaults.limits(limits);
        Map<String, Quantity> newRequests = defaults.requests(limits, requests);
        // A limit without a request stands for the request (the API server's defaulting): no default replaces it.
        Map<String, Quantity> own = new TreeMap<>(requests);
        limits.forEach(own::putIfAbsent);
        List<String> setRequests = put(resources, "requests", own, newRequests);
        List<String> setLimits = put(resources, "limits", limits, newLimits);
        String name = container.path("name").asText("");
        List<String> said = new ArrayList<>();
        if (!setRequests.isEmpty()) {
            said.add(String.join(", ", setRequests) + " request for " + kind + " " + name);
        }
        if (!setLimits.isEmpty()) {
            said.add(String.join(", ", setLimits) + " limit for " + kind + " " + name);
        }
        return said;
    }

    /** Writes the entries of {@code after} that {@code before} lacks; the names of those that came from defaults. */
    private static List<String> put(ObjectNode resources, String field, Map<String, Quantity> before,
                                    Map<String, Quantity> after) {
        List<String> set = new ArrayList<>();
        after.forEach((resource, quantity) -> {
            if (!before.containsKey(resource)) {
                resources.withObjectProperty(field).put(resource, quantity.toString());
                set.add(resource);
            }
        });
        return set;
    }

    private static Map<String, Quantity> quantities(JsonNode amounts) {
        Map<String, Quantity> byName = new TreeMap<>();
        amounts.fields().forEachRemaining(entry -> byName.put(entry.getKey(), new Quantity(entry.getValue().asText())));
        return byName;
    }
}
