package dev.muster.scheduler;

import dev.muster.api.MusterLabels;
import dev.muster.api.scheduling.v1alpha1.PodGroup;
import dev.muster.api.scheduling.v1alpha1.PodGroupFixtures;
import dev.muster.local.LocalCluster;
import dev.muster.local.LocalClusterConfig;
import dev.muster.gang.GangVerdict;
import dev.muster.gang.GangVerdictBoard;
import dev.muster.support.Decided;
import dev.muster.support.Stillness;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.client.KubernetesClient;
import org.awaitility.core.ThrowingRunnable;
import org.junit.jupiter.api.AfterEach;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.UnaryOperator;
import java.util.stream.IntStream;

import static dev.muster.scheduler.Patience.PATIENCE;
import static org.awaitility.Awaitility.await;

/**
 * What the scheduler's scenario tests share: a local cluster the test starts, a scheduler started after
 * the scenario's objects exist (so its first cycle sees them all), the verdict board, and lookups.
 */
abstract class SchedulerScenario {
    static final String NS = "default";
    /** Several cycles at the scenarios' period: long enough for a wrong binding to show. */
    static final Duration STAYS = Duration.ofMillis(800);

    LocalCluster cluster;
    KubernetesClient client;
    final GangVerdictBoard board = new GangVerdictBoard();
    GangScheduler scheduler;

    void startCluster(int nodes, String cpu) {
        cluster = LocalCluster.start(LocalClusterConfig.defaults().withNodes(nodes).withNodeCpu(cpu)
                .withNodeMemory("8Gi").withDefaultRunTime(Duration.ofMinutes(10)));
        client = cluster.client();
    }

    void startScheduler() {
        startScheduler(UnaryOperator.identity());
    }

    void startScheduler(UnaryOperator<GangSchedulerConfig> configure) {
        scheduler = new GangScheduler(client, board,
                configure.apply(GangSchedulerConfig.defaults().withCyclePeriod(Duration.ofMillis(200))));
        scheduler.start();
        await().atMost(PATIENCE).until(scheduler::isSynced);
    }

    @AfterEach
    void stopSchedulerAndCluster() {
        if (scheduler != null) {
            scheduler.stop();
        }
        if (cluster != null) {
            cluster.close();
        }
    }

    /**
     * Asserts {@code stillSo} until the scheduler has decided on the waiting group in two cycles begun after this
     * call (so it could have acted on the group as it now is), and then for {@link #STAYS}.
     */
    void staysSo(String podGroup, ThrowingRunnable stillSo) {
        Stillness.holds(PATIENCE, "the scheduler decided on " + podGroup + " again",
                Decided.again(board, NS, podGroup), STAYS, stillSo);
    }

    Optional<GangVerdict> verdict(String podGroup) {
        return board.latest(NS, podGroup);
    }

    List<Pod> bound(String podGroup) {
        return client.pods().inNamespace(NS).withLabel(MusterLabels.POD_GROUP, podGroup).list().getItems().stream()
                .filter(pod -> pod.getSpec().getNodeName() != null).toList();
    }

    /** A PodGroup and its pods, {@code <name>-worker-<i>}, each requesting the cpu and 1Gi, customised. */
    void createGang(String name, int minMember, String priorityClass, int pods, String cpu,
                    UnaryOperator<Pod> customize) {
        PodGroup podGroup = PodGroupFixtures.podGroup(NS, name, minMember);
        podGroup.getSpec().setPriorityClassName(priorityClass);
        client.resources(PodGroup.class).inNamespace(NS).resource(podGroup).create();
        IntStream.range(0, pods).forEach(i -> client.pods().inNamespace(NS)
                .resource(pod(name + "-worker-" + i, name, cpu, customize)).create());
    }

    static Pod pod(String name, String podGroup, String cpu, UnaryOperator<Pod> customize) {
        return customize.apply(new PodBuilder()
                .withNewMetadata().withName(name).withNamespace(NS)
                .withLabels(Map.of(MusterLabels.POD_GROUP, podGroup, MusterLabels.TASK_NAME, "worker")).endMetadata()
                .withNewSpec().withSchedulerName(MusterLabels.SCHEDULER_NAME)
                .addNewContainer().withName("main").withImage("busybox")
                .withNewResources().addToRequests("cpu", new Quantity(cpu)).addToRequests("memory", new Quantity("1Gi"))
                .endResources().endContainer().endSpec().build());
    }
}
