package dev.muster.scheduler.autoscaling;

import dev.muster.scheduler.core.model.GroupKey;

import java.time.Instant;
import java.util.List;
import java.util.Objects;

/**
 * A ProvisioningRequest Muster made for a gang, as last seen.
 *
 * @param gang            the gang it was made for (its PodGroup)
 * @param name            the request's name, in the gang's namespace
 * @param resourceVersion the version seen, which a delete is made on (so that it deletes what was decided on);
 *                        {@code null} for a request still being created
 * @param attempt         1 for the gang's first request, then one more for each new request
 * @param state           where it stands
 * @param message         the autoscaler's words on it, or {@code null}
 * @param since           when the condition deciding its state changed, or {@code null} if unknown
 * @param provisioningClass its {@code spec.provisioningClassName}
 * @param podTemplates    the PodTemplates its pod sets name, deleted with it
 */
public record ObservedRequest(GroupKey gang, String name, String resourceVersion, int attempt, RequestState state,
                              String message, Instant since, String provisioningClass, List<String> podTemplates) {
    public ObservedRequest {
        podTemplates = podTemplates == null ? List.of() : List.copyOf(podTemplates);
        Objects.requireNonNull(gang, "gang");
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(state, "state");
        if (attempt < 1) {
            throw new IllegalArgumentException("attempt must be at least 1: " + attempt);
        }
    }
}
