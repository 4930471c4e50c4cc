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
import io.fabric8.kubernetes.api.model.NodeBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.PodCondition;
import io.fabric8.kubernetes.api.model.PodSchedulingGate;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.client.KubernetesClient;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Collectors;
import java.util.stream.IntStream;

import static dev.muster.scheduler.Patience.PATIENCE;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The scheduler against the local cluster's API emulator over HTTP: three nodes of 4 cpu, so three pods
 * of 3 cpu fit and a fourth does not.
 */
@Tag("emulator")
class GangSchedulerLocalClusterTest {
    private static final String NS = "default";
    /** Several cycles at the test's period: long enough for a wrong binding to show. */
    private static final Duration STAYS = Duration.ofMillis(1000);

    private LocalCluster cluster;
    private KubernetesClient client;
    private GangVerdictBoard board;
    private GangScheduler scheduler;

    @BeforeEach
    void startClusterAndScheduler() {
        cluster = LocalCluster.start(LocalClusterConfig.defaults().withNodes(3).withNodeCpu("4").withNodeMemory("8Gi")
                .withDefaultRunTime(Duration.ofMinutes(10)));
        client = cluster.client();
        board = new GangVerdictBoard();
        scheduler = new GangScheduler(client, board,
                GangSchedulerConfig.defaults().withCyclePeriod(Duration.ofMillis(200)));
        scheduler.start();
        await().atMost(PATIENCE).until(scheduler::isSynced);
    }

    @AfterEach
    void stop() {
        scheduler.stop();
        cluster.close();
    }

    @Test
    void bindsNoPodOfAGangWhoseQuorumDoesNotFit() {
        createPodGroup("train", 4);
        IntStream.range(0, 4).forEach(i -> createPod("train-worker-" + i, "train", "worker", "3"));

        // Until all four pods exist, a cycle may find the gang short of pods (NotEnoughTasks) instead.
        await().atMost(PATIENCE).until(() -> verdict("train")
                .filter(v -> "NotEnoughResources".equals(v.reason())).isPresent());
        GangVerdict verdict = verdict("train").orElseThrow();
        assertThat(verdict.reason()).isEqualTo("NotEnoughResources");
        assertThat(verdict.message()).startsWith("0/3 nodes are available: 3 Insufficient cpu.");

        await().atMost(PATIENCE).untilAsserted(() -> assertThat(pods("train")).allSatisfy(pod -> {
            PodCondition scheduled = podScheduled(pod).orElseThrow();
            assertThat(scheduled.getStatus()).isEqualTo("False");
            assertThat(scheduled.getReason()).isEqualTo("Unschedulable");
            assertThat(scheduled.getMessage()).startsWith("0/3 nodes are available: 3 Insufficient cpu.");
        }));
        // Unbound through several cycles, and not rewritten either: the condition is written once.
        Map<String, String> versions = resourceVersions(pods("train"));
        Stillness.holds(PATIENCE, "the scheduler decided on train again", Decided.again(board, NS, "train"), STAYS, () -> {
            List<Pod> pods = pods("train");
            assertThat(pods).allSatisfy(pod -> assertThat(nodeName(pod)).isNull());
            assertThat(resourceVersions(pods)).isEqualTo(versions);
        });
        // One event per reason, however many cycles saw it (a cycle may have seen the gang still short of pods).
        assertThat(client.v1().events().inNamespace(NS).list().getItems())
                .filteredOn(e -> "train".equals(e.getInvolvedObject().getName()))
                .allSatisfy(event -> {
                    assertThat(event.getReason()).isEqualTo("FailedScheduling");
                    assertThat(event.getType()).isEqualTo("Warning");
                    assertThat(event.getInvolvedObject().getKind()).isEqualTo("PodGroup");
                })
                .filteredOn(e -> e.getMessage().startsWith("0/3 nodes are available: 3 Insufficient cpu."))
                .hasSize(1);
    }

    @Test
    void bindsExactlyTheQuorumWhenOnlyThatFitsAndThePodsRun() {
        createPodGroup("train", 3);
        IntStream.range(0, 4).forEach(i -> createPod("train-worker-" + i, "train", "worker", "3"));

        await().atMost(PATIENCE).untilAsserted(() -> assertThat(bound(pods("train"))).hasSize(3));
        assertThat(verdict("train")).hasValueSatisfying(v -> assertThat(v.outcome()).isEqualTo(GangVerdict.Outcome.SCHEDULED));
        assertThat(bound(pods("train")).stream().map(GangSchedulerLocalClusterTest::nodeName).distinct()).hasSize(3);

        await().atMost(PATIENCE).untilAsserted(() -> {
            List<Pod> pods = pods("train");
            assertThat(pods).filteredOn(pod -> "Running".equals(pod.getStatus().getPhase())).hasSize(3);
            Pod pending = pods.stream().filter(pod -> nodeName(pod) == null).findFirst().orElseThrow();
            assertThat(podScheduled(pending)).hasValueSatisfying(c -> assertThat(c.getMessage())
                    .isEqualTo("0/3 nodes are available: 3 Insufficient cpu."));
        });
        Stillness.holds(PATIENCE, "the scheduler decided on train again", Decided.again(board, NS, "train"), STAYS,
                () -> assertThat(bound(pods("train"))).hasSize(3));
    }

    @Test
    void podsBoundByAnotherSchedulerUseCapacityUntilTheyGo() {
        Pod foreign = client.pods().inNamespace(NS).resource(pod("foreign", null, null, "3", "default-scheduler")
                .edit().editSpec().withNodeName("node-1").endSpec().build()).create();
        createPodGroup("train", 3);
        IntStream.range(0, 3).forEach(i -> createPod("train-worker-" + i, "train", "worker", "3"));

        await().atMost(PATIENCE).until(() -> verdict("train")
                .filter(v -> "NotEnoughResources".equals(v.reason())).isPresent());
        assertThat(bound(pods("train"))).isEmpty();

        client.pods().inNamespace(NS).resource(foreign).delete();

        await().atMost(PATIENCE).untilAsserted(() -> assertThat(bound(pods("train"))).hasSize(3));
        assertThat(verdict("train")).hasValueSatisfying(v -> assertThat(v.outcome()).isEqualTo(GangVerdict.Outcome.SCHEDULED));
    }

    @Test
    void waitsForAMissingPodGroupAndTreatsAnUnlabelledPodAsAGangOfOne() {
        createPod("solo", null, null, "1");
        IntStream.range(0, 2).forEach(i -> createPod("late-worker-" + i, "late", "worker", "1"));

        await().atMost(PATIENCE).untilAsserted(() -> assertThat(nodeName(get("solo"))).isNotNull());
        // The control: the scheduler has told both pods their group is missing, so it had them in a cycle.
        Stillness.holds(PATIENCE, "the late pods told their group is missing", () -> pods("late").stream()
                        .allMatch(pod -> podScheduled(pod).filter(c -> c.getMessage().contains("not found")).isPresent()),
                STAYS, () -> assertThat(bound(pods("late"))).isEmpty());

        createPodGroup("late", 2);

        await().atMost(PATIENCE).untilAsserted(() -> assertThat(bound(pods("late"))).hasSize(2));
    }

    @Test
    void aPodOfAMissingPodGroupSaysSoOnceAndIsScheduledWhenTheGroupAppears() {
        IntStream.range(0, 2).forEach(i -> createPod("nginx-" + i, "nginx", "web", "1"));

        await().atMost(PATIENCE).untilAsserted(() -> assertThat(pods("nginx")).hasSize(2).allSatisfy(pod -> {
            PodCondition scheduled = podScheduled(pod).orElseThrow();
            assertThat(scheduled.getStatus()).isEqualTo("False");
            assertThat(scheduled.getReason()).isEqualTo("Unschedulable");
            assertThat(scheduled.getMessage()).isEqualTo("pod group \"default/nginx\" not found");
        }));
        // Events are written off the scheduler's thread, after the conditions.
        await().atMost(PATIENCE).untilAsserted(() -> assertThat(client.v1().events().inNamespace(NS).list().getItems())
                .filteredOn(e -> e.getInvolvedObject().getName().startsWith("nginx-")).hasSize(2));
        // Unbound and not rewritten through several cycles, each pod with one event however many cycles ran.
        Map<String, String> versions = resourceVersions(pods("nginx"));
        // The control: a pod created now is bound, so cycles ran after the conditions were written.
        createPod("solo", null, null, "1");
        Stillness.holds(PATIENCE, "a pod created afterwards bound", () -> nodeName(get("solo")) != null, STAYS, () -> {
            assertThat(resourceVersions(pods("nginx"))).isEqualTo(versions);
            assertThat(bound(pods("nginx"))).isEmpty();
            assertThat(client.v1().events().inNamespace(NS).list().getItems())
                    .filteredOn(e -> e.getInvolvedObject().getName().startsWith("nginx-"))
                    .hasSize(2)
                    .allSatisfy(event -> {
                        assertThat(event.getType()).isEqualTo("Warning");
                        assertThat(event.getReason()).isEqualTo("PodGroupNotFound");
                        assertThat(event.getInvolvedObject().getKind()).isEqualTo("Pod");
                        assertThat(event.getMessage()).isEqualTo("pod group \"default/nginx\" not found");
                    })
                    .extracting(e -> e.getInvolvedObject().getName()).containsExactlyInAnyOrder("nginx-0", "nginx-1");
        });

        createPodGroup("nginx", 2);

        await().atMost(PATIENCE).untilAsserted(() -> assertThat(bound(pods("nginx"))).hasSize(2));
    }

    @Test
    void podsOnADeletedNodeNoLongerCountTowardTheQuorum() {
        createPodGroup("train", 3);
        IntStream.range(0, 4).forEach(i -> createPod("train-worker-" + i, "train", "worker", "3"));
        await().atMost(PATIENCE).untilAsserted(() -> assertThat(bound(pods("train"))).hasSize(3));
        await().atMost(PATIENCE).until(() -> verdict("train")
                .filter(v -> v.outcome() == GangVerdict.Outcome.SCHEDULED).isPresent());

        // The local cluster, like a cluster without a node lifecycle controller, leaves the pod bound there.
        client.nodes().withName(nodeName(bound(pods("train")).get(0))).delete();

        // Two members left on live nodes and no room for the fourth pod: the quorum of three is lost.
        await().atMost(PATIENCE).untilAsserted(() -> assertThat(verdict("train")).hasValueSatisfying(v -> {
            assertThat(v.outcome()).isEqualTo(GangVerdict.Outcome.UNSCHEDULABLE);
            assertThat(v.reason()).isEqualTo("NotEnoughResources");
        }));

        cluster.addSimulatedNode(new NodeBuilder().withNewMetadata().withName("node-3").endMetadata().build());

        await().atMost(PATIENCE).untilAsserted(() -> assertThat(get("train-worker-3")).satisfies(pod ->
                assertThat(nodeName(pod)).isEqualTo("node-3")));
        await().atMost(PATIENCE).until(() -> verdict("train")
                .filter(v -> v.outcome() == GangVerdict.Outcome.SCHEDULED).isPresent());
    }

    /**
     * Pods of other workloads join a PodGroup by the Coscheduling plugin's label or by the annotation Spark,
     * Flink and KubeRay set for Volcano; a pod with scheduling gates is never bound while gated, as with
     * kube-scheduler, so its gang waits for it. Removing the gate is the control: the same gang then binds.
     */
    @Test
    void podsJoinByTheCoschedulingLabelOrTheGroupAnnotationAndAGatedMemberHoldsTheGangUntilUngated() {
        createPodGroup("spark", 3);
        Pod driver = pod("spark-driver", null, null, "1", MusterLabels.SCHEDULER_NAME);
        driver.getMetadata().setAnnotations(Map.of("scheduling.k8s.io/group-name", "spark"));
        Pod executor = pod("spark-exec-0", null, null, "1", MusterLabels.SCHEDULER_NAME);
        executor.getMetadata().setLabels(Map.of("scheduling.x-k8s.io/pod-group", "spark"));
        Pod gated = pod("spark-exec-1", null, null, "1", MusterLabels.SCHEDULER_NAME);
        gated.getMetadata().setLabels(Map.of("scheduling.x-k8s.io/pod-group", "spark"));
        gated.getSpec().setSchedulingGates(List.of(new PodSchedulingGate("example.com/wait")));
        List.of(driver, executor, gated).forEach(pod -> client.pods().inNamespace(NS).resource(pod).create());

        Stillness.holds(PATIENCE, "the scheduler decided on spark again", Decided.again(board, NS, "spark"), STAYS, () ->
                assertThat(List.of(get("spark-driver"), get("spark-exec-0"), get("spark-exec-1")))
                        .allSatisfy(pod -> assertThat(nodeName(pod)).isNull()));

        client.pods().inNamespace(NS).withName("spark-exec-1").edit(pod -> {
            pod.getSpec().setSchedulingGates(List.of());
            return pod;
        });
        await().atMost(PATIENCE).untilAsserted(() ->
                assertThat(List.of(get("spark-driver"), get("spark-exec-0"), get("spark-exec-1")))
                        .allSatisfy(pod -> assertThat(nodeName(pod)).isNotNull()));
        assertThat(verdict("spark")).hasValueSatisfying(v -> assertThat(v.outcome()).isEqualTo(GangVerdict.Outcome.SCHEDULED));
    }

    /**
     * Volcano's enqueue check, which Spark-on-Volcano relies on: the group names what driver and executors
     * need together, and the driver (the only pod so far) waits until that much is free, rather than start
     * and wait for executors that cannot run.
     */
    @Test
    void aDriverWaitsUntilItsGroupsMinResourcesAreFreeAndSaysWhy() {
        Pod foreign = client.pods().inNamespace(NS).resource(pod("foreign", null, null, "3", "default-scheduler")
                .edit().editSpec().withNodeName("node-1").endSpec().build()).create();
        PodGroup group = PodGroupFixtures.podGroup(NS, "spark", 1);
        group.getSpec().setMinResources(Map.of("cpu", new Quantity("10")));
        client.resources(PodGroup.class).inNamespace(NS).resource(group).create();
        createPod("spark-driver", "spark", "driver", "1");

        String why = "The PodGroup's minResources asks for 10 cpu and the schedulable nodes have 9 free in all; "
                + "none of its pods is placed until they have (Volcano's enqueue check).";
        await().atMost(PATIENCE).untilAsserted(() -> {
            assertThat(verdict("spark")).hasValueSatisfying(v -> {
                assertThat(v.reason()).isEqualTo("NotEnoughResources");
                assertThat(v.message()).isEqualTo(why);
            });
            assertThat(podScheduled(get("spark-driver"))).hasValueSatisfying(c -> assertThat(c.getMessage()).isEqualTo(why));
        });
        assertThat(nodeName(get("spark-driver"))).isNull();

        client.pods().inNamespace(NS).resource(foreign).delete();

        await().atMost(PATIENCE).untilAsserted(() -> assertThat(nodeName(get("spark-driver"))).isNotNull());
    }

    private void createPodGroup(String name, int minMember) {
        client.resources(PodGroup.class).inNamespace(NS).resource(PodGroupFixtures.podGroup(NS, name, minMember)).create();
    }

    private void createPod(String name, String podGroup, String task, String cpu) {
        client.pods().inNamespace(NS).resource(pod(name, podGroup, task, cpu, MusterLabels.SCHEDULER_NAME)).create();
    }

    private static Pod pod(String name, String podGroup, String task, String cpu, String schedulerName) {
        Map<String, String> labels = new HashMap<>();
        if (podGroup != null) {
            labels.put(MusterLabels.POD_GROUP, podGroup);
            labels.put(MusterLabels.TASK_NAME, task);
        }
        return new PodBuilder()
                .withNewMetadata().withName(name).withNamespace(NS).withLabels(labels).endMetadata()
                .withNewSpec().withSchedulerName(schedulerName)
                .addNewContainer().withName("main").withImage("busybox")
                .withNewResources().addToRequests("cpu", new Quantity(cpu)).addToRequests("memory", new Quantity("1Gi"))
                .endResources().endContainer()
                .endSpec().build();
    }

    private Optional<GangVerdict> verdict(String podGroup) {
        return board.latest(NS, podGroup);
    }

    private Pod get(String name) {
        return client.pods().inNamespace(NS).withName(name).get();
    }

    private List<Pod> pods(String podGroup) {
        return client.pods().inNamespace(NS).withLabel(MusterLabels.POD_GROUP, podGroup).list().getItems();
    }

    private static Map<String, String> resourceVersions(List<Pod> pods) {
        return pods.stream().collect(Collectors.toMap(pod -> pod.getMetadata().getName(),
                pod -> pod.getMetadata().getResourceVersion()));
    }

    private static List<Pod> bound(List<Pod> pods) {
        return pods.stream().filter(pod -> nodeName(pod) != null).toList();
    }

    private static String nodeName(Pod pod) {
        return pod.getSpec().getNodeName();
    }

    private static Optional<PodCondition> podScheduled(Pod pod) {
        return pod.getStatus() == null || pod.getStatus().getConditions() == null ? Optional.empty()
                : pod.getStatus().getConditions().stream().filter(c -> "PodScheduled".equals(c.getType())).findFirst();
    }
}
