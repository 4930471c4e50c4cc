package dev.muster.api.batch.v1alpha1;

import com.fasterxml.jackson.annotation.JsonInclude;

import java.util.List;

/** Maps an event or a container exit code to an action, optionally after a timeout. */
@JsonInclude(JsonInclude.Include.NON_NULL)
public class LifecyclePolicy {
    private String action;
    private String event;
    private List<String> events;
    private Integer exitCode;
    private String timeout;

    /** One of AbortJob, RestartJob, RestartTask, RestartPod, TerminateJob, CompleteJob, ResumeJob. */
    public String getAction() { return action; }
    public void setAction(String action) { this.action = action; }

    /** A single event: PodFailed, PodEvicted, PodPending, Unknown, TaskCompleted, TaskFailed or {@code *}. */
    public String getEvent() { return event; }
    public void setEvent(String event) { this.event = event; }

    /** Several events that trigger the same action. */
    public List<String> getEvents() { return events; }
    public void setEvents(List<String> events) { this.events = events; }

    /** Matches when any container of a pod terminated with this non-zero code. */
    public Integer getExitCode() { return exitCode; }
    public void setExitCode(Integer exitCode) { this.exitCode = exitCode; }

    /** Delay before the action is taken, as a Go duration ({@code 30s}, {@code 5m}). */
    public String getTimeout() { return timeout; }
    public void setTimeout(String timeout) { this.timeout = timeout; }
}
