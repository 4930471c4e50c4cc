package dev.muster.api.batch.v1alpha1.validation;

import dev.muster.api.batch.v1alpha1.GoDuration;
import dev.muster.api.batch.v1alpha1.JobDefaults;
import dev.muster.api.batch.v1alpha1.JobSpec;
import dev.muster.api.batch.v1alpha1.NetworkTopologySpec;
import dev.muster.api.batch.v1alpha1.PartitionPolicySpec;
import dev.muster.api.batch.v1alpha1.TaskSpec;

import java.util.List;

/**
 * The fields a Job shares with Volcano's for placement and planning: {@code networkTopology},
 * {@code runningEstimate}, and each task's {@code partitionPolicy} and {@code topologyPolicy}. Checked as
 * Volcano's CRD checks them (enums, ranges, one tier limit), so that what Volcano accepts Muster accepts.
 */
final class TopologyFieldsValidator {
    /** The NUMA policies Volcano names, in its order. */
    static final List<String> NUMA_POLICIES = List.of("none", "best-effort", "restricted", "single-numa-node");
    private static final int MAX_TIER_NAME = 253;

    private TopologyFieldsValidator() {
    }

    static void validateJob(JobSpec spec, List<FieldError> errors) {
        if (spec.getNetworkTopology() != null) {
            networkTopology(spec.getNetworkTopology(), "spec.networkTopology", errors);
            if (spec.getSchedulingConstraints() != null) {
                errors.add(new FieldError("spec.networkTopology", "set networkTopology or schedulingConstraints, not both"));
            }
        }
        if (spec.getRunningEstimate() != null) {
            try {
                GoDuration.parse(spec.getRunningEstimate());
            } catch (IllegalArgumentException e) {
                errors.add(new FieldError("spec.runningEstimate", e.getMessage()));
            }
        }
    }

    static void validateTask(TaskSpec task, String path, List<FieldError> errors) {
        String numa = task.getTopologyPolicy();
        if (numa != null && !NUMA_POLICIES.contains(numa)) {
            errors.add(new FieldError(path + ".topologyPolicy", "must be none, best-effort, restricted or "
                    + "single-numa-node, was '" + numa + "'"));
        }
        PartitionPolicySpec partitions = task.getPartitionPolicy();
        if (partitions == null) {
            return;
        }
        String at = path + ".partitionPolicy";
        atLeast(at + ".totalPartitions", partitions.getTotalPartitions(), 1, true, errors);
        atLeast(at + ".partitionSize", partitions.getPartitionSize(), 1, true, errors);
        atLeast(at + ".minPartitions", partitions.getMinPartitions(), 0, false, errors);
        Integer total = partitions.getTotalPartitions();
        Integer size = partitions.getPartitionSize();
        if (total != null && size != null && total >= 1 && size >= 1) {
            // Volcano's job webhook refuses both; its partitions would otherwise not cover the task's pods.
            int replicas = JobDefaults.replicas(task);
            if (replicas != total * size) {
                errors.add(new FieldError(at, "totalPartitions × partitionSize must equal the task's replicas "
                        + replicas + ", is " + total + " × " + size));
            }
            Integer min = partitions.getMinPartitions();
            if (min != null && min > 0 && task.getMinAvailable() != null && task.getMinAvailable() != min * size) {
                errors.add(new FieldError(at + ".minPartitions", "minPartitions × partitionSize must equal the "
                        + "task's minAvailable " + task.getMinAvailable() + ", is " + min + " × " + size
                        + "; set one of them"));
            }
            if (min != null && min > total) {
                errors.add(new FieldError(at + ".minPartitions", "must be at most totalPartitions " + total
                        + ", is " + min));
            }
        }
        if (partitions.getNetworkTopology() != null) {
            networkTopology(partitions.getNetworkTopology(), at + ".networkTopology", errors);
        }
    }

    private static void networkTopology(NetworkTopologySpec topology, String path, List<FieldError> errors) {
        String mode = topology.getMode();
        if (mode != null && !NetworkTopologySpec.HARD.equals(mode) && !NetworkTopologySpec.SOFT.equals(mode)) {
            errors.add(new FieldError(path + ".mode", "must be hard or soft, was '" + mode + "'"));
        }
        atLeast(path + ".highestTierAllowed", topology.getHighestTierAllowed(), 0, false, errors);
        String name = topology.getHighestTierName();
        if (name != null && name.length() > MAX_TIER_NAME) {
            errors.add(new FieldError(path + ".highestTierName", "must be at most " + MAX_TIER_NAME
                    + " characters, has " + name.length()));
        }
        if (topology.getHighestTierAllowed() != null && name != null) {
            errors.add(new FieldError(path, "set highestTierAllowed or highestTierName, not both"));
        }
    }

    private static void atLeast(String path, Integer value, int min, boolean required, List<FieldError> errors) {
        if (value == null) {
            if (required) {
                errors.add(new FieldError(path, "is required"));
            }
        } else if (value < min) {
            errors.add(new FieldError(path, "must be >= " + min + ", was " + value));
        }
    }
}
