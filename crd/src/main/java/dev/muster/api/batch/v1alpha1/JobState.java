package dev.muster.api.batch.v1alpha1;

import com.fasterxml.jackson.annotation.JsonInclude;

/** A job's phase with the reason and message of its last transition; both are always set. */
@JsonInclude(JsonInclude.Include.NON_NULL)
public class JobState {
    private JobPhase phase;
    private String reason;
    private String message;
    private String lastTransitionTime;

    public JobPhase getPhase() { return phase; }
    public void setPhase(JobPhase phase) { this.phase = phase; }

    /** One CamelCase word, for example {@code PodFailed} or {@code TasksSucceeded}. */
    public String getReason() { return reason; }
    public void setReason(String reason) { this.reason = reason; }

    /** Human-readable detail of the transition. */
    public String getMessage() { return message; }
    public void setMessage(String message) { this.message = message; }

    /** RFC 3339 time of the last phase change. */
    public String getLastTransitionTime() { return lastTransitionTime; }
    public void setLastTransitionTime(String lastTransitionTime) { this.lastTransitionTime = lastTransitionTime; }
}
