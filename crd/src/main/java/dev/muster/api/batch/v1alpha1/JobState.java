package dev.muster.api.batch.v1alpha1;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;

/** A job's phase with the reason and message of its last transition; both are always set. */
@JsonInclude(JsonInclude.Include.NON_NULL)
public class JobState {
    private JobPhase phase;
    private String reason;
    private String message;
    private String lastTransitionTime;

    @JsonPropertyDescription("The job's phase, as in Volcano's vcjob.")
    public JobPhase getPhase() { return phase; }
    public void setPhase(JobPhase phase) { this.phase = phase; }

    /** One CamelCase word, for example {@code PodFailed} or {@code TasksSucceeded}. */
    @JsonPropertyDescription("Why the job entered the phase, one CamelCase word, for example PodFailed "
            + "or TasksSucceeded.")
    public String getReason() { return reason; }
    public void setReason(String reason) { this.reason = reason; }

    /** Human-readable detail of the transition. */
    @JsonPropertyDescription("Human-readable detail of the transition.")
    public String getMessage() { return message; }
    public void setMessage(String message) { this.message = message; }

    /** RFC 3339 time of the last phase change. */
    @JsonPropertyDescription("RFC 3339 time of the last phase change.")
    public String getLastTransitionTime() { return lastTransitionTime; }
    public void setLastTransitionTime(String lastTransitionTime) { this.lastTransitionTime = lastTransitionTime; }
}
