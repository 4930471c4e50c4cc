package dev.muster.api;

import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.ContainerBuilder;
import io.fabric8.kubernetes.api.model.LimitRange;
import io.fabric8.kubernetes.api.model.LimitRangeItem;
import io.fabric8.kubernetes.api.model.PodSpec;
import io.fabric8.kubernetes.api.model.PodSpecBuilder;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.api.model.ResourceRequirements;

import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * The resources kube-apiserver's LimitRanger admission gives a container that does not set them, from the
 * {@code type: Container} items of its namespace's LimitRanges: a missing limit takes the item's {@code default},
 * a missing request its {@code defaultRequest}. An item's own defaults are completed first, as the API server
 * defaults a stored LimitRange: a {@code default} missing for a resource with a {@code max} is the max, a
 * {@code defaultRequest} missing for one with a {@code default} is that default, else the {@code min}. Within one
 * LimitRange a later item's default wins; several LimitRanges apply in name order, each filling only what is still
 * missing. A container that sets a limit and no
 * request has the limit as its request before LimitRanger runs (the API server's defaulting), so no default request
 * replaces it.
 *
 * <p>Why it matters before a pod exists: a Muster Job's gang is admitted from the pods it will create, and a
 * template without requests in a namespace with a default would be admitted as asking for nothing, then each of its
 * pods created asking for the default (Kueue applies the same defaults to its pod sets for the same reason).
 *
 * <p>The maps are sorted by resource, so that {@link #toString()} names the same defaults the same way.
 *
 * @param limits   per resource, the limit a container without one gets
 * @param requests per resource, the request a container without one (and without a limit on it) gets
 */
public record LimitRangeDefaults(Map<String, Quantity> limits, Map<String, Quantity> requests) {
    /** No LimitRange, or none with container defaults. */
    public static final LimitRangeDefaults NONE = new LimitRangeDefaults(Map.of(), Map.of());

    /** The LimitRange item type whose bounds and defaults apply to each container. */
    public static final String CONTAINER = "Container";

    public LimitRangeDefaults {
        limits = Collections.unmodifiableMap(new TreeMap<>(limits));
        requests = Collections.unmodifiableMap(new TreeMap<>(requests));
    }

    /** The defaults of a namespace's LimitRanges. */
    public static LimitRangeDefaults of(List<LimitRange> ranges) {
        Map<String, Quantity> limits = new TreeMap<>();
        Map<String, Quantity> requests = new TreeMap<>();
        List<LimitRange> ordered = new ArrayList<>(ranges);
        ordered.sort(Comparator.comparing(range -> range.getMetadata().getName()));
        for (LimitRange range : ordered) {
            if (range.getSpec() == null || range.getSpec().getLimits() == null) {
                continue;
            }
            // Within one LimitRange a later item's default wins, as LimitRanger collects them.
            Map<String, Quantity> rangeLimits = new LinkedHashMap<>();
            Map<String, Quantity> rangeRequests = new LinkedHashMap<>();
            for (LimitRangeItem item : range.getSpec().getLimits()) {
                if (item == null || !CONTAINER.equals(item.getType())) {
                    continue;
                }
                Map<String, Quantity> itemLimits = new LinkedHashMap<>(orEmpty(item.getDefault()));
                orEmpty(item.getMax()).forEach(itemLimits::putIfAbsent);
                Map<String, Quantity> itemRequests = new LinkedHashMap<>(orEmpty(item.getDefaultRequest()));
                itemLimits.forEach(itemRequests::putIfAbsent);
                orEmpty(item.getMin()).forEach(itemRequests::putIfAbsent);
                rangeLimits.putAll(itemLimits);
                rangeRequests.putAll(itemRequests);
            }
            rangeLimits.forEach(limits::putIfAbsent);
            rangeRequests.forEach(requests::putIfAbsent);
        }
        return limits.isEmpty() && requests.isEmpty() ? NONE : new LimitRangeDefaults(limits, requests);
    }

    /** Whether there is nothing to default. */
    public boolean isEmpty() {
        return limits.isEmpty() && requests.isEmpty();
    }

    /** A copy of the pod spec with every container, init containers included, given the defaults it lacks. */
    public PodSpec applyTo(PodSpec spec) {
        if (isEmpty()) {
            return spec;
        }
        return new PodSpecBuilder(spec).withContainers(applyTo(spec.getContainers()))
                .withInitContainers(applyTo(spec.getInitContainers())).build();
    }

    private List<Container> applyTo(List<Container> containers) {
        if (containers == null) {
            return null;
        }
        List<Container> defaulted = new ArrayList<>(containers.size());
        for (Container container : containers) {
            ResourceRequirements resources = container.getResources();
            Map<String, Quantity> ownLimits = resources == null ? Map.of() : orEmpty(resources.getLimits());
            Map<String, Quantity> ownRequests = resources == null ? Map.of() : orEmpty(resources.getRequests());
            Map<String, Quantity> newRequests = requests(ownLimits, ownRequests);
            Map<String, Quantity> newLimits = limits(ownLimits);
            defaulted.add(new ContainerBuilder(container).editOrNewResources().withLimits(newLimits)
                    .withRequests(newRequests).endResources().build());
        }
        return defaulted;
    }

    /** The container's limits with the defaults it lacks. */
    public Map<String, Quantity> limits(Map<String, Quantity> own) {
        Map<String, Quantity> merged = new TreeMap<>(own);
        limits.forEach(merged::putIfAbsent);
        return merged;
    }

    /**
     * The container's requests: its own, its limits where it has no request (the API server's defaulting, before
     * admission), then the defaults it still lacks.
     */
    public Map<String, Quantity> requests(Map<String, Quantity> ownLimits, Map<String, Quantity> ownRequests) {
        Map<String, Quantity> merged = new TreeMap<>(ownRequests);
        ownLimits.forEach(merged::putIfAbsent);
        requests.forEach(merged::putIfAbsent);
        return merged;
    }

    private static Map<String, Quantity> orEmpty(Map<String, Quantity> quantities) {
        return quantities == null ? Map.of() : quantities;
    }
}
