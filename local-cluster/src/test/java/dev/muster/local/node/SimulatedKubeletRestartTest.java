package dev.muster.local.node;

import dev.muster.api.MusterLabels;
import dev.muster.api.PodPhase;
import dev.muster.local.Fixtures;
import dev.muster.local.KubeletClusterTests;
import dev.muster.local.LocalCluster;
import io.fabric8.kubernetes.api.model.ContainerState;
import io.fabric8.kubernetes.api.model.ContainerStateTerminated;
import io.fabric8.kubernetes.api.model.ContainerStateWaiting;
import io.fabric8.kubernetes.api.model.ContainerStatus;
import io.fabric8.kubernetes.api.model.Event;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodCondition;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.Watch;
import io.fabric8.kubernetes.client.Watcher;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.CopyOnWriteArrayList;

import static dev.muster.local.Patience.PATIENCE;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.tuple;
import static org.awaitility.Awaitility.await;

/**
 * Containers restarted in place as a kubelet restarts them under restart policy OnFailure or Always: the pod stays
 * Running, {@code restartCount} rises, {@code lastState} holds the exit before, and from the second exit on the
 * container waits in {@code CrashLoopBackOff} for a back-off that doubles (200 ms at first, with {@link Fixtures#FAST}).
 */
@Tag("emulator")
class SimulatedKubeletRestartTest extends KubeletClusterTests {
    @Test
    void aContainerFailingUnderOnFailureIsRestartedInPlaceWithAGrowingBackOff() {
        crashing("crash-loop", "OnFailure", "3");
        List<Pod> versions = new CopyOnWriteArrayList<>();
        try (Watch ignored = client.pods().withName("crash-loop").watch(Fixtures.watcher((action, version) -> versions.add(version)))) {
            bind("crash-loop", "node-0");
            await().until(() -> versions.stream().anyMatch(p -> restartCount(p) >= 3));
        }

        assertThat(versions).extracting((Pod p) -> PodPhase.of(p).name()).as("never Failed")
                .containsSubsequence("Pending", "Running").doesNotContain("Failed", "Succeeded");
        assertThat(versions).extracting(SimulatedKubeletRestartTest::restartCount).isSorted().contains(0, 1, 2, 3);
        String uid = client.pods().withName("crash-loop").get().getMetadata().getUid();
        assertThat(versions).extracting(SimulatedKubeletRestartTest::waitingMessage).filteredOn(Objects::nonNull)
                .as("no back-off after the first exit, then one that doubles").containsSubsequence(
                        "back-off 200ms restarting failed container=main pod=crash-loop_default(" + uid + ")",
                        "back-off 400ms restarting failed container=main pod=crash-loop_default(" + uid + ")")
                .doesNotContain("back-off 0s restarting failed container=main pod=crash-loop_default(" + uid + ")");

        Pod firstExit = versions.stream().filter(p -> state(p).getTerminated() != null).findFirst().orElseThrow();
        assertThat(restartCount(firstExit)).isZero();
        assertThat(PodPhase.of(firstExit).name()).isEqualTo("Running");
        assertThat(state(firstExit).getTerminated().getExitCode()).isEqualTo(3);

        Pod backingOff = versions.stream().filter(p -> waitingMessage(p) != null).findFirst().orElseThrow();
        ContainerStatus waiting = backingOff.getStatus().getContainerStatuses().get(0);
        assertThat(waiting.getState().getWaiting().getReason()).isEqualTo("CrashLoopBackOff");
        assertThat(waiting.getReady()).isFalse();
        assertThat(waiting.getRestartCount()).isEqualTo(1);
        ContainerStateTerminated lastExit = waiting.getLastState().getTerminated();
        assertThat(lastExit.getExitCode()).isEqualTo(3);
        assertThat(lastExit.getReason()).isEqualTo("Error");
        assertThat(Instant.parse(lastExit.getFinishedAt())).isAfterOrEqualTo(Instant.parse(lastExit.getStartedAt()));
        assertThat(backingOff.getStatus().getConditions())
                .extracting(PodCondition::getType, PodCondition::getStatus, PodCondition::getReason, PodCondition::getMessage)
                .contains(tuple("Ready", "False", "ContainersNotReady", "containers with unready status: [main]"),
                        tuple("ContainersReady", "False", "ContainersNotReady", "containers with unready status: [main]"));

        Pod restarted = versions.stream().filter(p -> restartCount(p) == 2 && state(p).getRunning() != null)
                .findFirst().orElseThrow();
        ContainerStatus running = restarted.getStatus().getContainerStatuses().get(0);
        assertThat(running.getReady()).isTrue();
        assertThat(running.getLastState().getTerminated().getExitCode()).isEqualTo(3);
        assertThat(restarted.getStatus().getConditions()).filteredOn(c -> c.getType().equals("Ready"))
                .extracting(PodCondition::getStatus).containsExactly("True");
    }

    /**
     * A kubelet records a Warning {@code BackOff} on the pod each time a container's restart waits, one Event
     * whose count rises; the first exit, restarted at once, and a pod that ends normally get none.
     */
    @Test
    void aCrashLoopIsRecordedAsOneBackOffEventWhoseCountRises() {
        crashing("backing-off", "OnFailure", "3");
        bind("backing-off", "node-1");
        await().until(() -> eventsOn("backing-off").stream().anyMatch(e -> e.getCount() >= 2));

        Pod pod = client.pods().withName("backing-off").get();
        List<Event> recorded = eventsOn("backing-off");
        assertThat(recorded).singleElement().satisfies(event -> {
            assertThat(event.getType()).isEqualTo("Warning");
            assertThat(event.getReason()).isEqualTo("BackOff");
            assertThat(event.getMessage()).isEqualTo("Back-off restarting failed container main in pod backing-off_default("
                    + pod.getMetadata().getUid() + ")");
            assertThat(event.getInvolvedObject()).satisfies(about -> {
                assertThat(about.getKind()).isEqualTo("Pod");
                assertThat(about.getUid()).isEqualTo(pod.getMetadata().getUid());
                assertThat(about.getFieldPath()).isEqualTo("spec.containers{main}");
            });
            assertThat(event.getSource().getComponent()).isEqualTo("kubelet");
            assertThat(event.getSource().getHost()).isEqualTo("node-1");
            assertThat(event.getReportingComponent()).isEqualTo("kubelet");
            assertThat(event.getReportingInstance()).isEqualTo("node-1");
            assertThat(event.getCount()).as("one per back-off: the exits after the first")
                    .isLessThanOrEqualTo(restartCount(pod));
            assertThat(Instant.parse(event.getLastTimestamp())).isAfterOrEqualTo(Instant.parse(event.getFirstTimestamp()));
        });

        crashing("no-events", "OnFailure", "0");
        bind("no-events", "node-1");
        await().until(() -> phase("no-events"), "Succeeded"::equals);
        assertThat(eventsOn("no-events")).as("no Event on the normal path").isEmpty();
    }

    private static List<Event> eventsOn(String pod) {
        return client.v1().events().inNamespace("default").withField("involvedObject.name", pod).list().getItems();
    }

    @Test
    void aContainerSucceedingUnderOnFailureEndsThePod() {
        crashing("on-failure-ok", "OnFailure", "0");
        bind("on-failure-ok", "node-1");

        await().until(() -> phase("on-failure-ok"), "Succeeded"::equals);
        assertThat(restartCount(client.pods().withName("on-failure-ok").get())).isZero();
    }

    @Test
    void aContainerSucceedingUnderAlwaysIsRestartedToo() {
        crashing("always-ok", "Always", "0");
        bind("always-ok", "node-1");

        await().until(() -> restartCount(client.pods().withName("always-ok").get()) >= 2);
        Pod pod = client.pods().withName("always-ok").get();
        assertThat(PodPhase.of(pod).name()).isEqualTo("Running");
        ContainerStateTerminated lastExit = pod.getStatus().getContainerStatuses().get(0).getLastState().getTerminated();
        assertThat(lastExit.getExitCode()).isZero();
        assertThat(lastExit.getReason()).isEqualTo("Completed");
    }

    /** A pod deleted while it crash-loops keeps the restarts it took, as the job controller counts them. */
    @Test
    void aCrashLoopingPodThatIsDeletedKeepsItsRestartCount() {
        crashing("deleted-loop", "OnFailure", "3");
        List<Watcher.Action> actions = new CopyOnWriteArrayList<>();
        List<Pod> versions = new CopyOnWriteArrayList<>();
        try (Watch ignored = client.pods().withName("deleted-loop").watch(Fixtures.watcher((action, version) -> {
            actions.add(action);
            versions.add(version);
        }))) {
            bind("deleted-loop", "node-0");
            await().until(() -> versions.stream().anyMatch(p -> restartCount(p) >= 2));
            client.pods().withName("deleted-loop").delete();
            await().until(() -> actions.contains(Watcher.Action.DELETED));
        }

        Pod last = versions.get(versions.size() - 1);
        assertThat(PodPhase.of(last).name()).isEqualTo("Failed");
        assertThat(restartCount(last)).isGreaterThanOrEqualTo(2);
        assertThat(state(last).getTerminated().getExitCode()).as("its last exit, or SIGTERM if it was running")
                .isIn(3, 143);
    }

    /**
     * The back-off stops doubling at 30 times its start (5 min to the kubelet's 10 s), and a container that ran
     * longer than twice that cap between two exits is restarted at once, its back-off forgotten.
     */
    @Test
    void theBackOffIsCappedAndForgottenAfterALongRun() {
        try (LocalCluster cluster = LocalCluster.start(Fixtures.FAST.withNodes(1).withRestartBackOff(Duration.ofMillis(10)))) {
            KubernetesClient client = cluster.client();
            // 0.05 s runs exit well within the reset of 600 ms; 0.7 s runs always outlast it.
            crashing("short-runs", "OnFailure", "0.05", "1", client);
            crashing("long-runs", "OnFailure", "0.7", "1", client);
            List<Pod> shortRuns = new CopyOnWriteArrayList<>();
            List<Pod> longRuns = new CopyOnWriteArrayList<>();
            try (Watch s = client.pods().withName("short-runs").watch(Fixtures.watcher((a, p) -> shortRuns.add(p)));
                 Watch l = client.pods().withName("long-runs").watch(Fixtures.watcher((a, p) -> longRuns.add(p)))) {
                client.bindings().inNamespace("default").resource(Fixtures.binding("short-runs", "node-0")).create();
                client.bindings().inNamespace("default").resource(Fixtures.binding("long-runs", "node-0")).create();
                await().atMost(PATIENCE).until(() -> shortRuns.stream().anyMatch(p -> restartCount(p) >= 9)
                        && longRuns.stream().anyMatch(p -> restartCount(p) >= 3));
            }

            assertThat(shortRuns).extracting(SimulatedKubeletRestartTest::waitingMessage).filteredOn(Objects::nonNull)
                    .extracting(m -> m.substring(0, m.indexOf(" restarting")))
                    .containsSubsequence("back-off 10ms", "back-off 20ms", "back-off 40ms", "back-off 80ms",
                            "back-off 160ms", "back-off 300ms", "back-off 300ms")
                    .doesNotContain("back-off 320ms");
            assertThat(longRuns).extracting(SimulatedKubeletRestartTest::waitingMessage).as("never backed off")
                    .containsOnlyNulls();
        }
    }

    /** A pod of one container that runs 0.1 s and exits with {@code exitCode}, created unbound. */
    private static void crashing(String name, String restartPolicy, String exitCode) {
        crashing(name, restartPolicy, "0.1", exitCode, client);
    }

    private static void crashing(String name, String restartPolicy, String runSeconds, String exitCode,
                                 KubernetesClient client) {
        Pod pod = Fixtures.pod(name);
        pod.getSpec().setRestartPolicy(restartPolicy);
        pod.getMetadata().setAnnotations(Map.of(MusterLabels.LOCAL_RUN_SECONDS, runSeconds, MusterLabels.LOCAL_EXIT_CODE, exitCode));
        client.resource(pod).create();
    }

    private static int restartCount(Pod pod) {
        List<ContainerStatus> statuses = pod.getStatus() == null ? List.of() : pod.getStatus().getContainerStatuses();
        return statuses.isEmpty() || statuses.get(0).getRestartCount() == null ? 0 : statuses.get(0).getRestartCount();
    }

    private static ContainerState state(Pod pod) {
        List<ContainerStatus> statuses = pod.getStatus() == null ? List.of() : pod.getStatus().getContainerStatuses();
        return statuses.isEmpty() || statuses.get(0).getState() == null ? new ContainerState() : statuses.get(0).getState();
    }

    private static String waitingMessage(Pod pod) {
        ContainerStateWaiting waiting = state(pod).getWaiting();
        return waiting == null || !"CrashLoopBackOff".equals(waiting.getReason()) ? null : waiting.getMessage();
    }
}
