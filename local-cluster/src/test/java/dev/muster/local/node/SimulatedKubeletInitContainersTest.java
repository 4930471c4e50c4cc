package dev.muster.local.node;

import dev.muster.api.MusterLabels;
import dev.muster.api.PodPhase;
import dev.muster.local.Fixtures;
import dev.muster.local.KubeletClusterTests;
import io.fabric8.kubernetes.api.model.ContainerBuilder;
import io.fabric8.kubernetes.api.model.ContainerState;
import io.fabric8.kubernetes.api.model.ContainerStatus;
import io.fabric8.kubernetes.api.model.Event;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodCondition;
import io.fabric8.kubernetes.client.Watch;
import io.fabric8.kubernetes.client.Watcher;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Predicate;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.tuple;
import static org.awaitility.Awaitility.await;

/**
 * Init containers run as a kubelet runs them: one after another while the pod is Pending and not
 * {@code Initialized}, each for {@code init-seconds} (none by default), then the containers; a failing one fails
 * the pod under restart policy Never and is restarted with a back-off under the others. Sidecars (init containers
 * with restart policy Always) start in their turn, run beside the containers and are stopped when those end.
 */
@Tag("emulator")
class SimulatedKubeletInitContainersTest extends KubeletClusterTests {
    @Test
    void initContainersRunOneAfterAnotherBeforeTheContainers() {
        create(withInits("two-inits", "Never", Map.of(SimulatedKubelet.INIT_SECONDS, "0.3"), "fetch", "migrate"));
        List<Pod> versions = watchUntil("two-inits", "node-0", p -> PodPhase.of(p) == PodPhase.Succeeded);

        Pod first = versions.stream().filter(p -> running(init(p, "fetch"))).findFirst().orElseThrow();
        assertThat(PodPhase.of(first)).isEqualTo(PodPhase.Pending);
        assertThat(first.getStatus().getPodIP()).as("the sandbox has its address before init").startsWith("10.");
        assertThat(init(first, "fetch").getStarted()).isTrue();
        assertThat(init(first, "fetch").getReady()).isFalse();
        assertThat(waitingReason(init(first, "migrate"))).isEqualTo("PodInitializing");
        assertThat(waitingReason(first.getStatus().getContainerStatuses().get(0))).isEqualTo("PodInitializing");
        assertThat(first.getStatus().getConditions())
                .extracting(PodCondition::getType, PodCondition::getStatus, PodCondition::getReason, PodCondition::getMessage)
                .contains(tuple("Initialized", "False", "ContainersNotInitialized", "containers with incomplete status: [fetch migrate]"),
                        tuple("Ready", "False", "ContainersNotReady", "containers with unready status: [main]"));

        Pod second = versions.stream().filter(p -> running(init(p, "migrate"))).findFirst().orElseThrow();
        assertThat(PodPhase.of(second)).isEqualTo(PodPhase.Pending);
        assertThat(init(second, "fetch").getState().getTerminated())
                .satisfies(t -> assertThat(t.getExitCode()).isZero())
                .satisfies(t -> assertThat(t.getReason()).isEqualTo("Completed"));
        assertThat(init(second, "fetch").getReady()).as("a completed init container is ready").isTrue();
        assertThat(condition(second, "Initialized").getMessage()).isEqualTo("containers with incomplete status: [migrate]");

        Pod running = versions.stream().filter(p -> PodPhase.of(p) == PodPhase.Running).findFirst().orElseThrow();
        assertThat(running.getStatus().getInitContainerStatuses()).extracting(ContainerStatus::getName)
                .containsExactly("fetch", "migrate");
        assertThat(running.getStatus().getInitContainerStatuses())
                .allSatisfy(s -> assertThat(s.getState().getTerminated().getExitCode()).isZero());
        assertThat(condition(running, "Initialized").getStatus()).isEqualTo("True");
        assertThat(running.getStatus().getPodIP()).isEqualTo(first.getStatus().getPodIP());
        assertThat(running.getStatus().getStartTime()).isEqualTo(first.getStatus().getStartTime());
        assertThat(versions).extracting((Pod p) -> PodPhase.of(p).name()).containsSubsequence("Pending", "Running", "Succeeded");
    }

    /** The default: init containers take no time, and cost no status write of their own. */
    @Test
    void initContainersThatTakeNoTimeAreThroughAsThePodStarts() {
        create(withInits("quick-inits", "Never", Map.of(), "fetch", "migrate"));
        List<Pod> versions = watchUntil("quick-inits", "node-1", p -> PodPhase.of(p) == PodPhase.Succeeded);

        assertThat(versions).filteredOn(p -> PodPhase.of(p) == PodPhase.Pending)
                .allSatisfy(p -> assertThat(p.getStatus().getInitContainerStatuses()).isEmpty());
        Pod running = versions.stream().filter(p -> PodPhase.of(p) == PodPhase.Running).findFirst().orElseThrow();
        assertThat(running.getStatus().getInitContainerStatuses()).extracting(s -> s.getState().getTerminated().getReason())
                .containsExactly("Completed", "Completed");
        assertThat(versions).filteredOn(p -> PodPhase.of(p) == PodPhase.Running).hasSize(1);
    }

    @Test
    void aFailingInitContainerFailsThePodUnderNever() {
        create(withInits("init-fails", "Never", Map.of(SimulatedKubelet.INIT_EXIT_CODE, "2"), "fetch", "migrate"));
        List<Pod> versions = watchUntil("init-fails", "node-0", p -> PodPhase.of(p) == PodPhase.Failed);

        assertThat(versions).extracting((Pod p) -> PodPhase.of(p).name()).doesNotContain("Running");
        Pod failed = versions.get(versions.size() - 1);
        assertThat(init(failed, "fetch").getState().getTerminated())
                .satisfies(t -> assertThat(t.getExitCode()).isEqualTo(2))
                .satisfies(t -> assertThat(t.getReason()).isEqualTo("Error"));
        assertThat(waitingReason(init(failed, "migrate"))).as("never run").isEqualTo("PodInitializing");
        assertThat(waitingReason(failed.getStatus().getContainerStatuses().get(0))).isEqualTo("PodInitializing");
        assertThat(condition(failed, "Initialized").getStatus()).isEqualTo("False");
    }

    /** As the kubelet restarts a failed container, with its back-off, its message and its Event; the pod stays Pending. */
    @Test
    void aFailingInitContainerIsRestartedWithABackOffUnderOnFailure() {
        create(withInits("init-loops", "OnFailure", Map.of(SimulatedKubelet.INIT_EXIT_CODE, "1"), "fetch", "migrate"));
        List<Pod> versions = watchUntil("init-loops", "node-1", p -> init(p, "fetch") != null
                && init(p, "fetch").getRestartCount() >= 3);

        assertThat(versions).extracting((Pod p) -> PodPhase.of(p).name()).containsOnly("Pending");
        assertThat(versions).extracting(p -> init(p, "fetch")).filteredOn(Objects::nonNull)
                .extracting(ContainerStatus::getRestartCount).isSorted().contains(0, 1, 2, 3);
        String uid = versions.get(versions.size() - 1).getMetadata().getUid();
        Pod backingOff = versions.stream().filter(p -> "CrashLoopBackOff".equals(waitingReason(init(p, "fetch"))))
                .findFirst().orElseThrow();
        ContainerStatus waiting = init(backingOff, "fetch");
        assertThat(waiting.getState().getWaiting().getMessage())
                .isEqualTo("back-off 200ms restarting failed container=fetch pod=init-loops_default(" + uid + ")");
        assertThat(waiting.getLastState().getTerminated().getExitCode()).isEqualTo(1);
        assertThat(waitingReason(init(backingOff, "migrate"))).isEqualTo("PodInitializing");
        assertThat(waitingReason(backingOff.getStatus().getContainerStatuses().get(0))).isEqualTo("PodInitializing");

        await().until(() -> eventsOn("init-loops").stream().anyMatch(e -> e.getCount() >= 2));
        assertThat(eventsOn("init-loops")).singleElement().satisfies(event -> {
            assertThat(event.getReason()).isEqualTo("BackOff");
            assertThat(event.getMessage()).isEqualTo("Back-off restarting failed container fetch in pod init-loops_default("
                    + uid + ")");
            assertThat(event.getInvolvedObject().getFieldPath()).isEqualTo("spec.initContainers{fetch}");
        });
    }

    /**
     * Sidecars start in their turn and do not hold up the init containers after them, run beside the containers
     * (also through their restarts) and are stopped when the containers end; the pod ends as its containers do.
     */
    @Test
    void sidecarsRunBesideTheContainersAndStopWhenTheyEnd() {
        Pod pod = withInits("with-sidecars", "OnFailure",
                Map.of(SimulatedKubelet.INIT_SECONDS, "0.2", MusterLabels.LOCAL_EXIT_CODE, "0"), "proxy", "fetch", "logs");
        pod.getSpec().getInitContainers().get(0).setRestartPolicy("Always");
        pod.getSpec().getInitContainers().get(2).setRestartPolicy("Always");
        create(pod);
        List<Pod> versions = watchUntil("with-sidecars", "node-0", p -> PodPhase.of(p) == PodPhase.Succeeded);

        Pod initializing = versions.stream().filter(p -> running(init(p, "fetch"))).findFirst().orElseThrow();
        assertThat(init(initializing, "proxy")).satisfies(s -> {
            assertThat(running(s)).isTrue();
            assertThat(s.getStarted()).isTrue();
            assertThat(s.getReady()).isTrue();
        });
        assertThat(waitingReason(init(initializing, "logs"))).isEqualTo("PodInitializing");
        assertThat(condition(initializing, "Initialized").getMessage()).isEqualTo("containers with incomplete status: [fetch logs]");
        assertThat(condition(initializing, "Ready").getMessage()).isEqualTo("containers with unready status: [logs main]");

        Pod running = versions.stream().filter(p -> PodPhase.of(p) == PodPhase.Running).findFirst().orElseThrow();
        assertThat(running(init(running, "proxy"))).isTrue();
        assertThat(running(init(running, "logs"))).isTrue();
        assertThat(init(running, "proxy").getState().getRunning().getStartedAt())
                .isEqualTo(init(initializing, "proxy").getState().getRunning().getStartedAt());

        Pod succeeded = versions.get(versions.size() - 1);
        assertThat(List.of(init(succeeded, "proxy"), init(succeeded, "logs"))).allSatisfy(s -> {
            assertThat(s.getState().getTerminated().getExitCode()).isZero();
            assertThat(s.getReady()).isFalse();
        });

        Pod failing = withInits("sidecar-main-fails", "OnFailure", Map.of(MusterLabels.LOCAL_EXIT_CODE, "3"), "proxy");
        failing.getSpec().getInitContainers().get(0).setRestartPolicy("Always");
        create(failing);
        List<Pod> restarts = watchUntil("sidecar-main-fails", "node-1",
                p -> PodPhase.of(p) == PodPhase.Running && p.getStatus().getContainerStatuses().get(0).getRestartCount() >= 2);
        assertThat(restarts).filteredOn(p -> PodPhase.of(p) == PodPhase.Running)
                .allSatisfy(p -> assertThat(running(init(p, "proxy"))).as("the sidecar runs through restarts").isTrue())
                .allSatisfy(p -> assertThat(init(p, "proxy").getRestartCount()).isZero());
    }

    @Test
    void aPodDeletedWhileAnInitContainerRunsIsStopped() {
        create(withInits("deleted-in-init", "Never", Map.of(SimulatedKubelet.INIT_SECONDS, "60"), "fetch", "migrate"));
        List<Pod> versions = new CopyOnWriteArrayList<>();
        List<Watcher.Action> actions = new CopyOnWriteArrayList<>();
        try (Watch ignored = client.pods().withName("deleted-in-init").watch(Fixtures.watcher((action, version) -> {
            actions.add(action);
            versions.add(version);
        }))) {
            bind("deleted-in-init", "node-0");
            await().until(() -> versions.stream().anyMatch(p -> running(init(p, "fetch"))));
            client.pods().withName("deleted-in-init").delete();
            await().until(() -> actions.contains(Watcher.Action.DELETED));
        }

        Pod last = versions.get(versions.size() - 1);
        assertThat(PodPhase.of(last)).isEqualTo(PodPhase.Failed);
        assertThat(init(last, "fetch").getState().getTerminated().getExitCode()).as("SIGTERM").isEqualTo(143);
        assertThat(init(last, "migrate").getState().getTerminated().getReason()).isEqualTo("ContainerStatusUnknown");
    }

    /** A pod of one container that runs 0.3 s and the init containers {@code inits}, created unbound. */
    private static Pod withInits(String name, String restartPolicy, Map<String, String> annotations, String... inits) {
        Pod pod = Fixtures.pod(name);
        pod.getSpec().setRestartPolicy(restartPolicy);
        Map<String, String> settings = new HashMap<>(annotations);
        settings.putIfAbsent(MusterLabels.LOCAL_RUN_SECONDS, "0.3");
        pod.getMetadata().setAnnotations(settings);
        for (String init : inits) {
            pod.getSpec().getInitContainers().add(new ContainerBuilder().withName(init).withImage("busybox").build());
        }
        return pod;
    }

    private static void create(Pod pod) {
        client.resource(pod).create();
    }

    /** Binds the pod to the node and returns every version of it seen until one matches {@code until}. */
    private static List<Pod> watchUntil(String pod, String node, Predicate<Pod> until) {
        List<Pod> versions = new CopyOnWriteArrayList<>();
        try (Watch ignored = client.pods().withName(pod).watch(Fixtures.watcher((action, version) -> versions.add(version)))) {
            bind(pod, node);
            await().until(() -> versions.stream().anyMatch(until));
        }
        return versions;
    }

    private static ContainerStatus init(Pod pod, String name) {
        return pod.getStatus() == null ? null : pod.getStatus().getInitContainerStatuses().stream()
                .filter(s -> name.equals(s.getName())).findFirst().orElse(null);
    }

    private static boolean running(ContainerStatus status) {
        return status != null && status.getState() != null && status.getState().getRunning() != null;
    }

    private static String waitingReason(ContainerStatus status) {
        ContainerState state = status == null ? null : status.getState();
        return state == null || state.getWaiting() == null ? null : state.getWaiting().getReason();
    }

    private static PodCondition condition(Pod pod, String type) {
        return pod.getStatus().getConditions().stream().filter(c -> type.equals(c.getType())).findFirst().orElseThrow();
    }

    private static List<Event> eventsOn(String pod) {
        return client.v1().events().inNamespace("default").withField("involvedObject.name", pod).list().getItems();
    }
}
