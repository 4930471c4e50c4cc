package dev.muster.job.decision;

import dev.muster.api.batch.v1alpha1.JobOwnership;
import dev.muster.api.MusterLabels;
import dev.muster.api.batch.v1alpha1.Job;
import dev.muster.api.batch.v1alpha1.JobDefaults;
import dev.muster.api.batch.v1alpha1.JobSpec;
import dev.muster.api.batch.v1alpha1.PartitionPolicySpec;
import dev.muster.api.batch.v1alpha1.TaskSpec;
import dev.muster.api.scheduling.v1alpha1.PodGroup;
import dev.muster.api.scheduling.v1alpha1.PodGroupSpec;
import dev.muster.api.scheduling.v1alpha1.SubGroupPolicy;
import io.fabric8.kubernetes.api.model.LabelSelectorBuilder;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * The PodGroup a job should have. Pure functions. Which of its fields the job controller keeps up to date on the
 * PodGroup as it exists is the writer's concern ({@code OwnedPodGroupFields} in {@code dev.muster.job}).
 */
public final class PodGroupPlanner {
    private PodGroupPlanner() {
    }

    /**
     * The job's PodGroup, named like the job: minMember is the job's minAvailable, minTaskMember each
     * task's minAvailable (0 for every task of an {@linkplain JobDefaults#elastic elastic} job, whose gang
     * is any minAvailable of its pods), queue, priorityClassName, schedulingConstraints (or its
     * networkTopology mapped onto {@code tiers}), maxRuntime and runningEstimate the job's, and a sub-group
     * policy per task with a {@code partitionPolicy}.
     */
    public static PodGroup desiredPodGroup(Job job, NetworkTopologyTiers tiers) {
        return desiredPodGroup(job, job.getSpec().getTasks().stream().map(TaskSpec::getName).collect(Collectors.toSet()),
                tiers);
    }

    /**
     * The job's PodGroup when only {@code openTasks} may have pods ({@code dependsOn}): the gang counts
     * only those tasks, and minMember is at most the number of their pods, so a gang never waits for
     * pods that cannot exist yet.
     */
    public static PodGroup desiredPodGroup(Job job, Set<String> openTasks, NetworkTopologyTiers tiers) {
        String jobName = job.getMetadata().getName();
        PodGroup group = new PodGroup();
        group.setMetadata(new ObjectMetaBuilder()
                .withName(JobDefaults.podGroupName(jobName))
                .withNamespace(job.getMetadata().getNamespace())
                .withLabels(Map.of(MusterLabels.JOB_NAME, jobName))
                .withOwnerReferences(JobOwnership.ownerReference(job))
                .build());
        group.setSpec(spec(job.getSpec(), openTasks, tiers));
        return group;
    }

    private static PodGroupSpec spec(JobSpec jobSpec, Set<String> openTasks, NetworkTopologyTiers tiers) {
        Map<String, Integer> minTaskMember = new LinkedHashMap<>();
        int openPods = 0;
        for (TaskSpec task : jobSpec.getTasks()) {
            if (openTasks.contains(task.getName())) {
                minTaskMember.put(task.getName(), JobDefaults.enforcedMinAvailable(jobSpec, task));
                openPods += JobDefaults.replicas(task);
            }
        }
        PodGroupSpec spec = new PodGroupSpec();
        spec.setMinMember(Math.min(JobDefaults.minAvailable(jobSpec), openPods));
        spec.setMinTaskMember(minTaskMember);
        spec.setQueue(jobSpec.getQueue());
        spec.setPriorityClassName(jobSpec.getPriorityClassName());
        // The validator refuses a job that sets both; a networkTopology not honoured leaves none.
        spec.setSchedulingConstraints(jobSpec.getSchedulingConstraints() != null ? jobSpec.getSchedulingConstraints()
                : tiers.map(jobSpec.getNetworkTopology()).constraints().orElse(null));
        spec.setSubGroupPolicy(subGroupPolicy(jobSpec, openTasks, tiers));
        spec.setMaxRuntime(jobSpec.getMaxRuntime());
        spec.setRunningEstimate(jobSpec.getRunningEstimate());
        return spec;
    }

    /**
     * One sub-group policy per open task with a {@code partitionPolicy}, as Volcano's job controller writes its
     * PodGroup's {@code subGroupPolicy}: the task's pods, divided by their {@link MusterLabels#PARTITION_ID}, each
     * partition placed whole, within one domain of the partition's {@code networkTopology} mapped onto
     * {@code tiers} (none when it cannot be honoured, which the job says); {@code null} when no task has one.
     */
    private static List<SubGroupPolicy> subGroupPolicy(JobSpec jobSpec, Set<String> openTasks, NetworkTopologyTiers tiers) {
        List<SubGroupPolicy> policies = new ArrayList<>();
        for (TaskSpec task : jobSpec.getTasks()) {
            PartitionPolicySpec partitions = task.getPartitionPolicy();
            if (partitions == null || !openTasks.contains(task.getName())) {
                continue;
            }
            SubGroupPolicy policy = new SubGroupPolicy();
            policy.setName(task.getName());
            policy.setSubGroupSize(partitions.getPartitionSize());
            policy.setMinSubGroups(partitions.getMinPartitions() == null ? 0 : partitions.getMinPartitions());
            policy.setLabelSelector(new LabelSelectorBuilder()
                    .withMatchLabels(Map.of(MusterLabels.TASK_NAME, task.getName())).build());
            policy.setMatchLabelKeys(List.of(MusterLabels.PARTITION_ID));
            policy.setSchedulingConstraints(tiers.map(partitions.getNetworkTopology()).constraints().orElse(null));
            policies.add(policy);
        }
        return policies.isEmpty() ? null : policies;
    }
}
