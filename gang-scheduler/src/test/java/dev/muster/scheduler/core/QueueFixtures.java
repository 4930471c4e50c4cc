package dev.muster.scheduler.core;

import dev.muster.scheduler.core.cluster.ClusterState;
import dev.muster.scheduler.core.model.GangInfo;
import dev.muster.scheduler.core.model.GroupKey;
import dev.muster.scheduler.core.model.NodeInfo;
import dev.muster.scheduler.core.model.PodInfo;
import dev.muster.scheduler.core.model.QueueInfo;
import dev.muster.scheduler.core.model.QueuePreemption;
import dev.muster.scheduler.core.model.ResourceVector;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/** Builders for queue tests: nodes of 8 GPUs, gangs of n pods of k GPUs, queues. */
public final class QueueFixtures {
    public static final String GPU = "nvidia.com/gpu";
    public static final Instant T0 = Instant.parse("2026-01-01T00:00:00Z");

    private QueueFixtures() {
    }

    public static ResourceVector gpus(long count) {
        return ResourceVector.builder().set(GPU, count).build();
    }

    /** {@code cpuMillis} of cpu and {@code memoryGib} GiB of memory. */
    public static ResourceVector cpuAndMemory(long cpuMillis, long memoryGib) {
        return ResourceVector.builder().cpuMillis(cpuMillis).memoryBytes(memoryGib << 30).build();
    }

    /** A node of 8 GPUs and 110 pod slots. */
    public static NodeInfo gpuNode(String name) {
        return gpuNode(name, ResourceVector.ZERO);
    }

    /** A node of 8 GPUs and 110 pod slots, with {@code extra} allocatable besides. */
    public static NodeInfo gpuNode(String name, ResourceVector extra) {
        return new NodeInfo(name, Map.of(), ResourceVector.builder().set(GPU, 8).pods(110).build().plus(extra), true,
                false);
    }

    /** A cluster of {@code count} 8-GPU nodes n01, n02, ... */
    public static ClusterState gpuCluster(int count) {
        ClusterState state = new ClusterState();
        for (int i = 1; i <= count; i++) {
            state.putNode(gpuNode(String.format("n%02d", i)));
        }
        return state;
    }

    /** A gang of the queue, created {@code createdSecond} seconds after T0. */
    public static GangInfo gang(String name, String queue, int minMember, int priority, long createdSecond,
                         Duration maxRuntime) {
        return new GangInfo(GroupKey.podGroup("ns", name), minMember, Map.of(), priority,
                T0.plusSeconds(createdSecond), null, null, queue, maxRuntime);
    }

    /** Its {@code count} pods of {@code gpusEach} GPUs. */
    public static List<PodInfo> gpuPods(GangInfo gang, int count, long gpusEach) {
        List<PodInfo> pods = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            pods.add(new PodInfo("ns", gang.key().name() + "-" + i, gang.key(), "", gang.priority(), gpus(gpusEach),
                    Map.of()));
        }
        return pods;
    }

    public static QueueInfo queue(String name, String parent, int weight, long guaranteeGpus, Long limitGpus) {
        return queue(name, parent, weight, guaranteeGpus, limitGpus, QueuePreemption.DEFAULTS);
    }

    /** An open queue of GPU amounts with the preemption policy given. */
    public static QueueInfo queue(String name, String parent, int weight, long guaranteeGpus, Long limitGpus,
                           QueuePreemption preemption) {
        return new QueueInfo(name, parent, weight, gpus(guaranteeGpus), limitGpus == null ? null : gpus(limitGpus),
                preemption, true);
    }
}
