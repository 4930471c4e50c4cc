package dev.muster.podgroup;

import dev.muster.api.MusterLabels;
import dev.muster.api.scheduling.v1alpha1.PodGroup;
import dev.muster.api.scheduling.v1alpha1.PodGroupCondition;
import dev.muster.api.scheduling.v1alpha1.PodGroupFixtures;
import dev.muster.api.scheduling.v1alpha1.PodGroupPhase;
import dev.muster.api.scheduling.v1alpha1.PodGroupStatus;
import dev.muster.local.LocalCluster;
import dev.muster.local.LocalClusterConfig;
import dev.muster.gang.GangVerdict;
import dev.muster.gang.GangVerdictBoard;
import dev.muster.support.Stillness;
import dev.muster.support.informer.SharedInformers;
import dev.muster.support.status.StatusWriter;
import io.fabric8.kubernetes.api.model.BindingBuilder;
import io.fabric8.kubernetes.api.model.Event;
import io.fabric8.kubernetes.api.model.NodeBuilder;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;

import static dev.muster.podgroup.Patience.PATIENCE;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The controller against the local cluster through the real HTTP client. The test binds pods itself and
 * publishes verdicts to the board itself, standing in for the gang scheduler; see
 * {@link GangSchedulingLocalClusterTest} for the controller with the real one.
 */
@Tag("emulator")
class PodGroupControllerLocalClusterTest {
    private static final Duration GRACE = Duration.ofSeconds(1);

    private static LocalCluster cluster;
    private static KubernetesClient client;
    private static SharedInformers informers;
    private static GangVerdictBoard verdicts;
    private static StatusWriter statusWriter;
    private static PodGroupController controller;

    @BeforeAll
    static void startClusterAndController() {
        cluster = LocalCluster.start(LocalClusterConfig.defaults().withNodes(3).withPodStartDelay(Duration.ofMillis(200)));
        client = cluster.client();
        informers = new SharedInformers(client);
        verdicts = new GangVerdictBoard();
        statusWriter = new StatusWriter(client);
        controller = new PodGroupController(client, informers, verdicts, statusWriter,
                PodGroupControllerConfig.defaults().withReplacementGracePeriod(GRACE));
        informers.start();
        controller.start();
    }

    @AfterAll
    static void stop() {
        controller.close();
        informers.close();
        cluster.close();
    }

    @Test
    void aGangRunsThenCompletesWhenItsPodsSucceed() {
        String ns = "complete";
        createGroup(ns, "gang", 2);
        runPod(ns, "gang", "gang-0", 2, 0);
        runPod(ns, "gang", "gang-1", 2, 0);

        await().atMost(PATIENCE).pollInterval(Duration.ofMillis(50)).untilAsserted(() -> {
            PodGroupStatus status = status(ns, "gang");
            assertThat(status.getPhase()).isEqualTo(PodGroupPhase.Running);
            assertThat(status.getRunning()).isEqualTo(2);
        });
        await().atMost(PATIENCE).untilAsserted(() -> {
            PodGroupStatus status = status(ns, "gang");
            assertThat(status.getPhase()).isEqualTo(PodGroupPhase.Completed);
            assertThat(status.getSucceeded()).isEqualTo(2);
            assertThat(status.getRunning()).isZero();
        });
        await().atMost(PATIENCE).untilAsserted(() -> assertThat(eventReasons(ns)).contains("Running", "Completed"));
    }

    @Test
    void aGangWhosePodsExitNonZeroFails() {
        String ns = "fail";
        createGroup(ns, "gang", 2);
        verdicts.publish(scheduled(ns, "gang"));
        runPod(ns, "gang", "gang-0", 1, 3);
        runPod(ns, "gang", "gang-1", 1, 3);

        await().atMost(PATIENCE).untilAsserted(() -> {
            PodGroupStatus status = status(ns, "gang");
            assertThat(status.getPhase()).isEqualTo(PodGroupPhase.Failed);
            assertThat(status.getFailed()).isEqualTo(2);
            assertThat(condition(status, PodGroupCondition.SCHEDULED))
                    .hasValueSatisfying(c -> assertThat(c.getReason()).isEqualTo(PodGroupCondition.REASON_POD_FAILED));
        });
    }

    @Test
    void anUnschedulableVerdictShowsAsAConditionAndIsWrittenOnce() {
        String ns = "unschedulable";
        createGroup(ns, "gang", 4);
        // The control: a twin whose verdict does change is written, so the controller was handling verdicts.
        createGroup(ns, "twin", 4);
        for (int i = 0; i < 4; i++) {
            createPod(ns, "gang", "gang-" + i, 60, 0);
            createPod(ns, "twin", "twin-" + i, 60, 0);
        }
        String message = "4/4 pods of task worker unschedulable: 4 Insufficient cpu";
        verdicts.publish(unschedulable(ns, "gang", message));
        verdicts.publish(unschedulable(ns, "twin", message));
        await().atMost(PATIENCE).until(() -> condition(status(ns, "twin"), PodGroupCondition.UNSCHEDULABLE).isPresent());

        await().atMost(PATIENCE).untilAsserted(() -> {
            var unschedulable = condition(status(ns, "gang"), PodGroupCondition.UNSCHEDULABLE);
            assertThat(unschedulable).hasValueSatisfying(c -> {
                assertThat(c.getStatus()).isEqualTo("True");
                assertThat(c.getReason()).isEqualTo(PodGroupCondition.REASON_NOT_ENOUGH_RESOURCES);
                assertThat(c.getMessage()).isEqualTo(message);
            });
        });
        long writes = statusWriter.writes();
        String resourceVersion = group(ns, "gang").getMetadata().getResourceVersion();

        verdicts.publish(unschedulable(ns, "gang", message));
        String changed = "4/4 pods of task worker unschedulable: 4 Insufficient memory";
        verdicts.publish(unschedulable(ns, "twin", changed));
        // A pod update makes the controller look at the group again, with the republished verdict.
        for (String pod : List.of("gang-0", "twin-0")) {
            client.pods().inNamespace(ns).withName(pod).edit(p -> new PodBuilder(p).editMetadata()
                    .addToLabels("touched", "true").endMetadata().build());
        }

        // Exactly one status write meanwhile, the twin's.
        Stillness.holds(PATIENCE, "the twin's changed verdict written", () -> condition(status(ns, "twin"),
                        PodGroupCondition.UNSCHEDULABLE).filter(c -> changed.equals(c.getMessage())).isPresent(),
                Duration.ofMillis(700), () -> {
                    assertThat(statusWriter.writes()).isBetween(writes, writes + 1);
                    assertThat(group(ns, "gang").getMetadata().getResourceVersion()).isEqualTo(resourceVersion);
                });
        assertThat(statusWriter.writes()).isEqualTo(writes + 1);
        assertThat(status(ns, "gang").getPhase()).isEqualTo(PodGroupPhase.Pending);
    }

    @Test
    void aRunningGangThatLosesAPodItCannotRescheduleIsUnknownThenPendingOnceItsPodsAreDeleted() {
        String ns = "unknown";
        createGroup(ns, "gang", 2);
        verdicts.publish(scheduled(ns, "gang"));
        runPod(ns, "gang", "gang-0", 60, 0);
        runPod(ns, "gang", "gang-1", 60, 0);
        await().atMost(PATIENCE).until(() -> status(ns, "gang").getPhase() == PodGroupPhase.Running);

        client.pods().inNamespace(ns).withName("gang-1").delete();
        createPod(ns, "gang", "gang-1-restarted", 60, 0);
        verdicts.publish(unschedulable(ns, "gang", "1/2 pods unschedulable: 1 Insufficient cpu"));

        await().atMost(PATIENCE).untilAsserted(() -> {
            PodGroupStatus status = status(ns, "gang");
            assertThat(status.getPhase()).isEqualTo(PodGroupPhase.Unknown);
            assertThat(status.getRunning()).isEqualTo(1);
            assertThat(condition(status, PodGroupCondition.SCHEDULED))
                    .hasValueSatisfying(c -> assertThat(c.getReason()).isEqualTo(PodGroupCondition.REASON_POD_DELETED));
        });

        client.pods().inNamespace(ns).delete();
        await().atMost(PATIENCE).until(() -> status(ns, "gang").getPhase() == PodGroupPhase.Pending);
    }

    @Test
    void aBarePodGangThatLosesAMemberNothingReplacesIsUnknownWithPodDeletedOnceTheGracePeriodIsOverThenRunsWhenReplaced() {
        String ns = "unreplaced";
        createGroup(ns, "gang", 2);
        runPod(ns, "gang", "gang-0", 60, 0);
        runPod(ns, "gang", "gang-1", 60, 0);
        await().atMost(PATIENCE).until(() -> status(ns, "gang").getPhase() == PodGroupPhase.Running);

        Instant deleted = Instant.now();
        client.pods().inNamespace(ns).withName("gang-1").delete();

        await().atMost(PATIENCE).untilAsserted(() -> {
            PodGroupStatus status = status(ns, "gang");
            assertThat(status.getPhase()).isEqualTo(PodGroupPhase.Unknown);
            assertThat(status.getRunning()).isEqualTo(1);
            assertThat(condition(status, PodGroupCondition.SCHEDULED)).hasValueSatisfying(c -> {
                assertThat(c.getStatus()).isEqualTo("False");
                assertThat(c.getReason()).isEqualTo(PodGroupCondition.REASON_POD_DELETED);
            });
        });
        assertThat(Duration.between(deleted, Instant.now())).as("Unknown only after the grace period").isGreaterThanOrEqualTo(GRACE);
        await().atMost(PATIENCE).untilAsserted(() -> assertThat(eventReasons(ns)).contains("Unknown"));

        runPod(ns, "gang", "gang-1-late", 60, 0);
        await().atMost(PATIENCE).untilAsserted(() -> {
            PodGroupStatus status = status(ns, "gang");
            assertThat(status.getPhase()).as("a late replacement revives the gang").isEqualTo(PodGroupPhase.Running);
            assertThat(status.getRunning()).isEqualTo(2);
        });
    }

    @Test
    void aMemberReplacedWithinTheGracePeriodKeepsTheGangRunning() {
        String ns = "replaced";
        createGroup(ns, "gang", 2);
        runPod(ns, "gang", "gang-0", 60, 0);
        runPod(ns, "gang", "gang-1", 60, 0);

        // The control: a twin, in a namespace of its own for its events, loses a member nothing replaces.
        String twinNs = "replaced-twin";
        createGroup(twinNs, "gang", 2);
        runPod(twinNs, "gang", "gang-0", 60, 0);
        runPod(twinNs, "gang", "gang-1", 60, 0);
        await().atMost(PATIENCE).until(() -> status(ns, "gang").getPhase() == PodGroupPhase.Running
                && status(twinNs, "gang").getPhase() == PodGroupPhase.Running);

        client.pods().inNamespace(ns).withName("gang-1").delete();
        client.pods().inNamespace(twinNs).withName("gang-1").delete();
        runPod(ns, "gang", "gang-1-replacement", 60, 0);

        Stillness.holds(PATIENCE, "the unreplaced twin Unknown after the grace period",
                () -> status(twinNs, "gang").getPhase() == PodGroupPhase.Unknown, GRACE.plusMillis(500),
                () -> assertThat(status(ns, "gang").getPhase()).isEqualTo(PodGroupPhase.Running));
        assertThat(eventReasons(ns)).doesNotContain("Unknown");
    }

    @Test
    void aRunningGangWhoseNodeIsDeletedIsUnknownWithPodFailedThenPendingOnceItsPodsAreDeleted() {
        String ns = "node-loss";
        cluster.addSimulatedNode(new NodeBuilder().withNewMetadata().withName("doomed").endMetadata().build());
        createGroup(ns, "gang", 2);
        verdicts.publish(scheduled(ns, "gang"));
        runPod(ns, "gang", "gang-0", "doomed", 60, 0);
        runPod(ns, "gang", "gang-1", "doomed", 60, 0);
        await().atMost(PATIENCE).until(() -> status(ns, "gang").getPhase() == PodGroupPhase.Running);

        client.nodes().withName("doomed").delete();

        await().atMost(PATIENCE).untilAsserted(() -> {
            PodGroupStatus status = status(ns, "gang");
            assertThat(status.getPhase()).isEqualTo(PodGroupPhase.Unknown);
            assertThat(condition(status, PodGroupCondition.SCHEDULED)).hasValueSatisfying(c -> {
                assertThat(c.getStatus()).isEqualTo("False");
                assertThat(c.getReason()).isEqualTo(PodGroupCondition.REASON_POD_FAILED);
                assertThat(c.getMessage()).contains("2 lost");
            });
        });
        assertThat(client.pods().inNamespace(ns).withName("gang-0").get().getStatus().getPhase())
                .as("nothing in the local cluster fails pods of a deleted node").isEqualTo("Running");

        client.pods().inNamespace(ns).delete();
        await().atMost(PATIENCE).until(() -> status(ns, "gang").getPhase() == PodGroupPhase.Pending);
    }

    @Test
    void aGangWhoseOnlyPodLeftSucceededIsAdmittedAgainForTheRestNotLeftFailed() {
        // As a preempted gang whose one member's eviction failed: that member runs on and succeeds, alone.
        String ns = "survivor";
        createGroup(ns, "gang", 4);
        runPod(ns, "gang", "gang-0", 0, 0);
        await().atMost(PATIENCE).until(() -> status(ns, "gang") != null
                && status(ns, "gang").getPhase() == PodGroupPhase.Failed);

        verdicts.publish(admitted(ns, "gang"));

        await().atMost(PATIENCE).untilAsserted(() -> {
            PodGroupStatus status = status(ns, "gang");
            assertThat(status.getPhase()).isEqualTo(PodGroupPhase.Inqueue);
            assertThat(status.getSucceeded()).isEqualTo(1);
        });
    }

    @Test
    void anAdmittedGroupIsInqueueBeforeItHasPodsPendingOnceTheAdmissionExpiresAndRunsWhenItsPodsRun() {
        String ns = "admission";
        createGroup(ns, "gang", 2);

        verdicts.publish(admitted(ns, "gang"));
        await().atMost(PATIENCE).untilAsserted(() -> {
            PodGroupStatus status = status(ns, "gang");
            assertThat(status.getPhase()).isEqualTo(PodGroupPhase.Inqueue);
            assertThat(status.getScheduleStartTime()).isNotNull();
            assertThat(condition(status, PodGroupCondition.SCHEDULED)).as("nothing placed yet").isEmpty();
        });

        String expired = "0/3 nodes are available: 3 Insufficient cpu.";
        verdicts.publish(unschedulable(ns, "gang", expired));
        await().atMost(PATIENCE).untilAsserted(() -> {
            PodGroupStatus status = status(ns, "gang");
            assertThat(status.getPhase()).isEqualTo(PodGroupPhase.Pending);
            assertThat(condition(status, PodGroupCondition.UNSCHEDULABLE)).hasValueSatisfying(c -> {
                assertThat(c.getStatus()).isEqualTo("True");
                assertThat(c.getMessage()).isEqualTo(expired);
            });
        });

        verdicts.publish(admitted(ns, "gang"));
        await().atMost(PATIENCE).untilAsserted(() -> {
            PodGroupStatus status = status(ns, "gang");
            assertThat(status.getPhase()).isEqualTo(PodGroupPhase.Inqueue);
            assertThat(condition(status, PodGroupCondition.UNSCHEDULABLE)).hasValueSatisfying(c -> {
                assertThat(c.getStatus()).isEqualTo("False");
                assertThat(c.getReason()).isEqualTo("Admitted");
            });
        });
        // The control: a twin, admitted too, whose pods are bound as they are created, runs.
        String twinNs = "admission-twin";
        createGroup(twinNs, "gang", 2);
        verdicts.publish(admitted(twinNs, "gang"));
        await().atMost(PATIENCE).until(() -> status(twinNs, "gang").getPhase() == PodGroupPhase.Inqueue);
        createPod(ns, "gang", "gang-0", 60, 0);
        createPod(ns, "gang", "gang-1", 60, 0);
        runPod(twinNs, "gang", "gang-0", 60, 0);
        runPod(twinNs, "gang", "gang-1", 60, 0);
        Stillness.holds(PATIENCE, "the twin with bound pods Running",
                () -> status(twinNs, "gang").getPhase() == PodGroupPhase.Running, Duration.ofMillis(500),
                () -> assertThat(status(ns, "gang").getPhase()).isEqualTo(PodGroupPhase.Inqueue));

        bind(ns, "gang-0", "node-0");
        bind(ns, "gang-1", "node-1");
        verdicts.publish(scheduled(ns, "gang"));
        await().atMost(PATIENCE).untilAsserted(() -> {
            PodGroupStatus status = status(ns, "gang");
            assertThat(status.getPhase()).isEqualTo(PodGroupPhase.Running);
            assertThat(status.getRunning()).isEqualTo(2);
            assertThat(condition(status, PodGroupCondition.SCHEDULED))
                    .hasValueSatisfying(c -> assertThat(c.getStatus()).isEqualTo("True"));
        });
        // Listed in no particular order: Events are named at random. The second Pending -> Inqueue says what
        // the first said, so it is the same Event counted twice, as client-go's recorder does.
        await().atMost(PATIENCE).untilAsserted(() -> {
            assertThat(eventReasons(ns)).containsExactlyInAnyOrder("Inqueue", "Pending", "Running");
            assertThat(client.v1().events().inNamespace(ns).list().getItems())
                    .filteredOn(e -> e.getReason().equals("Inqueue")).singleElement()
                    .satisfies(e -> assertThat(e.getCount()).isEqualTo(2));
        });
    }

    private static void createGroup(String ns, String name, int minMember) {
        client.resource(PodGroupFixtures.podGroup(ns, name, minMember)).create();
    }

    /** Creates a member pod and binds it to node-0, so that the simulated kubelet runs it. */
    private static void runPod(String ns, String group, String name, int runSeconds, int exitCode) {
        runPod(ns, group, name, "node-0", runSeconds, exitCode);
    }

    private static void runPod(String ns, String group, String name, String node, int runSeconds, int exitCode) {
        createPod(ns, group, name, runSeconds, exitCode);
        bind(ns, name, node);
    }

    /** Binds a pod as the scheduler would; the simulated kubelet then runs it. */
    private static void bind(String ns, String name, String node) {
        client.bindings().inNamespace(ns).resource(new BindingBuilder()
                .withNewMetadata().withName(name).endMetadata()
                .withNewTarget().withKind("Node").withName(node).endTarget()
                .build()).create();
    }

    private static void createPod(String ns, String group, String name, int runSeconds, int exitCode) {
        client.resource(new PodBuilder()
                .withNewMetadata().withNamespace(ns).withName(name)
                .withLabels(Map.of(MusterLabels.POD_GROUP, group))
                .withAnnotations(Map.of(MusterLabels.LOCAL_RUN_SECONDS, String.valueOf(runSeconds),
                        MusterLabels.LOCAL_EXIT_CODE, String.valueOf(exitCode)))
                .endMetadata()
                .withNewSpec().withSchedulerName(MusterLabels.SCHEDULER_NAME).withRestartPolicy("Never")
                .addNewContainer().withName("main").withImage("busybox").endContainer()
                .endSpec()
                .build()).create();
    }

    private static PodGroup group(String ns, String name) {
        return client.resources(PodGroup.class).inNamespace(ns).withName(name).get();
    }

    private static PodGroupStatus status(String ns, String name) {
        PodGroupStatus status = group(ns, name).getStatus();
        return status == null ? new PodGroupStatus() : status;
    }

    private static Optional<PodGroupCondition> condition(PodGroupStatus status, String type) {
        return status.getConditions().stream().filter(c -> type.equals(c.getType())).findFirst();
    }

    private static List<String> eventReasons(String ns) {
        return client.v1().events().inNamespace(ns).list().getItems().stream().map(Event::getReason).toList();
    }

    private static GangVerdict scheduled(String ns, String group) {
        return new GangVerdict(ns, group, GangVerdict.Outcome.SCHEDULED, null, "2/2 pods placed",
                UUID.randomUUID().toString(), Instant.now());
    }

    private static GangVerdict admitted(String ns, String group) {
        return new GangVerdict(ns, group, GangVerdict.Outcome.ADMITTED, "Admitted",
                "Admitted: room for the 2 pod(s) of minMember 2 is held on 2 node(s) until they are created.",
                UUID.randomUUID().toString(), Instant.now());
    }

    private static GangVerdict unschedulable(String ns, String group, String message) {
        return new GangVerdict(ns, group, GangVerdict.Outcome.UNSCHEDULABLE,
                PodGroupCondition.REASON_NOT_ENOUGH_RESOURCES, message, UUID.randomUUID().toString(), Instant.now());
    }
}
