package dev.muster.scheduler.autoscaling;

import java.time.Instant;
import java.util.Objects;

/**
 * Which ProvisioningRequest a gang waits for and where it stands, for its PodGroup, its Job and
 * {@code muster describe job}.
 *
 * @param namespace the request's namespace (the gang's)
 * @param request   the request's name
 * @param state     where it stands
 * @param message   the autoscaler's words, or {@code null}
 * @param retryAt   for a failed request, when a new one is made; otherwise {@code null}
 */
public record ProvisioningStatus(String namespace, String request, RequestState state, String message,
                                 Instant retryAt) {
    public ProvisioningStatus {
        Objects.requireNonNull(namespace, "namespace");
        Objects.requireNonNull(request, "request");
        Objects.requireNonNull(state, "state");
    }

    /** The PodGroup condition's reason while the gang waits for the request, e.g. {@code ProvisioningAccepted}. */
    public String reason() {
        return switch (state) {
            case PENDING -> "ProvisioningRequested";
            case ACCEPTED -> "ProvisioningAccepted";
            case PROVISIONED -> "Provisioned";
            case FAILED -> "ProvisioningFailed";
            case BOOKING_EXPIRED -> "ProvisioningBookingExpired";
            case CAPACITY_REVOKED -> "ProvisioningCapacityRevoked";
        };
    }

    /**
     * In words, e.g. {@code Waiting for ProvisioningRequest team-a/train-1 (Failed: no node group fits); a new
     * request at 2026-11-28T01:00:00Z.}
     */
    public String describe() {
        String stateWords = switch (state) {
            case PENDING -> "Requested, no answer from the cluster autoscaler yet";
            case ACCEPTED -> "Accepted";
            case PROVISIONED -> "Provisioned";
            case FAILED -> "Failed";
            case BOOKING_EXPIRED -> "BookingExpired";
            case CAPACITY_REVOKED -> "CapacityRevoked";
        };
        return "Waiting for ProvisioningRequest " + namespace + "/" + request + " (" + stateWords
                + (message == null ? "" : ": " + message) + ")"
                + (retryAt == null ? "." : "; a new request at " + retryAt + ".");
    }
}
