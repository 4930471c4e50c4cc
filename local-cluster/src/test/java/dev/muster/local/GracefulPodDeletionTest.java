package dev.muster.local;

import dev.muster.api.PodPhase;
import dev.muster.api.batch.v1alpha1.Job;
import io.fabric8.kubernetes.api.model.ContainerStatus;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.NodeBuilder;
import io.fabric8.kubernetes.api.model.OwnerReference;
import io.fabric8.kubernetes.api.model.OwnerReferenceBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.client.Watch;
import io.fabric8.kubernetes.client.Watcher;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

import static dev.muster.local.Patience.PATIENCE;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Graceful deletion of pods as kube-apiserver and the kubelet do it: the DELETE of a running pod sets its
 * {@code deletionTimestamp}, the kubelet stops its containers (SIGTERM, exit code 143), and then deletes it with
 * grace period 0, which removes it.
 */
@Tag("emulator")
class GracefulPodDeletionTest extends KubeletClusterTests {
    /** kube-apiserver's graceful pod deletion, then the kubelet's SIGTERM and its final DELETE with grace period 0. */
    @Test
    void aRunningPodIsTerminatingUntilTheKubeletHasStoppedItThenItIsGone() {
        running("graceful", "node-0");
        List<Event> events = new CopyOnWriteArrayList<>();
        try (Watch ignored = watch("graceful", events)) {
            Instant before = Instant.now();
            client.pods().withName("graceful").delete();

            Pod terminating = client.pods().withName("graceful").get();
            assertThat(terminating).as("still there after the DELETE").isNotNull();
            assertThat(terminating.getMetadata().getDeletionGracePeriodSeconds()).isEqualTo(30L);
            assertThat(Instant.parse(terminating.getMetadata().getDeletionTimestamp()))
                    .isBetween(before.plusSeconds(29), Instant.now().plusSeconds(31));
            await().until(() -> events.stream().anyMatch(e -> e.action() == Watcher.Action.DELETED));
        }

        List<Event> changes = changes(events);
        assertThat(changes).extracting(Event::action).first().isEqualTo(Watcher.Action.MODIFIED);
        assertThat(changes.get(0).pod().getMetadata().getDeletionTimestamp()).isNotNull();
        assertThat(PodPhase.of(changes.get(0).pod()).name()).isEqualTo("Running");
        Event last = changes.get(changes.size() - 1);
        assertThat(last.action()).isEqualTo(Watcher.Action.DELETED);
        assertThat(PodPhase.of(last.pod()).name()).as("the kubelet gives a stopped pod a terminal phase").isEqualTo("Failed");
        assertThat(last.pod().getStatus().getContainerStatuses()).singleElement().satisfies(s -> {
            assertThat(s.getState().getTerminated().getExitCode()).as("SIGTERM").isEqualTo(143);
            assertThat(s.getState().getTerminated().getReason()).isEqualTo("Error");
        });
        assertThat(client.pods().withName("graceful").get()).isNull();
    }

    /** {@code kubectl delete --force --grace-period=0}: kube-apiserver removes the pod without waiting for the kubelet. */
    @Test
    void gracePeriodZeroRemovesARunningPodAtOnce() {
        running("forced", "node-1");

        client.pods().withName("forced").withGracePeriod(0).delete();

        assertThat(client.pods().withName("forced").get()).isNull();
    }

    /**
     * kube-apiserver keeps a pod with finalizers after the kubelet's DELETE with grace period 0 (now
     * {@code deletionGracePeriodSeconds: 0}), and removes it with the update that removes its last finalizer.
     */
    @Test
    void aPodWithAFinalizerStaysStoppedUntilTheFinalizerIsRemoved() {
        Pod pod = Fixtures.pod("finalized");
        pod.getSpec().setRestartPolicy("Always");
        pod.getMetadata().setFinalizers(List.of("example.com/keep"));
        client.resource(pod).create();
        bind("finalized", "node-0");
        await().until(() -> phase("finalized"), "Running"::equals);

        client.pods().withName("finalized").delete();

        await().until(() -> client.pods().withName("finalized").get(),
                p -> p.getMetadata().getDeletionGracePeriodSeconds() == 0L && PodPhase.of(p).name().equals("Failed"));
        client.pods().withName("finalized").edit(p -> {
            p.getMetadata().setFinalizers(List.of());
            return p;
        });
        assertThat(client.pods().withName("finalized").get()).isNull();
    }

    /** The garbage collector deletes a Job's pods with the default grace period, so they terminate gracefully. */
    @Test
    void cascadingDeletionOfAJobStopsItsRunningPodsGracefully() {
        Job job = client.resource(Fixtures.job("cascade")).create();
        Pod pod = Fixtures.pod("cascade-worker");
        pod.getSpec().setRestartPolicy("Always");
        pod.getMetadata().setOwnerReferences(List.of(ownerReference(job)));
        client.resource(pod).create();
        bind("cascade-worker", "node-1");
        await().until(() -> phase("cascade-worker"), "Running"::equals);
        List<Event> events = new CopyOnWriteArrayList<>();
        try (Watch ignored = watch("cascade-worker", events)) {
            client.resource(job).delete();

            await().until(() -> events.stream().anyMatch(e -> e.action() == Watcher.Action.DELETED));
        }
        assertThat(changes(events)).first().satisfies(e -> {
            assertThat(e.action()).isEqualTo(Watcher.Action.MODIFIED);
            assertThat(e.pod().getMetadata().getDeletionGracePeriodSeconds()).isEqualTo(30L);
        });
        assertThat(events.get(events.size() - 1).pod().getStatus().getContainerStatuses())
                .extracting(ContainerStatus::getState).singleElement()
                .satisfies(state -> assertThat(state.getTerminated().getExitCode()).isEqualTo(143));
    }

    /** The kubelet does not wait past the grace period (it would send SIGKILL then), however slow the stop is. */
    @Test
    void aSlowStopIsCutToTheGracePeriod() {
        try (LocalCluster slow = LocalCluster.start(Fixtures.FAST.withNodes(1).withPodStopDelay(Duration.ofHours(1)))) {
            Pod pod = Fixtures.pod("slow");
            pod.getSpec().setRestartPolicy("Always");
            pod.getSpec().setTerminationGracePeriodSeconds(1L);
            slow.client().resource(pod).create();
            slow.client().bindings().inNamespace("default").resource(Fixtures.binding("slow", "node-0")).create();
            await().until(() -> PodPhase.of(slow.client().pods().withName("slow").get()).name(), "Running"::equals);

            slow.client().pods().withName("slow").delete();

            await().atMost(PATIENCE).until(() -> slow.client().pods().withName("slow").get() == null);
        }
    }

    /**
     * kube-controller-manager's pod garbage collector deletes the pods of a deleted Node with grace period 0: no
     * kubelet will stop them. Until deleted, such a pod keeps its last status.
     */
    @Test
    void aTerminatingPodOfADeletedNodeIsDeletedByThePodGarbageCollector() {
        cluster.addSimulatedNode(new NodeBuilder().withNewMetadata().withName("doomed").endMetadata().build());
        running("orphan", "doomed");

        client.nodes().withName("doomed").delete();
        await().until(() -> client.nodes().withName("doomed").get() == null);
        assertThat(phase("orphan")).isEqualTo("Running");
        client.pods().withName("orphan").delete();

        await().until(() -> phase("orphan"), "Gone"::equals);
    }

    private record Event(Watcher.Action action, Pod pod) {
    }

    private static Watch watch(String pod, List<Event> events) {
        return client.pods().withName(pod).watch(Fixtures.watcher((action, p) -> events.add(new Event(action, p))));
    }

    /** The events after the watch's initial ADDED of the pod as it was. */
    private static List<Event> changes(List<Event> events) {
        return events.stream().filter(e -> e.action() != Watcher.Action.ADDED).toList();
    }

    private static void running(String name, String node) {
        Pod pod = Fixtures.pod(name);
        pod.getSpec().setRestartPolicy("Always");
        client.resource(pod).create();
        bind(name, node);
        await().until(() -> phase(name), "Running"::equals);
    }

    private static OwnerReference ownerReference(HasMetadata owner) {
        return new OwnerReferenceBuilder().withApiVersion(owner.getApiVersion()).withKind(owner.getKind())
                .withName(owner.getMetadata().getName()).withUid(owner.getMetadata().getUid()).build();
    }
}
