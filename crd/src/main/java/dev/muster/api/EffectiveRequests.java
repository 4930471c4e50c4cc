package dev.muster.api;

import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.PodSpec;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.api.model.ResourceRequirements;

import java.math.BigDecimal;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.function.Function;

/**
 * What a pod asks of a node, as kube-scheduler computes it: the larger of the app containers' sum and the peak
 * during init (each regular init container runs alone, next to the sidecars started before it), with sidecars
 * (init containers with {@code restartPolicy: Always}) added to the app containers, plus the pod overhead. A
 * resource with a limit but no request requests its limit, as the API server defaults it; a {@code pods}
 * entry counts for nothing, since a pod always takes exactly one slot.
 *
 * <p>The one computation for the scheduler (which adds in its own resource vectors), the CLI and the
 * dashboard (which read amounts).
 */
public final class EffectiveRequests {
    private static final String PODS = "pods";

    /** Amounts in each resource's base unit (cores, bytes, devices), by resource name, without zeros. */
    public static final Arithmetic<Map<String, BigDecimal>> AMOUNTS = new Arithmetic<>() {
        @Override
        public Map<String, BigDecimal> zero() {
            return Map.of();
        }

        @Override
        public Map<String, BigDecimal> of(Map<String, Quantity> quantities) {
            Map<String, BigDecimal> amounts = new TreeMap<>();
            quantities.forEach((name, quantity) -> {
                BigDecimal amount = quantity.getNumericalAmount();
                if (amount.signum() != 0) {
                    amounts.put(name, amount);
                }
            });
            return amounts;
        }

        @Override
        public Map<String, BigDecimal> plus(Map<String, BigDecimal> a, Map<String, BigDecimal> b) {
            Map<String, BigDecimal> sum = new TreeMap<>(a);
            b.forEach((name, amount) -> sum.merge(name, amount, BigDecimal::add));
            return sum;
        }

        @Override
        public Map<String, BigDecimal> max(Map<String, BigDecimal> a, Map<String, BigDecimal> b) {
            Map<String, BigDecimal> max = new TreeMap<>(a);
            b.forEach((name, amount) -> max.merge(name, amount, BigDecimal::max));
            return max;
        }
    };

    private EffectiveRequests() {
    }

    /**
     * How a caller adds up requests: the scheduler in its dense vectors, others in maps of amounts.
     *
     * @param <V> the caller's representation of a set of requests
     */
    public interface Arithmetic<V> {
        /** No requests. */
        V zero();

        /** Requests given as quantities by resource name. */
        V of(Map<String, Quantity> quantities);

        /** Both together. */
        V plus(V a, V b);

        /** The larger of each resource. */
        V max(V a, V b);
    }

    /** The pod's effective requests as amounts; see {@link #AMOUNTS}. */
    public static Map<String, BigDecimal> amounts(PodSpec spec) {
        return of(spec, AMOUNTS);
    }

    /** The pod's effective requests, added up by {@code arithmetic}. */
    public static <V> V of(PodSpec spec, Arithmetic<V> arithmetic) {
        V overhead = spec.getOverhead() == null ? arithmetic.zero() : arithmetic.of(withoutPods(spec.getOverhead()));
        return arithmetic.plus(peak(spec, arithmetic, EffectiveRequests::effective), overhead);
    }

    /**
     * The larger of the app containers' sum and the peak during init (each regular init container beside the
     * sidecars started before it), sidecars added to the app containers, of what {@code amounts} reads of each.
     */
    private static <V> V peak(PodSpec spec, Arithmetic<V> arithmetic, Function<Container, Map<String, Quantity>> amounts) {
        V sum = arithmetic.zero();
        for (Container container : list(spec.getContainers())) {
            sum = arithmetic.plus(sum, arithmetic.of(amounts.apply(container)));
        }
        V sidecars = arithmetic.zero();
        V initPeak = arithmetic.zero();
        for (Container init : list(spec.getInitContainers())) {
            V own = arithmetic.of(amounts.apply(init));
            if (Sidecars.isSidecar(init)) {
                sum = arithmetic.plus(sum, own);
                sidecars = arithmetic.plus(sidecars, own);
                initPeak = arithmetic.max(initPeak, sidecars);
            } else {
                initPeak = arithmetic.max(initPeak, arithmetic.plus(own, sidecars));
            }
        }
        return arithmetic.max(sum, initPeak);
    }

    /**
     * The pod's limits as a ResourceQuota's {@code limits.*} count them (kube's {@code PodLimits}): the larger of the
     * app containers' and sidecars' sum and each regular init container's with the sidecars started before it, plus
     * the pod overhead on the resources that have a limit. Only limits that are set count: a container without a
     * limit on a resource adds nothing to it.
     */
    public static <V> V limits(PodSpec spec, Arithmetic<V> arithmetic) {
        V total = peak(spec, arithmetic, EffectiveRequests::limitsOf);
        if (spec.getOverhead() == null) {
            return total;
        }
        Set<String> limited = new HashSet<>();
        list(spec.getContainers()).forEach(container -> limited.addAll(limitsOf(container).keySet()));
        list(spec.getInitContainers()).forEach(container -> limited.addAll(limitsOf(container).keySet()));
        Map<String, Quantity> overhead = new HashMap<>();
        spec.getOverhead().forEach((name, quantity) -> {
            if (limited.contains(name)) {
                overhead.put(name, quantity);
            }
        });
        return arithmetic.plus(total, arithmetic.of(overhead));
    }

    private static Map<String, Quantity> limitsOf(Container container) {
        ResourceRequirements resources = container.getResources();
        return resources == null || resources.getLimits() == null ? Map.of() : withoutPods(resources.getLimits());
    }

    /** A container's requests, its limit standing for a request it does not set. */
    private static Map<String, Quantity> effective(Container container) {
        ResourceRequirements resources = container.getResources();
        if (resources == null) {
            return Map.of();
        }
        Map<String, Quantity> effective = new HashMap<>();
        if (resources.getLimits() != null) {
            effective.putAll(resources.getLimits());
        }
        if (resources.getRequests() != null) {
            effective.putAll(resources.getRequests());
        }
        return withoutPods(effective);
    }

    private static Map<String, Quantity> withoutPods(Map<String, Quantity> quantities) {
        if (!quantities.containsKey(PODS)) {
            return quantities;
        }
        Map<String, Quantity> copy = new HashMap<>(quantities);
        copy.remove(PODS);
        return copy;
    }

    private static List<Container> list(List<Container> containers) {
        return containers == null ? List.of() : containers;
    }
}
