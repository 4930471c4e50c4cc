package dev.muster.scheduler;

import dev.muster.api.EffectiveRequests;
import dev.muster.scheduler.core.model.ResourceVector;
import io.fabric8.kubernetes.api.model.PodSpec;
import io.fabric8.kubernetes.api.model.Quantity;

import java.util.Map;

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
}
