package dev.muster.api.batch.v1alpha1;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import io.fabric8.generator.annotation.Min;
import io.fabric8.generator.annotation.Required;

/**
 * Volcano's {@code partitionPolicy} of a task: its pods split into partitions of {@code partitionSize}, each
 * to be placed as a sub-gang within one network domain. Accepted so that no client loses it, and not
 * honoured: the job says so in its {@code FieldsNotHonoured} condition (see docs/job-api.md).
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public class PartitionPolicySpec {
    @Required
    @Min(1)
    private Integer totalPartitions;
    @Required
    @Min(1)
    private Integer partitionSize;
    private NetworkTopologySpec networkTopology;
    @Min(0)
    private Integer minPartitions;

    /** How many partitions the task's pods form. */
    @JsonPropertyDescription("How many partitions the task's pods form.")
    public Integer getTotalPartitions() { return totalPartitions; }
    public void setTotalPartitions(Integer totalPartitions) { this.totalPartitions = totalPartitions; }

    /** Pods in each partition. */
    @JsonPropertyDescription("Pods in each partition.")
    public Integer getPartitionSize() { return partitionSize; }
    public void setPartitionSize(Integer partitionSize) { this.partitionSize = partitionSize; }

    /** Where each partition must land. */
    @JsonPropertyDescription("Where each partition must land.")
    public NetworkTopologySpec getNetworkTopology() { return networkTopology; }
    public void setNetworkTopology(NetworkTopologySpec networkTopology) { this.networkTopology = networkTopology; }

    /** Partitions that must be placed for the task to run. */
    @JsonPropertyDescription("Partitions that must be placed for the task to run.")
    public Integer getMinPartitions() { return minPartitions; }
    public void setMinPartitions(Integer minPartitions) { this.minPartitions = minPartitions; }
}
