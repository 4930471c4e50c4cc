package dev.muster.scheduler;

import dev.muster.scheduler.core.ResourceVector;
import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.PodSpec;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.api.model.ResourceRequirements;

import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * A pod's effective requests as kube-scheduler computes them: the larger of the app containers' sum
 * and the peak during init (each regular init container runs alone, next to the sidecars started before
 * it), with sidecars (init containers with {@code restartPolicy: Always}) added to the app containers,
 * plus the pod overhead.
 */
final class PodRequests {
    private static final String SIDECAR_RESTART_POLICY = "Always";

    private PodRequests() {
    }

    static ResourceVector of(PodSpec spec) {
        ResourceVector requests = ResourceVector.ZERO;
        for (Container container : list(spec.getContainers())) {
            requests = requests.plus(of(container));
        }
        ResourceVector sidecars = ResourceVector.ZERO;
        ResourceVector initPeak = ResourceVector.ZERO;
        for (Container init : list(spec.getInitContainers())) {
            ResourceVector own = of(init);
            if (SIDECAR_RESTART_POLICY.equals(init.getRestartPolicy())) {
                requests = requests.plus(own);
                sidecars = sidecars.plus(own);
                initPeak = initPeak.max(sidecars);
            } else {
                initPeak = initPeak.max(own.plus(sidecars));
            }
        }
        return requests.max(initPeak).plus(ResourceQuantities.toVector(withoutPods(spec.getOverhead())));
    }

    /**
     * One container's requests. A resource with a limit but no request requests its limit, as the API
     * server defaults it; doing it here too keeps emulators that skip defaulting honest.
     */
    private static ResourceVector of(Container container) {
        ResourceRequirements resources = container.getResources();
        if (resources == null) {
            return ResourceVector.ZERO;
        }
        Map<String, Quantity> effective = new HashMap<>();
        if (resources.getLimits() != null) {
            effective.putAll(resources.getLimits());
        }
        if (resources.getRequests() != null) {
            effective.putAll(resources.getRequests());
        }
        return ResourceQuantities.toVector(withoutPods(effective));
    }

    /** A pod always takes exactly one pod slot, whatever a resource list says. */
    private static Map<String, Quantity> withoutPods(Map<String, Quantity> quantities) {
        if (quantities == null || !quantities.containsKey(ResourceVector.PODS)) {
            return quantities;
        }
        Map<String, Quantity> copy = new HashMap<>(quantities);
        copy.remove(ResourceVector.PODS);
        return copy;
    }

    private static List<Container> list(List<Container> containers) {
        return containers == null ? List.of() : containers;
    }
}
