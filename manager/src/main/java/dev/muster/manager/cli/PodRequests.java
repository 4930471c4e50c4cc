package dev.muster.manager.cli;

import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.PodSpec;
import io.fabric8.kubernetes.api.model.Quantity;

import java.math.BigDecimal;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * What one pod asks of a node, as kube-scheduler computes it: the sum of the containers' requests and of
 * the sidecars' (init containers with {@code restartPolicy: Always}, which keep running), at least what any
 * init container needs while it runs beside the sidecars started before it, plus the pod's overhead.
 */
final class PodRequests {
    private PodRequests() {
    }

    /** The pod's request per resource name, in the resource's base unit (cores, bytes, devices). */
    static Map<String, BigDecimal> of(PodSpec spec) {
        Map<String, BigDecimal> running = new TreeMap<>();
        Map<String, BigDecimal> initPeak = new TreeMap<>();
        Map<String, BigDecimal> sidecars = new TreeMap<>();
        for (Container init : orEmpty(spec.getInitContainers())) {
            Map<String, BigDecimal> own = requests(init);
            if ("Always".equals(init.getRestartPolicy())) {
                addTo(sidecars, own);
                maxInto(initPeak, sidecars);
            } else {
                Map<String, BigDecimal> withSidecars = new TreeMap<>(sidecars);
                addTo(withSidecars, own);
                maxInto(initPeak, withSidecars);
            }
        }
        orEmpty(spec.getContainers()).forEach(c -> addTo(running, requests(c)));
        addTo(running, sidecars);
        maxInto(running, initPeak);
        if (spec.getOverhead() != null) {
            addTo(running, amounts(spec.getOverhead()));
        }
        running.values().removeIf(v -> v.signum() == 0);
        return running;
    }

    private static Map<String, BigDecimal> requests(Container container) {
        return container.getResources() == null ? Map.of() : amounts(container.getResources().getRequests());
    }

    private static Map<String, BigDecimal> amounts(Map<String, Quantity> quantities) {
        Map<String, BigDecimal> amounts = new TreeMap<>();
        if (quantities != null) {
            quantities.forEach((name, q) -> amounts.put(name, q.getNumericalAmount()));
        }
        return amounts;
    }

    private static void addTo(Map<String, BigDecimal> into, Map<String, BigDecimal> more) {
        more.forEach((name, amount) -> into.merge(name, amount, BigDecimal::add));
    }

    private static void maxInto(Map<String, BigDecimal> into, Map<String, BigDecimal> other) {
        other.forEach((name, amount) -> into.merge(name, amount, BigDecimal::max));
    }

    private static <T> List<T> orEmpty(List<T> list) {
        return list == null ? List.of() : list;
    }
}
