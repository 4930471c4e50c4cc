package dev.muster.local.admission;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.muster.api.LimitRangeDefaults;
import io.fabric8.kubernetes.api.model.LimitRange;
import io.fabric8.kubernetes.api.model.LimitRangeItem;
import io.fabric8.kubernetes.api.model.Quantity;

import java.math.BigDecimal;
import java.math.MathContext;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

/**
 * kube-apiserver's LimitRanger admission as it defaults a new pod: each container, init containers included, gets
 * the limits and requests of its namespace's LimitRanges that it does not set ({@link LimitRangeDefaults}), and the
 * pod records what was set in the annotation {@value #ANNOTATION}, in kube's words
 * ({@code LimitRanger plugin set: cpu, memory request for container main; cpu limit for container main}). Then
 * each container is held to the {@code min}, {@code max} and {@code maxLimitRequestRatio} of the {@code Container}
 * items ({@link #refusal}), in kube's words, the first LimitRange by name that a container breaks refusing the pod.
 * The {@code Pod} and {@code PersistentVolumeClaim} item types are not enforced.
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

    /**
     * Why LimitRanger's validation refuses the defaulted pod, as kube-apiserver words it after
     * {@code pods "<name>" is forbidden: } (one reason alone, several in brackets), or empty when every container
     * keeps within the {@code Container} items of every LimitRange. A container's request is its limit where it sets
     * no request, as the API server's defaulting makes it.
     *
     * @param ranges the namespace's LimitRanges; the first by name that the pod breaks is the one reported
     */
    public static Optional<String> refusal(JsonNode pod, List<LimitRange> ranges) {
        List<LimitRange> ordered = new ArrayList<>(ranges);
        ordered.sort(Comparator.comparing(range -> range.getMetadata().getName()));
        List<Amounts> containers = new ArrayList<>();
        pod.path("spec").path("containers").forEach(container -> containers.add(Amounts.of(container)));
        pod.path("spec").path("initContainers").forEach(container -> containers.add(Amounts.of(container)));
        for (LimitRange range : ordered) {
            List<String> errors = new ArrayList<>();
            List<LimitRangeItem> items = range.getSpec() == null || range.getSpec().getLimits() == null ? List.of()
                    : range.getSpec().getLimits();
            for (LimitRangeItem item : items) {
                if (item == null || !LimitRangeDefaults.CONTAINER.equals(item.getType())) {
                    continue;
                }
                for (Amounts container : containers) {
                    Map<String, Quantity> limits = container.limits();
                    Map<String, Quantity> requests = container.requests();
                    sorted(item.getMin()).forEach((resource, min) -> bound("minimum", resource, min, -1,
                            requests, "request", limits, "limit").ifPresent(errors::add));
                    sorted(item.getMax()).forEach((resource, max) -> bound("maximum", resource, max, 1,
                            limits, "limit", requests, "request").ifPresent(errors::add));
                    sorted(item.getMaxLimitRequestRatio()).forEach((resource, ratio) -> ratio(resource, ratio,
                            requests, limits).ifPresent(errors::add));
                }
            }
            if (!errors.isEmpty()) {
                return Optional.of(errors.size() == 1 ? errors.get(0) : "[" + String.join(", ", errors) + "]");
            }
        }
        return Optional.empty();
    }

    /**
     * A container's limits and requests, read once per pod; a limit without a request stands for the request,
     * as the API server's defaulting has made it before LimitRanger runs.
     */
    private record Amounts(Map<String, Quantity> limits, Map<String, Quantity> requests) {
        static Amounts of(JsonNode container) {
            Map<String, Quantity> limits = quantities(container.path("resources").path("limits"));
            Map<String, Quantity> requests = quantities(container.path("resources").path("requests"));
            limits.forEach(requests::putIfAbsent);
            return new Amounts(limits, requests);
        }
    }

    /**
     * A {@code min} or {@code max} bound in LimitRanger's words: the amount it reads first (a minimum the request,
     * a maximum the limit) missing or past it, else the other amount past it.
     *
     * @param past the sign of a comparison with the bound that breaks it: -1 below a minimum, 1 above a maximum
     */
    private static Optional<String> bound(String word, String resource, Quantity bound, int past,
                                          Map<String, Quantity> first, String firstName,
                                          Map<String, Quantity> second, String secondName) {
        String per = word + " " + resource + " usage per " + LimitRangeDefaults.CONTAINER + " is " + bound;
        Quantity amount = first.get(resource);
        if (amount == null) {
            return Optional.of(per + ".  No " + firstName + " is specified");
        }
        if (Integer.signum(compare(amount, bound)) == past) {
            return Optional.of(per + ", but " + firstName + " is " + amount);
        }
        Quantity other = second.get(resource);
        return other != null && Integer.signum(compare(other, bound)) == past
                ? Optional.of(per + ", but " + secondName + " is " + other) : Optional.empty();
    }

    private static Optional<String> ratio(String resource, Quantity most, Map<String, Quantity> requests,
                                          Map<String, Quantity> limits) {
        String per = resource + " max limit to request ratio per " + LimitRangeDefaults.CONTAINER + " is " + most;
        Quantity request = requests.get(resource);
        Quantity limit = limits.get(resource);
        if (request == null || request.getNumericalAmount().signum() == 0) {
            return Optional.of(per + ", but no request is specified or request is 0");
        }
        if (limit == null || limit.getNumericalAmount().signum() == 0) {
            return Optional.of(per + ", but no limit is specified or limit is 0");
        }
        BigDecimal observed = limit.getNumericalAmount().divide(request.getNumericalAmount(), MathContext.DECIMAL64);
        return observed.compareTo(most.getNumericalAmount()) > 0
                ? Optional.of(per + ", but provided ratio is " + String.format(Locale.ROOT, "%f", observed.doubleValue()))
                : Optional.empty();
    }

    private static int compare(Quantity a, Quantity b) {
        return a.getNumericalAmount().compareTo(b.getNumericalAmount());
    }

    private static Map<String, Quantity> sorted(Map<String, Quantity> quantities) {
        return quantities == null ? Map.of() : new TreeMap<>(quantities);
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
