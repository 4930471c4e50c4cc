package dev.muster.api.batch.v1alpha1;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import io.fabric8.kubernetes.api.model.Condition;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** Observed state of a {@link Job}; written only by the job controller. */
@JsonInclude(JsonInclude.Include.NON_NULL)
public class JobStatus {
    private JobState state = new JobState();
    private Integer minAvailable;
    private Map<String, TaskState> taskStatusCount = new LinkedHashMap<>();
    private int pending;
    private int running;
    private int succeeded;
    private int failed;
    private int terminating;
    private int unknown;
    private int version;
    private int retryCount;
    private String runningDuration;
    private List<JobCondition> conditions = new ArrayList<>();
    private Map<String, String> acceptedSpec;
    private Long acceptedGeneration;
    private List<Condition> controllerConditions;
    private Map<String, String> controlledResources;

    /** Current phase and why the job is in it. */
    @JsonPropertyDescription("Current phase and why the job is in it.")
    public JobState getState() { return state; }
    public void setState(JobState state) { this.state = state; }

    /** Effective job-level minimum the gang is scheduled and judged by. */
    @JsonPropertyDescription("Effective job-level minimum the gang is scheduled and judged by.")
    public Integer getMinAvailable() { return minAvailable; }
    public void setMinAvailable(Integer minAvailable) { this.minAvailable = minAvailable; }

    /** Pod counts by phase for each task. */
    @JsonPropertyDescription("Pod counts of the current version by phase for each task.")
    public Map<String, TaskState> getTaskStatusCount() { return taskStatusCount; }
    public void setTaskStatusCount(Map<String, TaskState> taskStatusCount) { this.taskStatusCount = taskStatusCount; }

    @JsonPropertyDescription("Pods of the current version in phase Pending.")
    public int getPending() { return pending; }
    public void setPending(int pending) { this.pending = pending; }
    @JsonPropertyDescription("Pods of the current version in phase Running.")
    public int getRunning() { return running; }
    public void setRunning(int running) { this.running = running; }
    @JsonPropertyDescription("Pods of the current version in phase Succeeded.")
    public int getSucceeded() { return succeeded; }
    public void setSucceeded(int succeeded) { this.succeeded = succeeded; }
    @JsonPropertyDescription("Pods of the current version in phase Failed.")
    public int getFailed() { return failed; }
    public void setFailed(int failed) { this.failed = failed; }
    @JsonPropertyDescription("Pods on their way out: being deleted, or of an older version.")
    public int getTerminating() { return terminating; }
    public void setTerminating(int terminating) { this.terminating = terminating; }
    @JsonPropertyDescription("Pods of the current version in phase Unknown.")
    public int getUnknown() { return unknown; }
    public void setUnknown(int unknown) { this.unknown = unknown; }

    /** Generation of the job's pods; a restart of the whole job increments it. */
    @JsonPropertyDescription("Generation of the job's pods; a restart of the whole job increments it.")
    public int getVersion() { return version; }
    public void setVersion(int version) { this.version = version; }

    /** Retries taken so far. */
    @JsonPropertyDescription("Retries taken so far.")
    public int getRetryCount() { return retryCount; }
    public void setRetryCount(int retryCount) { this.retryCount = retryCount; }

    /** Time since the job first ran, as a Go duration. */
    @JsonPropertyDescription("Time since the job first ran, as a Go duration; refreshed when the status is written.")
    public String getRunningDuration() { return runningDuration; }
    public void setRunningDuration(String runningDuration) { this.runningDuration = runningDuration; }

    /** History of phase transitions, newest last; only the newest 20 are kept. */
    @JsonPropertyDescription("History of phase transitions, newest last; only the newest 20 are kept.")
    public List<JobCondition> getConditions() { return conditions; }
    public void setConditions(List<JobCondition> conditions) { this.conditions = conditions; }

    /** Fingerprints of the spec fields that cannot change on a live job, as first accepted (see {@link SpecFingerprint}). */
    @JsonPropertyDescription("Fingerprints of the spec fields that cannot change on a live job, as first "
            + "accepted; the controller's own bookkeeping.")
    public Map<String, String> getAcceptedSpec() { return acceptedSpec; }
    public void setAcceptedSpec(Map<String, String> acceptedSpec) { this.acceptedSpec = acceptedSpec; }

    /** The {@code metadata.generation} last compared with {@link #getAcceptedSpec()}; saves comparing again. */
    @JsonPropertyDescription("The metadata.generation last compared with acceptedSpec; the controller's "
            + "own bookkeeping.")
    public Long getAcceptedGeneration() { return acceptedGeneration; }
    public void setAcceptedGeneration(Long acceptedGeneration) { this.acceptedGeneration = acceptedGeneration; }

    /**
     * Conditions about the controller's handling of the job rather than its phase, in the Kubernetes
     * condition shape; today only {@code ReconcileFailing}, present while reconciling it keeps failing.
     */
    @JsonPropertyDescription("Conditions about the controller's handling of the job rather than its "
            + "phase, in the Kubernetes condition shape: ReconcileFailing, FieldsNotHonoured.")
    public List<Condition> getControllerConditions() { return controllerConditions; }
    public void setControllerConditions(List<Condition> controllerConditions) { this.controllerConditions = controllerConditions; }

    /**
     * Objects the job's plugins keep beside its pods, as {@code Kind/name} to the plugin's name, e.g.
     * {@code Service/ddp: svc}; all are owned by the job and deleted with it. Absent without plugins.
     */
    @JsonPropertyDescription("Objects the job's plugins (and its volumes) keep beside its pods, as "
            + "Kind/name to the plugin's name, e.g. Service/ddp: svc; all are owned by the job and deleted with it.")
    public Map<String, String> getControlledResources() { return controlledResources; }
    public void setControlledResources(Map<String, String> controlledResources) { this.controlledResources = controlledResources; }
}
