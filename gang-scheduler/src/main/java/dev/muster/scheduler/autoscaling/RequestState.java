package dev.muster.scheduler.autoscaling;

import java.time.Instant;
import java.util.List;
import java.util.Objects;

/**
 * Where a ProvisioningRequest stands, from the conditions Cluster Autoscaler sets on it
 * ({@code Accepted}, {@code Provisioned}, {@code Failed}, {@code BookingExpired}, {@code CapacityRevoked}).
 * The terminal conditions win over {@code Provisioned}: a request whose booking expired was provisioned once.
 */
public enum RequestState {
    /** Created; the autoscaler has not said anything yet. */
    PENDING(false),
    /** The autoscaler accepted it and is looking for capacity ({@code Accepted=True}, no {@code Provisioned=True}). */
    ACCEPTED(false),
    /** The capacity exists and is booked for the gang ({@code Provisioned=True}). */
    PROVISIONED(false),
    /** The autoscaler gave up ({@code Failed=True}); a new request may be made after a backoff. */
    FAILED(true),
    /** The booking ran out before the gang's pods consumed it ({@code BookingExpired=True}). */
    BOOKING_EXPIRED(true),
    /** The booked capacity was taken back ({@code CapacityRevoked=True}). */
    CAPACITY_REVOKED(true);

    private final boolean terminal;

    RequestState(boolean terminal) {
        this.terminal = terminal;
    }

    /** Whether the autoscaler will do nothing more for the request. */
    public boolean terminal() {
        return terminal;
    }

    /** The state the conditions say, with the message and time of the condition that decides it. */
    public static Reading read(List<Condition> conditions) {
        Condition failed = find(conditions, "Failed");
        if (failed != null) {
            return new Reading(FAILED, failed);
        }
        Condition revoked = find(conditions, "CapacityRevoked");
        if (revoked != null) {
            return new Reading(CAPACITY_REVOKED, revoked);
        }
        Condition expired = find(conditions, "BookingExpired");
        if (expired != null) {
            return new Reading(BOOKING_EXPIRED, expired);
        }
        Condition provisioned = find(conditions, "Provisioned");
        if (provisioned != null) {
            return new Reading(PROVISIONED, provisioned);
        }
        Condition accepted = find(conditions, "Accepted");
        if (accepted != null) {
            // The autoscaler says why it has no capacity yet on Provisioned=False; that is the news to pass on.
            Condition notYet = conditions.stream()
                    .filter(c -> "Provisioned".equals(c.type()) && "False".equals(c.status())).findFirst().orElse(null);
            return new Reading(ACCEPTED, notYet != null && notYet.message() != null ? notYet : accepted);
        }
        return new Reading(PENDING, null);
    }

    private static Condition find(List<Condition> conditions, String type) {
        return conditions.stream().filter(c -> type.equals(c.type()) && "True".equals(c.status())).findFirst()
                .orElse(null);
    }

    /**
     * One condition of a request's status, as plain data.
     *
     * @param lastTransitionTime {@code null} when the autoscaler did not set it
     */
    public record Condition(String type, String status, String reason, String message, Instant lastTransitionTime) {
        public Condition {
            Objects.requireNonNull(type, "type");
        }
    }

    /**
     * A request's state and the condition that decided it ({@code null} for {@link #PENDING}).
     */
    public record Reading(RequestState state, Condition decidedBy) {
        /** The autoscaler's words, reason first, or {@code null} if it said none. */
        public String message() {
            if (decidedBy == null) {
                return null;
            }
            String reason = decidedBy.reason() == null || decidedBy.reason().isBlank() ? "" : decidedBy.reason();
            String message = decidedBy.message() == null || decidedBy.message().isBlank() ? "" : decidedBy.message();
            if (reason.isEmpty() && message.isEmpty()) {
                return null;
            }
            return reason.isEmpty() ? message : message.isEmpty() ? reason : reason + ": " + message;
        }

        /** When the deciding condition last changed, or {@code null}. */
        public Instant since() {
            return decidedBy == null ? null : decidedBy.lastTransitionTime();
        }
    }
}
