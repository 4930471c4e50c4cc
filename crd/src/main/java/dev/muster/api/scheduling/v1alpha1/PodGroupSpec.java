package dev.muster.api.scheduling.v1alpha1;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import dev.muster.api.batch.v1alpha1.GoDuration;
import io.fabric8.generator.annotation.Min;
import io.fabric8.generator.annotation.Pattern;
import io.fabric8.kubernetes.api.model.Quantity;

import java.util.List;
import java.util.Map;

/** Desired gang of a {@link PodGroup}. */
@JsonInclude(JsonInclude.Include.NON_NULL)
public class PodGroupSpec {
    @Min(0)
    private Integer minMember;
    private Map<String, Integer> minTaskMember;
    private Map<String, Quantity> minResources;
    @Min(0)
    private Integer scheduleTimeoutSeconds;
    private String queue;
    private String priorityClassName;
    private PodGroupSchedulingConstraints schedulingConstraints;
    private List<SubGroupPolicy> subGroupPolicy;
    @Pattern(GoDuration.PATTERN)
    private String maxRuntime;
    @Pattern(GoDuration.PATTERN)
    private String runningEstimate;

    /** Pods that must be placed at once; defaults to 1. */
    @JsonPropertyDescription("Pods that must be placed at once; defaults to 1.")
    public Integer getMinMember() { return minMember; }
    public void setMinMember(Integer minMember) { this.minMember = minMember; }

    /** Per task (pod label {@code batch.muster.dev/task-name}), pods that must be placed at once. */
    @JsonPropertyDescription("Per task (pod label batch.muster.dev/task-name), pods that must be placed at once.")
    public Map<String, Integer> getMinTaskMember() { return minTaskMember; }
    public void setMinTaskMember(Map<String, Integer> minTaskMember) { this.minTaskMember = minTaskMember; }

    /** Resources the gang needs at least, summed over its minimum members. */
    @JsonPropertyDescription("Resources the gang needs at least, summed over its minimum members.")
    public Map<String, Quantity> getMinResources() { return minResources; }
    public void setMinResources(Map<String, Quantity> minResources) { this.minResources = minResources; }

    /** Overrides the scheduler's waiting time for this group. */
    @JsonPropertyDescription("Overrides the scheduler's waiting time for this group, in seconds.")
    public Integer getScheduleTimeoutSeconds() { return scheduleTimeoutSeconds; }
    public void setScheduleTimeoutSeconds(Integer scheduleTimeoutSeconds) { this.scheduleTimeoutSeconds = scheduleTimeoutSeconds; }

    /** The {@link Queue} the gang is in; unset, it is in {@link Queue#DEFAULT}. */
    @JsonPropertyDescription("The Queue the gang is in; unset, it is in the queue named default.")
    public String getQueue() { return queue; }
    public void setQueue(String queue) { this.queue = queue; }

    /** PriorityClass that orders this group against others. */
    @JsonPropertyDescription("PriorityClass that orders this group against others.")
    public String getPriorityClassName() { return priorityClassName; }
    public void setPriorityClassName(String priorityClassName) { this.priorityClassName = priorityClassName; }

    /** The gang's topology; without it, the scheduler's default gang locality applies. */
    @JsonPropertyDescription("The gang's topology; without it, the scheduler's default gang locality applies.")
    public PodGroupSchedulingConstraints getSchedulingConstraints() { return schedulingConstraints; }
    public void setSchedulingConstraints(PodGroupSchedulingConstraints schedulingConstraints) {
        this.schedulingConstraints = schedulingConstraints;
    }

    /** Sub-gangs within the gang: sub-groups of its pods, each placed whole, within one domain of its own. */
    @JsonPropertyDescription("Sub-gangs within the gang (Volcano's subGroupPolicy): sub-groups of its pods, "
            + "each placed whole and within one domain of its own schedulingConstraints.")
    public List<SubGroupPolicy> getSubGroupPolicy() { return subGroupPolicy; }
    public void setSubGroupPolicy(List<SubGroupPolicy> subGroupPolicy) { this.subGroupPolicy = subGroupPolicy; }

    /**
     * How long the gang may run once started, as a Go duration; its workload ends it then (a Job's
     * {@code spec.maxRuntime}, copied here). The scheduler reads it as when the gang's room frees at the latest.
     */
    @JsonPropertyDescription("How long the gang may run once started, as a Go duration (a Job's "
            + "spec.maxRuntime, copied here); the scheduler reads it as when the gang's room frees at the latest.")
    public String getMaxRuntime() { return maxRuntime; }
    public void setMaxRuntime(String maxRuntime) { this.maxRuntime = maxRuntime; }

    /**
     * How long the gang is expected to run once started, as a Go duration, not enforced (a Job's
     * {@code spec.runningEstimate}, copied here). Without {@code maxRuntime}, the scheduler's backfill plans
     * with it as when the gang's room frees; a gang that runs longer makes such a plan late.
     */
    @JsonPropertyDescription("How long the gang is expected to run once started, as a Go duration, not "
            + "enforced (a Job's spec.runningEstimate, copied here); without maxRuntime, backfill plans with it as "
            + "when the gang's room frees.")
    public String getRunningEstimate() { return runningEstimate; }
    public void setRunningEstimate(String runningEstimate) { this.runningEstimate = runningEstimate; }
}
