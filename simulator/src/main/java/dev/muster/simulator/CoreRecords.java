package dev.muster.simulator;

import dev.muster.scheduler.core.model.GangInfo;
import dev.muster.scheduler.core.model.GroupKey;
import dev.muster.scheduler.core.model.NodeInfo;
import dev.muster.scheduler.core.model.PendingGang;
import dev.muster.scheduler.core.model.PlacementConstraints;
import dev.muster.scheduler.core.model.PodInfo;
import dev.muster.scheduler.core.model.QueueInfo;
import dev.muster.scheduler.core.model.QueuePreemption;
import dev.muster.scheduler.core.model.ResourceVector;

import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Every record of the scheduler's placement core that the simulator builds is built here, so that a change
 * to a core constructor is fixed in one place. Also decides what a trace job looks like to the scheduler:
 * its pods, their requests and its gang.
 */
public final class CoreRecords {
    /** The extended resource a GPU is, as the NVIDIA device plugin names it. */
    public static final String GPU = "nvidia.com/gpu";
    /** Namespace of a job whose trace names no virtual cluster. */
    static final String DEFAULT_NAMESPACE = "default";
    /** A team's namespace, and its Queue's name with team queues, is this and its virtual cluster. */
    static final String TEAM_PREFIX = "vc-";
    /**
     * CPU a pod requests per GPU, in millicores: a node's 64 cores in proportion to its 8 GPUs. Proportional, so
     * that cpu runs out exactly when GPUs do and the queues' fair shares come out the same on every resource:
     * with less cpu per GPU, a full node's spare cores count toward a queue's cpu fair share although no pod
     * can use them, and reclaim, which must leave its victim's queue its fair share on every resource the
     * waiting gang contends for, could never take a whole 8-GPU pod back.
     */
    static final long CPU_MILLIS_PER_GPU = 8_000;
    /** Memory a pod requests per GPU: a node's 512 GiB in proportion to its 8 GPUs, as for cpu. */
    static final long MEMORY_PER_GPU = 64L << 30;
    /** A simulated node's CPU, memory and pod slots besides its GPUs. */
    static final long NODE_CPU_MILLIS = 64_000;
    static final long NODE_MEMORY = 512L << 30;
    static final long NODE_PODS = 110;

    private CoreRecords() {
    }

    /** A Ready, schedulable, untainted node with the given GPUs and a typical GPU server's CPU and memory. */
    public static NodeInfo node(String name, Map<String, String> labels, int gpus) {
        ResourceVector allocatable = ResourceVector.builder().cpuMillis(NODE_CPU_MILLIS).memoryBytes(NODE_MEMORY)
                .pods(NODE_PODS).set(GPU, gpus).build();
        return new NodeInfo(name, labels, allocatable, true, false);
    }

    /**
     * How many GPUs each pod of the job requests: pods of {@code gpusPerPod} GPUs and one pod with the
     * remainder (a 12-GPU job on 8-GPU nodes is 8 + 4), or one GPU per pod if {@code gpusPerPod} is 1.
     */
    public static int[] podGpus(int gpus, int gpusPerPod) {
        int pods = (gpus + gpusPerPod - 1) / gpusPerPod;
        int[] split = new int[pods];
        for (int i = 0; i < pods; i++) {
            split[i] = Math.min(gpusPerPod, gpus - i * gpusPerPod);
        }
        return split;
    }

    /** The key of the job's gang: a PodGroup named after the job, in its virtual cluster's namespace. */
    public static GroupKey gangKey(TraceJob job) {
        return GroupKey.podGroup(namespace(job), jobName(job));
    }

    /**
     * The job's pods, one per entry of {@code podGpus}, in its gang; or each a gang of its own if
     * {@code standalone}.
     *
     * @param nodeSelector labels the pods' nodes must carry; empty for any node
     */
    public static List<PodInfo> pods(TraceJob job, int[] podGpus, boolean standalone, Map<String, String> nodeSelector) {
        PlacementConstraints constraints = PlacementConstraints.ofNodeSelector(nodeSelector);
        List<PodInfo> pods = new ArrayList<>(podGpus.length);
        for (int i = 0; i < podGpus.length; i++) {
            String name = jobName(job) + "-" + i;
            GroupKey group = standalone ? GroupKey.standalonePod(namespace(job), name) : gangKey(job);
            pods.add(new PodInfo(namespace(job), name, group, "", 0, podRequests(podGpus[i]), constraints));
        }
        return pods;
    }

    /**
     * A waiting gang of all the job's pods, every one of which must run at once, queued from its submission.
     *
     * @param queue the leaf queue it belongs to, {@link QueueInfo#DEFAULT} when teams have no queues
     */
    public static PendingGang gang(TraceJob job, List<PodInfo> pods, String queue) {
        GangInfo info = new GangInfo(gangKey(job), pods.size(), Map.of(), 0, job.submit(), null, null, queue, null);
        return new PendingGang(info, pods, 0, Map.of());
    }

    /**
     * The queue of a job: its team's ({@code vc-<cluster>}) when teams have queues, else, and for a job that
     * names no team, the default queue, as a PodGroup that names no queue is in.
     */
    public static String queueOf(TraceJob job, PolicySpec.Teams teams) {
        return teams != PolicySpec.Teams.QUEUES || job.vc().isEmpty() ? QueueInfo.DEFAULT : namespace(job);
    }

    /**
     * The Queues the scheduler sees. Without team queues: the default queue alone, as on a cluster with no
     * Queue objects. With them: beside the default queue, one top-level Queue per team, named
     * {@code vc-<cluster>}, guaranteed the cpu, memory and GPUs of the team's nodes (none for a team without
     * nodes), weighted
     * by its node count (at least 1), with no limit and the default preemption (reclaim on after 30 s, or
     * {@code reclaimDelay}, within the queue by priority): idle guaranteed room is lent to the other teams
     * and taken back when its team needs it.
     *
     * @param reclaimDelay the team queues' reclaim delay; {@code null} for the default
     */
    public static List<QueueInfo> queues(SimInput input, PolicySpec.Teams teams, Duration reclaimDelay) {
        List<QueueInfo> queues = new ArrayList<>();
        queues.add(QueueInfo.of(QueueInfo.DEFAULT, 1));
        if (teams != PolicySpec.Teams.QUEUES) {
            return queues;
        }
        Map<String, Integer> nodeCounts = new LinkedHashMap<>();
        Map<String, ResourceVector> guarantees = new LinkedHashMap<>();
        for (NodeInfo node : input.cluster().nodes()) {
            String vc = node.labels().get(SimCluster.VC_LABEL);
            if (vc != null) {
                nodeCounts.merge(vc, 1, Integer::sum);
                ResourceVector room = ResourceVector.builder().cpuMillis(node.allocatable().get(ResourceVector.CPU))
                        .memoryBytes(node.allocatable().get(ResourceVector.MEMORY)).set(GPU, node.allocatable().get(GPU))
                        .build();
                guarantees.merge(vc, room, ResourceVector::plus);
            }
        }
        QueuePreemption preemption = reclaimDelay == null ? QueuePreemption.DEFAULTS
                : new QueuePreemption(QueuePreemption.DEFAULTS.withinQueue(), true, reclaimDelay);
        for (String vc : input.vcs()) {
            if (!vc.isEmpty()) {
                queues.add(new QueueInfo(TEAM_PREFIX + vc, null, Math.max(1, nodeCounts.getOrDefault(vc, 0)),
                        guarantees.getOrDefault(vc, ResourceVector.ZERO), null, preemption, true));
            }
        }
        return queues;
    }

    /** A waiting pod that is a gang of one, as a pod that names no PodGroup is to the scheduler. */
    public static PendingGang standalone(TraceJob job, PodInfo pod) {
        GangInfo info = new GangInfo(pod.group(), 1, Map.of(), 0, job.submit());
        return new PendingGang(info, List.of(pod), 0, Map.of());
    }

    /** GPUs a pod requests. */
    public static long gpus(PodInfo pod) {
        return pod.requests().get(GPU);
    }

    private static ResourceVector podRequests(int gpus) {
        return ResourceVector.builder().cpuMillis(gpus * CPU_MILLIS_PER_GPU).memoryBytes(gpus * MEMORY_PER_GPU)
                .set(GPU, gpus).build();
    }

    private static String namespace(TraceJob job) {
        return job.vc().isEmpty() ? DEFAULT_NAMESPACE : TEAM_PREFIX + job.vc();
    }

    private static String jobName(TraceJob job) {
        return "job-" + job.id();
    }
}
