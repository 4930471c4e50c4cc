package dev.muster.api.scheduling.v1alpha1;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import dev.muster.api.batch.v1alpha1.validation.FieldError;

import java.util.List;
import java.util.stream.Collectors;

/** A Queue condition with the fields of {@code metav1.Condition} (type, status, reason, message, lastTransitionTime). */
@JsonInclude(JsonInclude.Include.NON_NULL)
public class QueueCondition {
    /** Condition type: the queue's spec, and its place in the tree, pass {@link QueueTreeValidator}. */
    public static final String VALID = "Valid";
    /** Reason of {@code Valid=True}. */
    public static final String REASON_VALID = "Valid";
    /** Reason of {@code Valid=False}: the message lists the problems, each with its field. */
    public static final String REASON_INVALID = "InvalidSpec";

    private String type;
    private String status;
    private String reason;
    private String message;
    private String lastTransitionTime;

    /**
     * The {@code Valid} condition for a queue with these problems (as {@link QueueTreeValidator} found them),
     * its {@code lastTransitionTime} left for the writer, which keeps it while the status does not change.
     */
    public static QueueCondition valid(List<FieldError> problems) {
        QueueCondition condition = new QueueCondition();
        condition.setType(VALID);
        if (problems.isEmpty()) {
            condition.setStatus("True");
            condition.setReason(REASON_VALID);
            condition.setMessage("the queue's spec and its place in the queue tree are valid");
        } else {
            condition.setStatus("False");
            condition.setReason(REASON_INVALID);
            condition.setMessage(problems.stream().map(FieldError::toString).collect(Collectors.joining("; ")));
        }
        return condition;
    }

    /** E.g. {@code Valid}. */
    @JsonPropertyDescription("The condition's type, e.g. Valid.")
    public String getType() { return type; }
    public void setType(String type) { this.type = type; }

    /** {@code True}, {@code False} or {@code Unknown}. */
    @JsonPropertyDescription("True, False or Unknown.")
    public String getStatus() { return status; }
    public void setStatus(String status) { this.status = status; }

    /** One CamelCase word for programs. */
    @JsonPropertyDescription("One CamelCase word for programs.")
    public String getReason() { return reason; }
    public void setReason(String reason) { this.reason = reason; }

    /** For people. */
    @JsonPropertyDescription("Human-readable detail.")
    public String getMessage() { return message; }
    public void setMessage(String message) { this.message = message; }

    /** RFC 3339; changes only when {@code status} changes. */
    @JsonPropertyDescription("RFC 3339 time; changes only when status changes.")
    public String getLastTransitionTime() { return lastTransitionTime; }
    public void setLastTransitionTime(String lastTransitionTime) { this.lastTransitionTime = lastTransitionTime; }
}
