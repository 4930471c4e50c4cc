package dev.muster.podgroup;

import dev.muster.api.MusterLabels;
import dev.muster.api.scheduling.v1alpha1.PodGroup;
import dev.muster.api.scheduling.v1alpha1.PodGroupCondition;
import dev.muster.api.scheduling.v1alpha1.PodGroupFixtures;
import dev.muster.api.scheduling.v1alpha1.PodGroupPhase;
import dev.muster.api.scheduling.v1alpha1.PodGroupStatus;
import dev.muster.local.LocalCluster;
import dev.muster.local.LocalClusterConfig;
import dev.muster.scheduler.GangScheduler;
import dev.muster.scheduler.GangSchedulerConfig;
import dev.muster.gang.GangVerdictBoard;
import dev.muster.support.Decided;
import dev.muster.support.Stillness;
import dev.muster.support.informer.SharedInformers;
import dev.muster.support.status.StatusWriter;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.PodCondition;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.Watch;
import io.fabric8.kubernetes.client.Watcher;
import io.fabric8.kubernetes.client.WatcherException;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import static dev.muster.podgroup.Patience.PATIENCE;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The controller with the real gang scheduler on the local cluster, through the real HTTP client: the
 * Coscheduling plugin's demo with bare pods
 * (<a href="https://github.com/kubernetes-sigs/scheduler-plugins/blob/master/pkg/coscheduling/README.md">its README</a>),
 * a node lost under a running gang, pods that wait for their PodGroup, and how many status writes a large
 * gang costs. Three nodes of 4 CPUs fit three of the demo's 3-CPU pods.
 */
@Tag("emulator")
class GangSchedulingLocalClusterTest {
    private static final Logger log = LoggerFactory.getLogger(GangSchedulingLocalClusterTest.class);
    private static final Duration POLL = Duration.ofMillis(50);

    private static LocalCluster cluster;
    private static KubernetesClient client;
    private static SharedInformers informers;
    private static StatusWriter statusWriter;
    private static PodGroupController controller;
    private static GangScheduler scheduler;
    private static GangVerdictBoard verdicts;
    private final List<String> namespaces = new ArrayList<>();

    @BeforeAll
    static void startClusterSchedulerAndController() {
        cluster = LocalCluster.start(LocalClusterConfig.defaults().withNodes(3).withNodeCpu("4").withNodeMemory("8Gi")
                .withPodStartDelay(Duration.ofMillis(100)));
        client = cluster.client();
        informers = new SharedInformers(client);
        verdicts = new GangVerdictBoard();
        statusWriter = new StatusWriter(client);
        controller = new PodGroupController(client, informers, verdicts, statusWriter);
        scheduler = new GangScheduler(client, informers, verdicts,
                GangSchedulerConfig.defaults().withCyclePeriod(Duration.ofMillis(200)));
        informers.start();
        scheduler.start();
        controller.start();
    }

    @AfterAll
    static void stop() {
        controller.close();
        scheduler.close();
        informers.close();
        cluster.close();
    }

    /** Frees the nodes for the next test, and lets the emptied groups settle so that they write no more. */
    @AfterEach
    void deleteThePods() {
        for (String ns : namespaces) {
            client.pods().inNamespace(ns).delete();
        }
        await().atMost(PATIENCE).pollInterval(POLL).until(() -> namespaces.stream().allMatch(ns ->
                client.pods().inNamespace(ns).list().getItems().isEmpty()
                        && client.resources(PodGroup.class).inNamespace(ns).list().getItems().stream()
                        .allMatch(g -> g.getStatus() == null || g.getStatus().getPhase() == PodGroupPhase.Pending)));
    }

    @Test
    void coschedulingDemoWithMinMember3RunsThreeOfSixPodsAndLeavesThreePendingForTheAutoscaler() {
        String ns = namespace("demo-min3");
        createGroup(ns, "nginx", 3);
        for (int i = 0; i < 6; i++) {
            createNginxPod(ns, "nginx-" + i);
        }

        await().atMost(PATIENCE).pollInterval(POLL).untilAsserted(() -> {
            List<Pod> pods = client.pods().inNamespace(ns).list().getItems();
            assertThat(pods).filteredOn(p -> "Running".equals(p.getStatus().getPhase())).hasSize(3);
            assertThat(pods).filteredOn(p -> "Pending".equals(p.getStatus().getPhase())).hasSize(3)
                    .allSatisfy(GangSchedulingLocalClusterTest::assertUnschedulable);
            PodGroupStatus status = status(ns, "nginx");
            assertThat(status.getPhase()).isEqualTo(PodGroupPhase.Running);
            assertThat(status.getRunning()).isEqualTo(3);
            assertThat(condition(status, PodGroupCondition.SCHEDULED))
                    .hasValueSatisfying(c -> assertThat(c.getStatus()).isEqualTo("True"));
        });
    }

    @Test
    void aRunningGangWhoseNodeIsDeletedIsUnknownWithPodFailedEvenWithPodsWaitingBeyondItsQuorum() {
        String ns = namespace("node-loss");
        createGroup(ns, "nginx", 3);
        for (int i = 0; i < 4; i++) {
            createNginxPod(ns, "nginx-" + i);
        }
        await().atMost(PATIENCE).pollInterval(POLL).until(() -> status(ns, "nginx").getPhase() == PodGroupPhase.Running);
        String nodeName = client.pods().inNamespace(ns).list().getItems().stream().filter(GangSchedulingLocalClusterTest::bound)
                .findFirst().orElseThrow().getSpec().getNodeName();
        Node node = client.nodes().withName(nodeName).get();

        client.nodes().withName(nodeName).delete();
        try {
            await().atMost(PATIENCE).pollInterval(POLL).untilAsserted(() -> {
                PodGroupStatus status = status(ns, "nginx");
                assertThat(status.getPhase()).isEqualTo(PodGroupPhase.Unknown);
                assertThat(status.getRunning()).isEqualTo(2);
                assertThat(condition(status, PodGroupCondition.SCHEDULED)).hasValueSatisfying(c -> {
                    assertThat(c.getStatus()).isEqualTo("False");
                    assertThat(c.getReason()).isEqualTo(PodGroupCondition.REASON_POD_FAILED);
                });
            });
        } finally {
            // The other tests count on three nodes.
            node.getMetadata().setResourceVersion(null);
            node.getMetadata().setUid(null);
            node.getMetadata().setCreationTimestamp(null);
            cluster.addSimulatedNode(node);
        }
    }

    @Test
    void coschedulingDemoWithMinMember4LeavesAllSixPodsPendingAndTheGroupSaysWhy() {
        String ns = namespace("demo-min4");
        createGroup(ns, "nginx", 4);
        for (int i = 0; i < 6; i++) {
            createNginxPod(ns, "nginx-" + i);
        }

        await().atMost(PATIENCE).pollInterval(POLL).untilAsserted(() -> {
            PodGroupStatus status = status(ns, "nginx");
            assertThat(status.getPhase()).isEqualTo(PodGroupPhase.Pending);
            assertThat(condition(status, PodGroupCondition.UNSCHEDULABLE)).hasValueSatisfying(c -> {
                assertThat(c.getStatus()).isEqualTo("True");
                assertThat(c.getReason()).isEqualTo(PodGroupCondition.REASON_NOT_ENOUGH_RESOURCES);
                assertThat(c.getMessage()).contains("Insufficient cpu");
            });
            assertThat(client.pods().inNamespace(ns).list().getItems()).hasSize(6)
                    .allSatisfy(GangSchedulingLocalClusterTest::assertUnschedulable);
        });
        Stillness.holds(PATIENCE, "the scheduler decided on the group again", Decided.again(verdicts, ns, "nginx"),
                Duration.ofSeconds(1), () -> assertThat(client.pods().inNamespace(ns).list().getItems())
                        .noneMatch(GangSchedulingLocalClusterTest::bound));
        assertThat(status(ns, "nginx").getPhase()).isEqualTo(PodGroupPhase.Pending);
    }

    @Test
    void aGroupWithFewerPodsThanMinMemberIsUnschedulableWithNotEnoughTasksUntilTheRestArrive() {
        String ns = namespace("not-enough-tasks");
        createGroup(ns, "gang", 3);
        createPod(ns, "gang", "gang-0", Map.of(), Optional.empty());
        createPod(ns, "gang", "gang-1", Map.of(), Optional.empty());

        await().atMost(PATIENCE).pollInterval(POLL).untilAsserted(() -> {
            PodGroupStatus status = status(ns, "gang");
            assertThat(status.getPhase()).isEqualTo(PodGroupPhase.Pending);
            assertThat(condition(status, PodGroupCondition.UNSCHEDULABLE)).hasValueSatisfying(c -> {
                assertThat(c.getStatus()).isEqualTo("True");
                assertThat(c.getReason()).isEqualTo(PodGroupCondition.REASON_NOT_ENOUGH_TASKS);
                assertThat(c.getMessage()).isNotBlank();
            });
        });

        createPod(ns, "gang", "gang-2", Map.of(), Optional.empty());

        await().atMost(PATIENCE).pollInterval(POLL).untilAsserted(() -> {
            PodGroupStatus status = status(ns, "gang");
            assertThat(status.getPhase()).isEqualTo(PodGroupPhase.Running);
            assertThat(condition(status, PodGroupCondition.UNSCHEDULABLE))
                    .hasValueSatisfying(c -> assertThat(c.getStatus()).isEqualTo("False"));
        });
    }

    @Test
    void podsWaitingForTheirPodGroupAreScheduledOnceItAppears() {
        String ns = namespace("late-group");
        for (int i = 0; i < 2; i++) {
            createPod(ns, "late", "late-" + i, Map.of(), Optional.empty());
        }
        // The control: the scheduler has told both pods their group is missing, so it had them in a cycle.
        Stillness.holds(PATIENCE, "both pods told their group is missing", () -> client.pods().inNamespace(ns).list()
                        .getItems().stream().filter(pod -> pod.getStatus().getConditions().stream().anyMatch(c ->
                                "PodScheduled".equals(c.getType()) && c.getMessage().contains("not found"))).count() == 2,
                Duration.ofSeconds(1), () -> assertThat(client.pods().inNamespace(ns).list().getItems())
                        .noneMatch(GangSchedulingLocalClusterTest::bound));

        createGroup(ns, "late", 2);

        await().atMost(PATIENCE).pollInterval(POLL).untilAsserted(() -> {
            PodGroupStatus status = status(ns, "late");
            assertThat(status.getPhase()).isEqualTo(PodGroupPhase.Running);
            assertThat(status.getRunning()).isEqualTo(2);
        });
    }

    @Test
    void aGangOf200PodsCostsAFewStatusWritesPerPhaseNotOnePerPod() {
        String ns = namespace("economy");
        int size = 200;
        List<PodGroupStatus> written = Collections.synchronizedList(new ArrayList<>());
        createGroup(ns, "big", size);
        long writesBefore = statusWriter.writes();
        try (Watch ignored = client.resources(PodGroup.class).inNamespace(ns).withName("big").watch(new StatusLog(written))) {
            for (int i = 0; i < size; i++) {
                createPod(ns, "big", "big-" + i, Map.of(), Optional.of(2));
            }
            await().atMost(PATIENCE).pollInterval(Duration.ofMillis(100)).untilAsserted(() -> {
                PodGroupStatus status = status(ns, "big");
                assertThat(status.getPhase()).isEqualTo(PodGroupPhase.Completed);
                assertThat(status.getSucceeded()).isEqualTo(size);
            });
        }
        long writes = statusWriter.writes() - writesBefore;
        List<String> seen = written.stream().map(s -> s.getPhase() + "(running=" + s.getRunning()
                + ",succeeded=" + s.getSucceeded() + ")").toList();
        long phases = written.stream().map(PodGroupStatus::getPhase).distinct().count();
        log.info("{} status writes for a gang of {} pods over Pending→Inqueue→Running→Completed: {}", writes, size, seen);

        assertThat(written).extracting(PodGroupStatus::getPhase)
                .contains(PodGroupPhase.Inqueue, PodGroupPhase.Running, PodGroupPhase.Completed);
        assertThat(writes).as("status writes: %s", seen).isLessThanOrEqualTo(4 * phases + 4);
    }

    private String namespace(String ns) {
        namespaces.add(ns);
        return ns;
    }

    private static boolean bound(Pod pod) {
        return pod.getSpec().getNodeName() != null;
    }

    private static void assertUnschedulable(Pod pod) {
        assertThat(bound(pod)).isFalse();
        assertThat(pod.getStatus().getConditions()).filteredOn(c -> "PodScheduled".equals(c.getType()))
                .singleElement().satisfies((PodCondition c) -> {
                    assertThat(c.getStatus()).isEqualTo("False");
                    assertThat(c.getReason()).isEqualTo("Unschedulable");
                    assertThat(c.getMessage()).isNotBlank();
                });
    }

    private static void createGroup(String ns, String name, int minMember) {
        var group = PodGroupFixtures.podGroup(ns, name, minMember);
        group.getSpec().setScheduleTimeoutSeconds(10);
        client.resource(group).create();
    }

    /** The Coscheduling demo's nginx pod: 3 CPUs and 500Mi, running until deleted. */
    private static void createNginxPod(String ns, String name) {
        createPod(ns, "nginx", name, Map.of("cpu", new Quantity("3000m"), "memory", new Quantity("500Mi")), Optional.empty());
    }

    private static void createPod(String ns, String group, String name, Map<String, Quantity> requests,
                                  Optional<Integer> runSeconds) {
        var pod = new PodBuilder()
                .withNewMetadata().withNamespace(ns).withName(name)
                .withLabels(Map.of(MusterLabels.POD_GROUP, group, "app", group))
                .endMetadata()
                .withNewSpec().withSchedulerName(MusterLabels.SCHEDULER_NAME)
                .withRestartPolicy(runSeconds.isPresent() ? "Never" : "Always")
                .addNewContainer().withName("main").withImage("nginx")
                .withNewResources().withRequests(requests).withLimits(requests).endResources()
                .endContainer()
                .endSpec();
        runSeconds.ifPresent(s -> pod.editMetadata().addToAnnotations(MusterLabels.LOCAL_RUN_SECONDS, s.toString()).endMetadata());
        client.resource(pod.build()).create();
    }

    private static PodGroupStatus status(String ns, String name) {
        PodGroupStatus status = client.resources(PodGroup.class).inNamespace(ns).withName(name).get().getStatus();
        return status == null ? new PodGroupStatus() : status;
    }

    private static Optional<PodGroupCondition> condition(PodGroupStatus status, String type) {
        return status.getConditions().stream().filter(c -> type.equals(c.getType())).findFirst();
    }

    /** Collects every status the group is modified to, to show in the write-economy test what was written. */
    private record StatusLog(List<PodGroupStatus> written) implements Watcher<PodGroup> {
        @Override
        public void eventReceived(Action action, PodGroup group) {
            if (action == Action.MODIFIED && group.getStatus() != null) {
                written.add(group.getStatus());
            }
        }

        @Override
        public void onClose(WatcherException cause) {
            // The test closes the watch when it has counted.
        }
    }
}
