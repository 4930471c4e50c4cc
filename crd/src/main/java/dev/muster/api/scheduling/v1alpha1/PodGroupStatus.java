package dev.muster.api.scheduling.v1alpha1;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;

import java.util.ArrayList;
import java.util.List;

/** Observed state of a {@link PodGroup}; written only by the PodGroup controller. */
@JsonInclude(JsonInclude.Include.NON_NULL)
public class PodGroupStatus {
    private PodGroupPhase phase;
    private List<PodGroupCondition> conditions = new ArrayList<>();
    private int running;
    private int succeeded;
    private int failed;
    private String scheduleStartTime;
    private Integer runningQuorum;

    @JsonPropertyDescription("The group's phase.")
    public PodGroupPhase getPhase() { return phase; }
    public void setPhase(PodGroupPhase phase) { this.phase = phase; }

    /** At most one condition per type. */
    @JsonPropertyDescription("At most one condition per type.")
    public List<PodGroupCondition> getConditions() { return conditions; }
    public void setConditions(List<PodGroupCondition> conditions) { this.conditions = conditions; }

    /** Pods in phase Running. */
    @JsonPropertyDescription("Pods in phase Running.")
    public int getRunning() { return running; }
    public void setRunning(int running) { this.running = running; }

    /** Pods in phase Succeeded. */
    @JsonPropertyDescription("Pods in phase Succeeded.")
    public int getSucceeded() { return succeeded; }
    public void setSucceeded(int succeeded) { this.succeeded = succeeded; }

    /** Pods in phase Failed. */
    @JsonPropertyDescription("Pods in phase Failed.")
    public int getFailed() { return failed; }
    public void setFailed(int failed) { this.failed = failed; }

    /** RFC 3339 time the scheduler first tried the group. */
    @JsonPropertyDescription("RFC 3339 time the scheduler first tried the group.")
    public String getScheduleStartTime() { return scheduleStartTime; }
    public void setScheduleStartTime(String scheduleStartTime) { this.scheduleStartTime = scheduleStartTime; }

    /**
     * The minMember the gang last met while Running. When minMember grows past it (a new {@code dependsOn}
     * stage, a scale-up) and only the added pods wait, the gang that runs is intact and the group stays Running.
     */
    @JsonPropertyDescription("The minMember the gang last met while Running; when minMember grows past "
            + "it and only the added pods wait, the group stays Running.")
    public Integer getRunningQuorum() { return runningQuorum; }
    public void setRunningQuorum(Integer runningQuorum) { this.runningQuorum = runningQuorum; }
}
