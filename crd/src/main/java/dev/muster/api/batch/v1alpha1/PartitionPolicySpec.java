package dev.muster.api.batch.v1alpha1;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import io.fabric8.generator.annotation.Min;
import io.fabric8.generator.annotation.Required;

/**
 * Volcano's {@code partitionPolicy} of a task: its pods split into partitions of {@code partitionSize} (pod
 * {@code i} in partition {@code i / partitionSize}, labelled {@code batch.muster.dev/partition-id}), each placed
 * as a sub-gang, whole, and within one domain of the tiers its {@code networkTopology} maps onto; at least
 * {@code minPartitions} of them for the task to run. The Job's PodGroup carries it as a {@code subGroupPolicy}.
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

    /** Where each partition must land: within one domain of the tiers up to the one named. */
    @JsonPropertyDescription("Where each partition must land: within one domain of the tiers up to the one named, "
            + "as the job's networkTopology.")
    public NetworkTopologySpec getNetworkTopology() { return networkTopology; }
    public void setNetworkTopology(NetworkTopologySpec networkTopology) { this.networkTopology = networkTopology; }

    /** Partitions that must be placed whole for the task to run; the task's minAvailable defaults to it. */
    @JsonPropertyDescription("Partitions that must be placed whole for the task to run; the task's minAvailable "
            + "defaults to minPartitions × partitionSize when this is above 0.")
    public Integer getMinPartitions() { return minPartitions; }
    public void setMinPartitions(Integer minPartitions) { this.minPartitions = minPartitions; }
}
