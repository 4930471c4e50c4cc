package dev.muster.api.batch.v1alpha1;

import dev.muster.api.scheduling.v1alpha1.PodGroupSchedulingConstraints;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import io.fabric8.generator.annotation.Min;
import io.fabric8.generator.annotation.Pattern;
import io.fabric8.generator.annotation.Size;
import io.fabric8.generator.annotation.ValidationRule;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** Desired state of a {@link Job}. */
@JsonInclude(JsonInclude.Include.NON_NULL)
@ValidationRule(value = CelRules.UNIQUE_TASKS, message = CelRules.UNIQUE_TASKS_MESSAGE,
        messageExpression = CelRules.UNIQUE_TASKS_MESSAGE_EXPRESSION, fieldPath = ".tasks")
@ValidationRule(value = CelRules.MIN_AVAILABLE_WITHIN_REPLICAS, message = CelRules.MIN_AVAILABLE_WITHIN_REPLICAS_MESSAGE,
        messageExpression = CelRules.MIN_AVAILABLE_WITHIN_REPLICAS_MESSAGE_EXPRESSION, fieldPath = ".minAvailable")
@ValidationRule(value = CelRules.MIN_SUCCESS_WITHIN_REPLICAS, message = CelRules.MIN_SUCCESS_WITHIN_REPLICAS_MESSAGE,
        messageExpression = CelRules.MIN_SUCCESS_WITHIN_REPLICAS_MESSAGE_EXPRESSION, fieldPath = ".minSuccess")
@ValidationRule(value = CelRules.KNOWN_DEPENDENCIES, message = CelRules.KNOWN_DEPENDENCIES_MESSAGE)
@ValidationRule(value = CelRules.NO_SELF_DEPENDENCY, message = CelRules.NO_SELF_DEPENDENCY_MESSAGE)
@ValidationRule(value = CelRules.ONE_TOPOLOGY, message = CelRules.ONE_TOPOLOGY_MESSAGE)
public class JobSpec {
    @ValidationRule(value = CelRules.UNCHANGED, message = "schedulerName cannot change once the job exists")
    private String schedulerName;
    @Min(0)
    private Integer minAvailable;
    // Bounds keep the API server's cost estimate of the CEL rules, which compare tasks pairwise, in budget.
    @Size(min = 1, max = JobDefaults.MAX_TASKS)
    @ValidationRule(value = CelRules.TASK_NAMES_UNCHANGED, message = CelRules.TASK_NAMES_UNCHANGED_MESSAGE)
    private List<TaskSpec> tasks = new ArrayList<>();
    @ValidationRule(value = CelRules.UNIQUE_EVENTS, message = CelRules.UNIQUE_EVENTS_MESSAGE)
    @ValidationRule(value = CelRules.UNIQUE_EXIT_CODES, message = CelRules.UNIQUE_EXIT_CODES_MESSAGE)
    @ValidationRule(value = CelRules.ANY_ALONE, message = CelRules.ANY_ALONE_MESSAGE)
    @Size(max = JobDefaults.MAX_POLICIES)
    @ValidationRule(value = CelRules.UNCHANGED, message = "policies cannot change once the job exists")
    private List<LifecyclePolicy> policies;
    @ValidationRule(value = CelRules.KNOWN_PLUGINS, message = CelRules.KNOWN_PLUGINS_MESSAGE,
            messageExpression = CelRules.KNOWN_PLUGINS_MESSAGE_EXPRESSION)
    @Size(max = 16)
    private Map<String, List<String>> plugins;
    @ValidationRule(value = CelRules.UNCHANGED, message = "queue cannot change once the job exists")
    private String queue;
    // May change on a live job, as Volcano's webhook allows: the PodGroup follows, and pods created after the
    // change get the new class (a pod's priority cannot change).
    private String priorityClassName;
    @ValidationRule(value = CelRules.UNCHANGED, message = "schedulingConstraints cannot change once the job exists")
    private PodGroupSchedulingConstraints schedulingConstraints;
    @ValidationRule(value = CelRules.UNCHANGED, message = "networkTopology cannot change once the job exists")
    private NetworkTopologySpec networkTopology;
    @Min(0)
    @ValidationRule(value = CelRules.UNCHANGED, message = "maxRetry cannot change once the job exists")
    private Integer maxRetry;
    @Min(1)
    @ValidationRule(value = CelRules.UNCHANGED, message = "minSuccess cannot change once the job exists")
    private Integer minSuccess;
    @Min(0)
    private Integer ttlSecondsAfterFinished;
    private Boolean suspend;
    @Pattern(GoDuration.PATTERN)
    @ValidationRule(value = CelRules.UNCHANGED, message = "maxRuntime cannot change once the job exists")
    private String maxRuntime;
    @Pattern(GoDuration.PATTERN)
    @ValidationRule(value = CelRules.UNCHANGED, message = "runningEstimate cannot change once the job exists")
    private String runningEstimate;
    @Size(max = JobDefaults.MAX_VOLUMES)
    @ValidationRule(value = CelRules.UNIQUE_MOUNT_PATHS, message = CelRules.UNIQUE_MOUNT_PATHS_MESSAGE)
    private List<VolumeSpec> volumes;

    /** Scheduler for the job's pods; defaults to {@code muster}. */
    @JsonPropertyDescription("Scheduler for the job's pods whose template names none; defaults to "
            + "muster. Cannot change once the job exists.")
    public String getSchedulerName() { return schedulerName; }
    public void setSchedulerName(String schedulerName) { this.schedulerName = schedulerName; }

    /** Pods that must run at once for the job to run; defaults to the sum of the tasks' minimums. */
    @JsonPropertyDescription("Pods that must run at once for the job to run, and Succeeded pods a "
            + "finished job needs; defaults to the sum of the tasks' minAvailable.")
    public Integer getMinAvailable() { return minAvailable; }
    public void setMinAvailable(Integer minAvailable) { this.minAvailable = minAvailable; }

    /** The job's tasks; at least one. */
    @JsonPropertyDescription("The job's tasks; at least one, at most 64, with unique names.")
    public List<TaskSpec> getTasks() { return tasks; }
    public void setTasks(List<TaskSpec> tasks) { this.tasks = tasks; }

    /** Job-level lifecycle policies; a task's own policies take precedence. */
    @JsonPropertyDescription("Job-level lifecycle policies; a task's own policies take precedence. "
            + "Cannot change once the job exists.")
    public List<LifecyclePolicy> getPolicies() { return policies; }
    public void setPolicies(List<LifecyclePolicy> policies) { this.policies = policies; }

    /** Plugins (for example {@code svc}, {@code env}, {@code ssh}) and their arguments. */
    @JsonPropertyDescription("Plugins (for example svc, env, ssh, pytorch) and their arguments.")
    public Map<String, List<String>> getPlugins() { return plugins; }
    public void setPlugins(Map<String, List<String>> plugins) { this.plugins = plugins == null ? null : new LinkedHashMap<>(plugins); }

    /** Queue the job is submitted to. */
    @JsonPropertyDescription("Queue the job is submitted to; defaults to the queue named default. Cannot "
            + "change once the job exists.")
    public String getQueue() { return queue; }
    public void setQueue(String queue) { this.queue = queue; }

    /**
     * Where the whole gang must (or should) land: topology levels tried tightest first, copied onto the job's
     * PodGroup; unset, the scheduler's default locality applies.
     */
    @JsonPropertyDescription("Where the whole gang must (or should) land: topology levels tried tightest "
            + "first, copied onto the job's PodGroup; unset, the scheduler's default locality applies. Cannot "
            + "change once the job exists.")
    public PodGroupSchedulingConstraints getSchedulingConstraints() { return schedulingConstraints; }
    public void setSchedulingConstraints(PodGroupSchedulingConstraints schedulingConstraints) {
        this.schedulingConstraints = schedulingConstraints;
    }

    /**
     * Volcano's network topology: how far up the cluster's network tiers the gang may spread, mapped onto
     * {@code schedulingConstraints} through the tiers configured per cluster; not together with
     * {@code schedulingConstraints}. Where the cluster configures no tiers, or the tier is unknown, it is not
     * honoured and the job says so.
     */
    @JsonPropertyDescription("Volcano's network topology: how far up the cluster's network tiers the "
            + "gang may spread, mapped onto schedulingConstraints through the tiers configured per cluster; not "
            + "together with schedulingConstraints. Cannot change once the job exists.")
    public NetworkTopologySpec getNetworkTopology() { return networkTopology; }
    public void setNetworkTopology(NetworkTopologySpec networkTopology) { this.networkTopology = networkTopology; }

    /** PriorityClass of the job's PodGroup. */
    @JsonPropertyDescription("PriorityClass of the job's PodGroup, and of its pods whose template names none.")
    public String getPriorityClassName() { return priorityClassName; }
    public void setPriorityClassName(String priorityClassName) { this.priorityClassName = priorityClassName; }

    /** Retries before the job fails; 0 means none; defaults to 3. */
    @JsonPropertyDescription("Retries before the job fails; 0 means none; defaults to 3. Cannot change "
            + "once the job exists.")
    public Integer getMaxRetry() { return maxRetry; }
    public void setMaxRetry(Integer maxRetry) { this.maxRetry = maxRetry; }

    /** Succeeded pods that complete the job at once. */
    @JsonPropertyDescription("Succeeded pods that complete the job at once. Cannot change once the job exists.")
    public Integer getMinSuccess() { return minSuccess; }
    public void setMinSuccess(Integer minSuccess) { this.minSuccess = minSuccess; }

    /** Seconds after the job finished before it is deleted. */
    @JsonPropertyDescription("Seconds after the job finished before it is deleted; unset, it is kept.")
    public Integer getTtlSecondsAfterFinished() { return ttlSecondsAfterFinished; }
    public void setTtlSecondsAfterFinished(Integer ttlSecondsAfterFinished) { this.ttlSecondsAfterFinished = ttlSecondsAfterFinished; }

    /** As in batch/v1: true stops the job's pods and keeps the job, false resumes it. */
    @JsonPropertyDescription("As in batch/v1: true stops the job's pods and keeps the job, false resumes "
            + "it; defaults to false.")
    public Boolean getSuspend() { return suspend; }
    public void setSuspend(Boolean suspend) { this.suspend = suspend; }

    /**
     * How long the job may run, as a Go duration ({@code 30m}, {@code 2h}), counted from when it last entered
     * Running; a job that runs longer fails with reason {@code MaxRuntimeExceeded}. Copied onto the job's
     * PodGroup, where the scheduler reads it as the bound on when the gang frees its room (backfill); it
     * cannot change once the job exists, since the scheduler may have promised room on that bound.
     */
    @JsonPropertyDescription("How long the job may run, as a Go duration (30m, 2h), counted from when it "
            + "last entered Running; a job that runs longer fails with reason MaxRuntimeExceeded. Cannot change "
            + "once the job exists.")
    public String getMaxRuntime() { return maxRuntime; }
    public void setMaxRuntime(String maxRuntime) { this.maxRuntime = maxRuntime; }

    /**
     * How long the job is expected to run, as a Go duration (Volcano's {@code runningEstimate}). Not enforced;
     * copied onto the job's PodGroup, where backfill plans with it as the gang's expected end when
     * {@code maxRuntime} is absent, so a reservation built on it can be late.
     */
    @JsonPropertyDescription("How long the job is expected to run, as a Go duration (Volcano's "
            + "runningEstimate). Not enforced: backfill plans with it as the gang's expected end when maxRuntime is "
            + "absent. Cannot change once the job exists.")
    public String getRunningEstimate() { return runningEstimate; }
    public void setRunningEstimate(String runningEstimate) { this.runningEstimate = runningEstimate; }

    /** Volumes mounted into every pod of the job. */
    @JsonPropertyDescription("Volumes mounted into every pod of the job.")
    public List<VolumeSpec> getVolumes() { return volumes; }
    public void setVolumes(List<VolumeSpec> volumes) { this.volumes = volumes; }
}
