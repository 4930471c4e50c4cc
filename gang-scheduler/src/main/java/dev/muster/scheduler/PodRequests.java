package dev.muster.scheduler;

import dev.muster.api.EffectiveRequests;
import dev.muster.scheduler.core.model.NamespaceQuota;
import dev.muster.scheduler.core.model.ResourceVector;
import io.fabric8.kubernetes.api.model.PodSpec;
import io.fabric8.kubernetes.api.model.Quantity;

import java.util.Map;
import java.util.TreeMap;

/** A pod's effective requests ({@link EffectiveRequests}) in the core's resource vectors. */
final class PodRequests {
    private static final EffectiveRequests.Arithmetic<ResourceVector> VECTORS = new EffectiveRequests.Arithmetic<>() {
        @Override
        public ResourceVector zero() {
            return ResourceVector.ZERO;
        }

        @Override
        public ResourceVector of(Map<String, Quantity> quantities) {
            return ResourceQuantities.toVector(quantities);
        }

        @Override
        public ResourceVector plus(ResourceVector a, ResourceVector b) {
            return a.plus(b);
        }

        @Override
        public ResourceVector max(ResourceVector a, ResourceVector b) {
            return a.max(b);
        }
    };

    private PodRequests() {
    }

    static ResourceVector of(PodSpec spec) {
        return EffectiveRequests.of(spec, VECTORS);
    }

    /**
     * What the pod counts for a ResourceQuota's {@code limits.cpu}, {@code limits.memory} and
     * {@code limits.ephemeral-storage} ({@link EffectiveRequests#limits}), by those names, in the units of the
     * resource's requests (millicores, bytes); a resource no container limits is left out.
     */
    static Map<String, Long> quotaLimits(PodSpec spec) {
        ResourceVector limits = EffectiveRequests.limits(spec, VECTORS);
        Map<String, Long> byName = new TreeMap<>();
        for (String resource : NamespaceQuota.LIMITED_RESOURCES) {
            long amount = limits.get(resource);
            if (amount > 0) {
                byName.put(NamespaceQuota.LIMITS_PREFIX + resource, amount);
            }
        }
        return byName;
    }
}
