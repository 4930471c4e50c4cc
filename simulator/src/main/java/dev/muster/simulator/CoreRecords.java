package dev.muster.simulator;

import dev.muster.scheduler.core.GangInfo;
import dev.muster.scheduler.core.GroupKey;
import dev.muster.scheduler.core.NodeInfo;
import dev.muster.scheduler.core.PendingGang;
import dev.muster.scheduler.core.PlacementConstraints;
import dev.muster.scheduler.core.PodInfo;
import dev.muster.scheduler.core.ResourceVector;

import java.util.ArrayList;
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
    /** CPU a pod requests per GPU, in millicores: 6 of a node's 64 cores per GPU leaves room for daemons. */
    static final long CPU_MILLIS_PER_GPU = 6_000;
    /** Memory a pod requests per GPU: 48 GiB of a node's 512 GiB per GPU. */
    static final long MEMORY_PER_GPU = 48L << 30;
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

    /** A waiting gang of all the job's pods, every one of which must run at once, queued from its submission. */
    public static PendingGang gang(TraceJob job, List<PodInfo> pods) {
        GangInfo info = new GangInfo(gangKey(job), pods.size(), Map.of(), 0, job.submit());
        return new PendingGang(info, pods, 0, Map.of());
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
        return job.vc().isEmpty() ? DEFAULT_NAMESPACE : "vc-" + job.vc();
    }

    private static String jobName(TraceJob job) {
        return "job-" + job.id();
    }
}
