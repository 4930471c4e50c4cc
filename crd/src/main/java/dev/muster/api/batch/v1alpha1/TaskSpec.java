package dev.muster.api.batch.v1alpha1;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import io.fabric8.crd.generator.annotation.PreserveUnknownFields;
import io.fabric8.crd.generator.annotation.SchemaFrom;
import io.fabric8.generator.annotation.Min;
import io.fabric8.generator.annotation.Pattern;
import io.fabric8.generator.annotation.Required;
import io.fabric8.generator.annotation.Size;
import io.fabric8.generator.annotation.ValidationRule;
import io.fabric8.kubernetes.api.model.PodTemplateSpec;

import java.util.List;

/** A set of identical pods within a {@link Job}, named {@code <job>-<task>-<index>}. */
@JsonInclude(JsonInclude.Include.NON_NULL)
@ValidationRule(value = CelRules.TASK_MIN_AVAILABLE, message = CelRules.TASK_MIN_AVAILABLE_MESSAGE)
public class TaskSpec {
    @Required
    @Pattern("^[a-z0-9]([-a-z0-9]*[a-z0-9])?$")
    @Size(max = 63)
    private String name;
    @Min(0)
    private Integer replicas;
    @Min(0)
    private Integer minAvailable;
    // The full PodTemplateSpec schema would make the CRD several hundred kilobytes; the API server
    // validates the pods themselves when they are created.
    @PreserveUnknownFields
    @SchemaFrom(type = Object.class)
    private PodTemplateSpec template;
    @ValidationRule(value = CelRules.UNIQUE_EVENTS, message = CelRules.UNIQUE_EVENTS_MESSAGE)
    @ValidationRule(value = CelRules.UNIQUE_EXIT_CODES, message = CelRules.UNIQUE_EXIT_CODES_MESSAGE)
    @ValidationRule(value = CelRules.ANY_ALONE, message = CelRules.ANY_ALONE_MESSAGE)
    @Size(max = JobDefaults.MAX_POLICIES)
    private List<LifecyclePolicy> policies;
    private DependsOn dependsOn;
    @Min(0)
    private Integer maxRetry;
    private PartitionPolicySpec partitionPolicy;
    @ValidationRule(value = CelRules.NUMA_POLICY, message = CelRules.NUMA_POLICY_MESSAGE)
    private String topologyPolicy;

    /** Task name, a DNS-1123 label unique within the job. */
    @JsonPropertyDescription("Task name, a DNS-1123 label unique within the job; the task's pods are "
            + "named <job>-<task>-<index>.")
    public String getName() { return name; }
    public void setName(String name) { this.name = name; }

    /** Number of pods; defaults to 1. */
    @JsonPropertyDescription("Number of pods; defaults to 1.")
    public Integer getReplicas() { return replicas; }
    public void setReplicas(Integer replicas) { this.replicas = replicas; }

    /** Pods of this task that must run at once, and succeed for the job to complete; defaults to replicas. */
    @JsonPropertyDescription("Pods of this task that must run at once, and succeed for the job to "
            + "complete; defaults to replicas.")
    public Integer getMinAvailable() { return minAvailable; }
    public void setMinAvailable(Integer minAvailable) { this.minAvailable = minAvailable; }

    /** Template of the task's pods. */
    @JsonPropertyDescription("Template of the task's pods.")
    public PodTemplateSpec getTemplate() { return template; }
    public void setTemplate(PodTemplateSpec template) { this.template = template; }

    /** Task-level lifecycle policies; they win over the job's. */
    @JsonPropertyDescription("Task-level lifecycle policies; they win over the job's.")
    public List<LifecyclePolicy> getPolicies() { return policies; }
    public void setPolicies(List<LifecyclePolicy> policies) { this.policies = policies; }

    /** Tasks that must be up before this task's pods are created. */
    @JsonPropertyDescription("Tasks that must be up before this task's pods are created.")
    public DependsOn getDependsOn() { return dependsOn; }
    public void setDependsOn(DependsOn dependsOn) { this.dependsOn = dependsOn; }

    /** Restarts in place a pod of this task may take before the task fails. */
    @JsonPropertyDescription("Restarts in place a pod of this task may take before the task fails; "
            + "defaults to the job's maxRetry.")
    public Integer getMaxRetry() { return maxRetry; }
    public void setMaxRetry(Integer maxRetry) { this.maxRetry = maxRetry; }

    /** Volcano's partitions of the task's pods: each placed whole, within one network domain if it names one. */
    @JsonPropertyDescription("Volcano's partitions of the task's pods: sub-gangs, each placed whole and, with a "
            + "networkTopology, within one domain of its tiers.")
    public PartitionPolicySpec getPartitionPolicy() { return partitionPolicy; }
    public void setPartitionPolicy(PartitionPolicySpec partitionPolicy) { this.partitionPolicy = partitionPolicy; }

    /**
     * Volcano's NUMA policy of the task's pods ({@code none}, {@code best-effort}, {@code restricted},
     * {@code single-numa-node}); accepted, not honoured (the job says so).
     */
    @JsonPropertyDescription("Volcano's NUMA policy of the task's pods (none, best-effort, restricted, "
            + "single-numa-node); accepted, not honoured (the job says so).")
    public String getTopologyPolicy() { return topologyPolicy; }
    public void setTopologyPolicy(String topologyPolicy) { this.topologyPolicy = topologyPolicy; }
}
