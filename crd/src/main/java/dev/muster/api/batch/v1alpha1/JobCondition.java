package dev.muster.api.batch.v1alpha1;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;

/** One entry of a job's phase history. */
@JsonInclude(JsonInclude.Include.NON_NULL)
public class JobCondition {
    private JobPhase status;
    private String lastTransitionTime;

    public JobCondition() {
    }

    public JobCondition(JobPhase status, String lastTransitionTime) {
        this.status = status;
        this.lastTransitionTime = lastTransitionTime;
    }

    /** The phase entered. */
    @JsonPropertyDescription("The phase entered.")
    public JobPhase getStatus() { return status; }
    public void setStatus(JobPhase status) { this.status = status; }

    @JsonPropertyDescription("RFC 3339 time the phase was entered.")
    public String getLastTransitionTime() { return lastTransitionTime; }
    public void setLastTransitionTime(String lastTransitionTime) { this.lastTransitionTime = lastTransitionTime; }
}
