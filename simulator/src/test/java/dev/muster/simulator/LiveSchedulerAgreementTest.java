package dev.muster.simulator;

import dev.muster.api.MusterLabels;
import dev.muster.api.PodPreemption;
import dev.muster.api.scheduling.v1alpha1.PodGroup;
import dev.muster.api.scheduling.v1alpha1.Queue;
import dev.muster.api.scheduling.v1alpha1.QueuePreemptionSpec;
import dev.muster.local.LocalCluster;
import dev.muster.local.LocalClusterConfig;
import dev.muster.scheduler.GangScheduler;
import dev.muster.scheduler.GangSchedulerConfig;
import dev.muster.scheduler.core.model.PodInfo;
import dev.muster.scheduler.core.model.QueueInfo;
import dev.muster.scheduler.core.model.ResourceVector;
import dev.muster.gang.GangVerdict;
import dev.muster.gang.GangVerdictBoard;
import io.fabric8.kubernetes.api.model.NamespaceBuilder;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.client.KubernetesClient;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

import static dev.muster.simulator.Patience.PATIENCE;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The simulator's {@code muster} policy and the live gang scheduler, on the local cluster's API emulator,
 * decide alike: the same Nodes, and PodGroups, pods and Queues made from the simulator's own records. In
 * the default queue they place the same workload on the same nodes; with the teams as Queues, the same job
 * is reclaimed for the same newcomer, which takes its node.
 */
@Tag("emulator")
class LiveSchedulerAgreementTest {
    private static final Instant T0 = Instant.parse("2017-10-01T00:00:00Z");

    /**
     * Four nodes of 8 GPUs. Jobs 1 to 4 and 6 fit at once (12 as 8 + 4, then 8, 4, 2 and 1 GPUs, bin-packed);
     * job 5, two pods of 8 GPUs, does not, and the 1-GPU job 6 behind it fits anyway.
     */
    private static final List<TraceJob> JOBS = List.of(
            job(1, 12), job(2, 8), job(3, 4), job(4, 2), job(5, 16), job(6, 1));

    private LocalCluster cluster;
    private GangScheduler scheduler;

    @AfterEach
    void stop() {
        if (scheduler != null) {
            scheduler.stop();
        }
        if (cluster != null) {
            cluster.close();
        }
    }

    @Test
    void theSimulatorPlacesEveryPodWhereTheLiveSchedulerBindsIt() {
        cluster = LocalCluster.start(LocalClusterConfig.defaults().withNodes(4).withNodeCpu("64")
                .withNodeMemory("512Gi").withNodeGpus(8).withNodePods(110).withDefaultRunTime(Duration.ofHours(1)));
        KubernetesClient client = cluster.client();
        SimInput input = SimInput.of(JOBS, SimCluster.fromNodes("local cluster", client.nodes().list().getItems()),
                false, false);

        Map<String, String> simulated = new TreeMap<>();
        SimResult result = new Simulation(input, PolicySpec.parse("muster"), () -> false).run();
        // Job 5 starts once the others end; the live cluster's pods run for an hour, so only the first
        // cycle's placements compare.
        for (SimResult.JobOutcome outcome : result.outcomes().stream()
                .filter(o -> o.start() == T0.toEpochMilli()).toList()) {
            List<PodInfo> pods = pods(outcome.job(), input);
            for (int i = 0; i < pods.size(); i++) {
                simulated.put(pods.get(i).name(), outcome.nodes().get(i));
            }
        }

        for (TraceJob job : JOBS) {
            createGang(client, job, pods(job, input));
        }
        GangVerdictBoard board = new GangVerdictBoard();
        scheduler = new GangScheduler(client, board, GangSchedulerConfig.defaults().withCyclePeriod(Duration.ofMillis(200)));
        scheduler.start();

        await().atMost(PATIENCE).untilAsserted(() -> assertThat(bound(client)).hasSize(simulated.size()));
        await().atMost(PATIENCE).until(() -> board.latest(CoreRecords.DEFAULT_NAMESPACE, "job-5")
                .filter(verdict -> verdict.outcome() == GangVerdict.Outcome.UNSCHEDULABLE).isPresent());
        assertThat(bound(client)).isEqualTo(simulated);
        // Bin-packing: ties go to the first node by name, and a half-full node beats an empty one.
        assertThat(simulated).isEqualTo(Map.of("job-1-0", "node-0", "job-1-1", "node-1", "job-2-0", "node-2",
                "job-3-0", "node-1", "job-4-0", "node-3", "job-6-0", "node-3"));
    }

    /**
     * Two nodes of 8 GPUs; team a's jobs 1 and 2 (a node each, submitted a second apart) run in its Queue
     * while team b's is idle; team b's job 3 comes and reclaims its fair share (reclaim delay 0): both evict
     * job 2, the newer, and run job 3 on its node.
     */
    @Test
    void withTeamQueuesTheSimulatorReclaimsTheJobTheLiveSchedulerReclaims() {
        cluster = LocalCluster.start(LocalClusterConfig.defaults().withNodes(2).withNodeCpu("64")
                .withNodeMemory("512Gi").withNodeGpus(8).withNodePods(110).withDefaultRunTime(Duration.ofHours(1)));
        KubernetesClient client = cluster.client();
        List<TraceJob> jobs = List.of(new TraceJob(1, T0, 36_000, 8, "a"), new TraceJob(2, T0.plusSeconds(1), 36_000, 8, "a"),
                new TraceJob(3, T0.plusSeconds(10), 36_000, 8, "b"));
        SimInput input = SimInput.of(jobs, SimCluster.fromNodes("local cluster", client.nodes().list().getItems()),
                false, false);
        PolicySpec spec = PolicySpec.parse("muster:vcs=queues,reclaimDelay=0s");

        SimResult result = new Simulation(input, spec, () -> false).run();
        Map<Long, SimResult.JobOutcome> outcomes = new TreeMap<>();
        result.outcomes().forEach(outcome -> outcomes.put(outcome.job().id(), outcome));
        assertThat(result.evictions()).isEqualTo(1);
        assertThat(outcomes.get(1L).waitSeconds()).isZero();
        assertThat(outcomes.get(2L).waitSeconds()).as("job 2 was evicted and ran again later").isPositive();
        // Evicted at 10, gone by the next tick, when job 3 starts on the node job 2 had (node-1: bin-packing
        // put job 1 on node-0 first).
        assertThat(outcomes.get(3L).waitSeconds()).isEqualTo(1.0);
        assertThat(outcomes.get(3L).nodes()).containsExactly("node-1");

        for (QueueInfo queue : CoreRecords.queues(input, PolicySpec.Teams.QUEUES, spec.reclaimDelay())) {
            if (!queue.name().equals(QueueInfo.DEFAULT)) {
                assertThat(queue.guarantee()).as("nodes from the API name no team").isEqualTo(ResourceVector.ZERO);
                createQueue(client, queue.name(), queue.weight());
            }
        }
        GangVerdictBoard board = new GangVerdictBoard();
        scheduler = new GangScheduler(client, board, GangSchedulerConfig.defaults().withCyclePeriod(Duration.ofMillis(200)));
        scheduler.start();
        createTeamGang(client, jobs.get(0), input, spec);
        await().atMost(PATIENCE).until(() -> nodeOf(client, "vc-a", "job-1-0") != null);
        long second = Instant.now().getEpochSecond();
        await().atMost(PATIENCE).until(() -> Instant.now().getEpochSecond() > second);
        createTeamGang(client, jobs.get(1), input, spec);
        await().atMost(PATIENCE).until(() -> nodeOf(client, "vc-a", "job-2-0") != null);
        assertThat(Map.of("job-1-0", nodeOf(client, "vc-a", "job-1-0"), "job-2-0", nodeOf(client, "vc-a", "job-2-0")))
                .isEqualTo(Map.of("job-1-0", "node-0", "job-2-0", "node-1"));

        createTeamGang(client, jobs.get(2), input, spec);

        await().atMost(PATIENCE).until(() -> "node-1".equals(nodeOf(client, "vc-b", "job-3-0")));
        Pod evicted = client.pods().inNamespace("vc-a").withName("job-2-0").get();
        assertThat(evicted == null || PodPreemption.isPreempted(evicted)).as("job 2's pod was preempted").isTrue();
        Pod kept = client.pods().inNamespace("vc-a").withName("job-1-0").get();
        assertThat(kept.getMetadata().getDeletionTimestamp()).isNull();
        assertThat(kept.getSpec().getNodeName()).isEqualTo("node-0");
    }

    private static void createQueue(KubernetesClient client, String name, int weight) {
        Queue queue = new Queue();
        queue.getMetadata().setName(name);
        queue.getSpec().setWeight(weight);
        QueuePreemptionSpec preemption = new QueuePreemptionSpec();
        preemption.setReclaimDelay("0s");
        queue.getSpec().setPreemption(preemption);
        client.resources(Queue.class).resource(queue).create();
    }

    /** The job's namespace, PodGroup (in its team's Queue) and pods, from the simulator's records of them. */
    private static void createTeamGang(KubernetesClient client, TraceJob job, SimInput input, PolicySpec spec) {
        List<PodInfo> pods = pods(job, input);
        String namespace = pods.get(0).namespace();
        if (client.namespaces().withName(namespace).get() == null) {
            client.namespaces().resource(new NamespaceBuilder().withNewMetadata().withName(namespace).endMetadata()
                    .build()).create();
        }
        PodGroup podGroup = new PodGroup();
        podGroup.setMetadata(new ObjectMetaBuilder().withName(CoreRecords.gangKey(job).name()).withNamespace(namespace)
                .build());
        podGroup.getSpec().setMinMember(pods.size());
        podGroup.getSpec().setQueue(CoreRecords.queueOf(job, input.teams(spec)));
        client.resources(PodGroup.class).inNamespace(namespace).resource(podGroup).create();
        pods.forEach(pod -> createPod(client, pod));
    }

    private static String nodeOf(KubernetesClient client, String namespace, String pod) {
        Pod found = client.pods().inNamespace(namespace).withName(pod).get();
        return found == null || found.getMetadata().getDeletionTimestamp() != null ? null : found.getSpec().getNodeName();
    }

    private static List<PodInfo> pods(TraceJob job, SimInput input) {
        return CoreRecords.pods(job, CoreRecords.podGpus(job.gpus(), input.gpusPerPod()), false, Map.of());
    }

    /** The job's PodGroup and pods, made from the simulator's records of them. */
    private static void createGang(KubernetesClient client, TraceJob job, List<PodInfo> pods) {
        PodGroup podGroup = new PodGroup();
        podGroup.setMetadata(new ObjectMetaBuilder().withName(CoreRecords.gangKey(job).name())
                .withNamespace(CoreRecords.DEFAULT_NAMESPACE).build());
        podGroup.getSpec().setMinMember(pods.size());
        client.resources(PodGroup.class).inNamespace(CoreRecords.DEFAULT_NAMESPACE).resource(podGroup).create();
        pods.forEach(pod -> createPod(client, pod));
    }

    private static void createPod(KubernetesClient client, PodInfo pod) {
        Map<String, Quantity> requests = Map.of(
                "cpu", new Quantity(pod.requests().get("cpu") + "m"),
                "memory", new Quantity(String.valueOf(pod.requests().get("memory"))),
                CoreRecords.GPU, new Quantity(String.valueOf(CoreRecords.gpus(pod))));
        client.pods().inNamespace(pod.namespace()).resource(new PodBuilder()
                .withNewMetadata().withName(pod.name()).withNamespace(pod.namespace())
                .withLabels(Map.of(MusterLabels.POD_GROUP, pod.group().name())).endMetadata()
                .withNewSpec().withSchedulerName(MusterLabels.SCHEDULER_NAME)
                .addNewContainer().withName("main").withImage("trainer")
                .withNewResources().withRequests(requests).withLimits(Map.of(CoreRecords.GPU, requests.get(CoreRecords.GPU)))
                .endResources().endContainer().endSpec().build()).create();
    }

    private static Map<String, String> bound(KubernetesClient client) {
        Map<String, String> nodes = new TreeMap<>();
        for (Pod pod : client.pods().inNamespace(CoreRecords.DEFAULT_NAMESPACE).list().getItems()) {
            if (pod.getSpec().getNodeName() != null) {
                nodes.put(pod.getMetadata().getName(), pod.getSpec().getNodeName());
            }
        }
        return nodes;
    }

    private static TraceJob job(long id, int gpus) {
        return new TraceJob(id, T0, 36_000, gpus, "");
    }
}
