package dev.muster.api.scheduling.v1alpha1;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;

/**
 * A PodGroup condition with the fields of Volcano's PodGroup condition (type, status, transitionID,
 * lastTransitionTime, reason, message), as its
 * <a href="https://github.com/volcano-sh/volcano/blob/master/docs/design/podgroup-status-enhancement.md">PodGroup
 * status design</a> defines them.
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public class PodGroupCondition {
    /**
     * Condition type: the gang could not be placed. Also, as kube-scheduler writes it, the reason of a waiting
     * member pod's {@code PodScheduled=False} condition.
     */
    public static final String UNSCHEDULABLE = "Unschedulable";
    /** Condition type: the gang is placed. */
    public static final String SCHEDULED = "Scheduled";

    public static final String REASON_POD_FAILED = "PodFailed";
    public static final String REASON_POD_DELETED = "PodDeleted";
    public static final String REASON_NOT_ENOUGH_RESOURCES = "NotEnoughResources";
    public static final String REASON_NOT_ENOUGH_TASKS = "NotEnoughTasks";
    /**
     * The gang is admitted (phase Inqueue) before its pods exist: the reason of {@code Unschedulable=False}
     * when the scheduler gave none, and of the scheduler's Normal event.
     */
    public static final String REASON_ADMITTED = "Admitted";

    private String type;
    private String status;
    private String transitionID;
    private String lastTransitionTime;
    private String reason;
    private String message;

    /** {@code Unschedulable} or {@code Scheduled}. */
    @JsonPropertyDescription("Unschedulable or Scheduled.")
    public String getType() { return type; }
    public void setType(String type) { this.type = type; }

    /** {@code True}, {@code False} or {@code Unknown}. */
    @JsonPropertyDescription("True, False or Unknown.")
    public String getStatus() { return status; }
    public void setStatus(String status) { this.status = status; }

    /** Identifies the scheduling attempt that set the condition. */
    @JsonPropertyDescription("Identifies the scheduling attempt that set the condition.")
    public String getTransitionID() { return transitionID; }
    public void setTransitionID(String transitionID) { this.transitionID = transitionID; }

    /** Changes only when {@code status} changes. */
    @JsonPropertyDescription("RFC 3339 time; changes only when status changes.")
    public String getLastTransitionTime() { return lastTransitionTime; }
    public void setLastTransitionTime(String lastTransitionTime) { this.lastTransitionTime = lastTransitionTime; }

    @JsonPropertyDescription("One CamelCase word for programs, e.g. NotEnoughResources.")
    public String getReason() { return reason; }
    public void setReason(String reason) { this.reason = reason; }

    @JsonPropertyDescription("Human-readable detail.")
    public String getMessage() { return message; }
    public void setMessage(String message) { this.message = message; }
}
