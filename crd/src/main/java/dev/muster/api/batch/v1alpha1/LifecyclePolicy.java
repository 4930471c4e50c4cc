package dev.muster.api.batch.v1alpha1;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import io.fabric8.generator.annotation.Pattern;
import io.fabric8.generator.annotation.Required;
import io.fabric8.generator.annotation.Size;
import io.fabric8.generator.annotation.ValidationRule;

import java.util.List;

/** Maps an event or a container exit code to an action, optionally after a timeout. */
@JsonInclude(JsonInclude.Include.NON_NULL)
@ValidationRule(value = CelRules.EVENT_XOR_EXIT_CODE, message = CelRules.EVENT_XOR_EXIT_CODE_MESSAGE)
@ValidationRule(value = CelRules.EXIT_CODE_NOT_ZERO, message = CelRules.EXIT_CODE_NOT_ZERO_MESSAGE)
@ValidationRule(value = CelRules.KNOWN_ACTION, message = CelRules.KNOWN_ACTION_MESSAGE)
@ValidationRule(value = CelRules.NOT_RESUME, message = CelRules.NOT_RESUME_MESSAGE)
@ValidationRule(value = CelRules.KNOWN_EVENTS, message = CelRules.KNOWN_EVENTS_MESSAGE)
public class LifecyclePolicy {
    @Required
    @Size(max = 32)
    private String action;
    @Size(max = 32)
    private String event;
    @Size(max = 7)
    private List<@Size(max = 32) String> events;
    private Integer exitCode;
    @Pattern(GoDuration.PATTERN)
    @Size(max = 32)
    private String timeout;

    /** One of AbortJob, RestartJob, RestartTask, RestartPod, RestartPartition, TerminateJob, CompleteJob (not ResumeJob: see {@link JobPolicies#ACTIONS}). */
    @JsonPropertyDescription("One of AbortJob, RestartJob, RestartTask, RestartPod, RestartPartition, TerminateJob, "
            + "CompleteJob.")
    public String getAction() { return action; }
    public void setAction(String action) { this.action = action; }

    /** A single event: PodFailed, PodEvicted, PodPending, Unknown, TaskCompleted, TaskFailed or {@code *}. */
    @JsonPropertyDescription("A single event: PodFailed, PodEvicted, PodPending, Unknown, TaskCompleted, "
            + "TaskFailed or *; not together with exitCode.")
    public String getEvent() { return event; }
    public void setEvent(String event) { this.event = event; }

    /** Several events that trigger the same action. */
    @JsonPropertyDescription("Several events that trigger the same action.")
    public List<String> getEvents() { return events; }
    public void setEvents(List<String> events) { this.events = events; }

    /** Matches when any container of a pod terminated with this non-zero code. */
    @JsonPropertyDescription("Matches when any container of a pod terminated with this non-zero code; "
            + "not together with event or events.")
    public Integer getExitCode() { return exitCode; }
    public void setExitCode(Integer exitCode) { this.exitCode = exitCode; }

    /** Delay before the action is taken, as a Go duration ({@code 30s}, {@code 5m}). */
    @JsonPropertyDescription("Delay before the action is taken, as a Go duration (30s, 5m).")
    public String getTimeout() { return timeout; }
    public void setTimeout(String timeout) { this.timeout = timeout; }
}
