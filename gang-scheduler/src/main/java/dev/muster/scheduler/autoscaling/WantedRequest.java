package dev.muster.scheduler.autoscaling;

import dev.muster.scheduler.core.model.GroupKey;

import java.util.Objects;

/**
 * A ProvisioningRequest to create.
 *
 * @param need    what it asks for
 * @param name    its name, in the gang's namespace ({@link ProvisioningDecisions#requestName})
 * @param attempt the gang's how-manieth request it is
 */
public record WantedRequest(CapacityNeed need, String name, int attempt) {
    public WantedRequest {
        Objects.requireNonNull(need, "need");
        Objects.requireNonNull(name, "name");
    }

    /** The gang it is for. */
    public GroupKey gang() {
        return need.gang();
    }
}
