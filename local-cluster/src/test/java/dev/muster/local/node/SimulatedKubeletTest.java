package dev.muster.local.node;

import dev.muster.api.MusterLabels;
import dev.muster.api.PodPhase;
import dev.muster.local.Fixtures;
import dev.muster.local.KubeletClusterTests;
import dev.muster.local.Patience;
import io.fabric8.kubernetes.api.model.ContainerBuilder;
import io.fabric8.kubernetes.api.model.ContainerStatus;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.NodeBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodCondition;
import io.fabric8.kubernetes.api.model.PodStatusBuilder;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.client.Watch;
import io.fabric8.kubernetes.client.dsl.base.PatchContext;
import io.fabric8.kubernetes.client.dsl.base.PatchType;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;

import static dev.muster.local.Patience.PATIENCE;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.tuple;
import static org.awaitility.Awaitility.await;

@Tag("emulator")
class SimulatedKubeletTest extends KubeletClusterTests {
    @Test
    void boundPodRunsAndSucceeds() {
        Pod pod = Fixtures.pod("succeeds");
        pod.getSpec().getContainers().add(new ContainerBuilder().withName("sidecar").withImage("busybox").build());
        client.resource(pod).create();
        List<Pod> versions = new CopyOnWriteArrayList<>();
        try (Watch ignored = client.pods().withName("succeeds").watch(Fixtures.watcher((action, version) -> versions.add(version)))) {
            bind("succeeds", "node-1");
            await().until(() -> versions.stream().anyMatch(p -> PodPhase.of(p).name().equals("Succeeded")));
        }

        assertThat(versions).extracting((Pod p) -> PodPhase.of(p).name()).containsSubsequence("Pending", "Running", "Succeeded");
        Pod running = versions.stream().filter(p -> PodPhase.of(p).name().equals("Running")).findFirst().orElseThrow();
        assertThat(running.getStatus().getPodIP()).startsWith("10.");
        assertThat(running.getStatus().getHostIP())
                .isEqualTo(client.nodes().withName("node-1").get().getStatus().getAddresses().get(0).getAddress());
        assertThat(running.getStatus().getStartTime()).isNotNull();
        assertThat(running.getStatus().getConditions()).extracting(PodCondition::getType, PodCondition::getStatus)
                .contains(tuple("PodScheduled", "True"), tuple("Initialized", "True"),
                        tuple("ContainersReady", "True"), tuple("Ready", "True"));
        assertThat(running.getStatus().getContainerStatuses()).extracting(ContainerStatus::getName)
                .containsExactly("main", "sidecar");
        assertThat(running.getStatus().getContainerStatuses()).allSatisfy(s -> {
            assertThat(s.getReady()).isTrue();
            assertThat(s.getState().getRunning().getStartedAt()).isNotNull();
        });

        Pod succeeded = versions.get(versions.size() - 1);
        assertThat(succeeded.getStatus().getContainerStatuses()).hasSize(2).allSatisfy(s -> {
            assertThat(s.getReady()).isFalse();
            assertThat(s.getState().getTerminated().getExitCode()).isZero();
            assertThat(s.getState().getTerminated().getReason()).isEqualTo("Completed");
            assertThat(s.getState().getTerminated().getStartedAt()).isNotNull();
        });
        assertThat(succeeded.getStatus().getConditions()).filteredOn(c -> c.getType().equals("Ready"))
                .extracting(PodCondition::getStatus).containsExactly("False");
    }

    @Test
    void podWithNonZeroExitCodeFails() {
        Pod pod = Fixtures.pod("fails");
        pod.getMetadata().setAnnotations(Map.of(MusterLabels.LOCAL_EXIT_CODE, "3", MusterLabels.LOCAL_RUN_SECONDS, "0.2"));
        client.resource(pod).create();
        bind("fails", "node-0");

        await().until(() -> phase("fails"), "Failed"::equals);
        assertThat(client.pods().withName("fails").get().getStatus().getContainerStatuses()).singleElement()
                .satisfies(s -> {
                    assertThat(s.getState().getTerminated().getExitCode()).isEqualTo(3);
                    assertThat(s.getState().getTerminated().getReason()).isEqualTo("Error");
                    assertThat(s.getRestartCount()).as("restart policy Never").isZero();
                    assertThat(s.getLastState() == null ? null : s.getLastState().getTerminated()).isNull();
                });
    }

    @Test
    void exitCodeAnnotatedOnARunningPodIsHowItEnds() {
        Pod pod = Fixtures.pod("annotated-late");
        pod.getMetadata().setAnnotations(Map.of(MusterLabels.LOCAL_RUN_SECONDS, "1.5"));
        client.resource(pod).create();
        bind("annotated-late", "node-0");
        await().until(() -> phase("annotated-late"), "Running"::equals);

        client.pods().withName("annotated-late").patch(PatchContext.of(PatchType.JSON_MERGE),
                "{\"metadata\":{\"annotations\":{\"" + MusterLabels.LOCAL_EXIT_CODE + "\":\"4\"}}}");

        await().until(() -> phase("annotated-late"), phase -> !phase.equals("Running"));
        assertThat(phase("annotated-late")).isEqualTo("Failed");
        assertThat(client.pods().withName("annotated-late").get().getStatus().getContainerStatuses()).singleElement()
                .satisfies(s -> assertThat(s.getState().getTerminated().getExitCode()).isEqualTo(4));
    }

    @Test
    void unboundPodStaysPendingAndAlwaysRestartingPodKeepsRunning() {
        client.resource(Fixtures.pod("unbound")).create();
        Pod service = Fixtures.pod("service");
        service.getSpec().setRestartPolicy("Always");
        client.resource(service).create();
        // The control: a twin that differs only in its restart policy, bound with it, runs its time and ends.
        client.resource(Fixtures.pod("finite")).create();
        bind("service", "node-0");
        bind("finite", "node-0");
        await().until(() -> phase("service"), "Running"::equals);
        await().until(() -> phase("finite"), "Succeeded"::equals);

        // Several default run times (300 ms) without a change.
        await().during(Duration.ofSeconds(1)).atMost(PATIENCE).until(
                () -> phase("unbound").equals("Pending") && phase("service").equals("Running"));
    }

    @Test
    void runSecondsMakesAnAlwaysRestartingPodExitAndRestartAndLabelsWorkLikeAnnotations() {
        Pod pod = Fixtures.pod("labelled");
        pod.getSpec().setRestartPolicy("Always");
        pod.getMetadata().setLabels(Map.of(MusterLabels.LOCAL_RUN_SECONDS, "0.1", MusterLabels.LOCAL_EXIT_CODE, "1"));
        client.resource(pod).create();
        bind("labelled", "node-1");

        await().untilAsserted(() -> assertThat(client.pods().withName("labelled").get().getStatus()
                .getContainerStatuses()).singleElement().satisfies(s -> {
                    assertThat(s.getRestartCount()).isGreaterThanOrEqualTo(1);
                    assertThat(s.getLastState().getTerminated().getExitCode()).isEqualTo(1);
                }));
        assertThat(phase("labelled")).isEqualTo("Running");
    }

    @Test
    void deletedPodIsNotResurrected() {
        Pod pod = Fixtures.pod("deleted");
        client.resource(pod).create();
        // The control: a twin started with it, not deleted, has its end written, as the deleted one would have.
        client.resource(Fixtures.pod("kept")).create();
        bind("deleted", "node-0");
        bind("kept", "node-0");
        await().until(() -> phase("deleted"), "Running"::equals);

        client.pods().withName("deleted").delete();
        await().until(() -> phase("kept"), "Succeeded"::equals);

        await().during(Duration.ofMillis(600)).atMost(PATIENCE)
                .until(() -> client.pods().withName("deleted").get() == null);
    }

    @Test
    void userSuppliedNodeJoinsAndRunsPods() {
        Node gpuBox = new NodeBuilder().withNewMetadata().withName("gpu-box").endMetadata()
                .withNewStatus().addToCapacity(Map.of("cpu", new Quantity("64"), "memory", new Quantity("512Gi"),
                        "pods", new Quantity("32"), "nvidia.com/gpu", new Quantity("8"))).endStatus()
                .build();

        cluster.addSimulatedNode(gpuBox);

        Node joined = client.nodes().withName("gpu-box").get();
        assertThat(joined.getMetadata().getLabels()).containsEntry(MusterLabels.LOCAL_SIMULATED_NODE, "true")
                .containsEntry("kubernetes.io/hostname", "gpu-box");
        assertThat(joined.getStatus().getAllocatable()).isEqualTo(joined.getStatus().getCapacity())
                .containsEntry("nvidia.com/gpu", new Quantity("8"));
        assertThat(joined.getStatus().getConditions()).anySatisfy(c -> {
            assertThat(c.getType()).isEqualTo("Ready");
            assertThat(c.getStatus()).isEqualTo("True");
        });
        client.resource(Fixtures.pod("on-gpu-box")).create();
        bind("on-gpu-box", "gpu-box");
        await().until(() -> phase("on-gpu-box"), "Succeeded"::equals);
    }

    /** What a kubelet reports on its own node: the well-known labels, ephemeral storage and huge pages. */
    @Test
    void poolNodesCarryTheLabelsAndResourcesAKubeletReports() {
        Node node = client.nodes().withName(SimulatedNodes.poolNodeName(0)).get();

        assertThat(node.getMetadata().getLabels()).containsEntry("kubernetes.io/os", "linux")
                .containsEntry("kubernetes.io/arch", "amd64").containsEntry("kubernetes.io/hostname", "node-0")
                .doesNotContainKey("node.kubernetes.io/instance-type");
        assertThat(node.getStatus().getCapacity()).containsEntry("ephemeral-storage", new Quantity("100Gi"))
                .containsEntry("hugepages-1Gi", new Quantity("0")).containsEntry("hugepages-2Mi", new Quantity("0"));
        assertThat(node.getStatus().getAllocatable()).isEqualTo(node.getStatus().getCapacity());
    }

    @Test
    void theInstanceTypeStorageAndHugePagesOfThePoolAreSettings() {
        SimulatedNodes nodes = new SimulatedNodes(Fixtures.FAST.withNodeInstanceType("m5.xlarge")
                .withNodeEphemeralStorage("20Gi").withNodeHugepages("4Gi", "512Mi").nodeShape());

        Node node = nodes.poolNode(1);

        assertThat(node.getMetadata().getLabels()).containsEntry("node.kubernetes.io/instance-type", "m5.xlarge")
                .containsEntry("kubernetes.io/hostname", "node-1");
        assertThat(node.getStatus().getAllocatable()).containsEntry("ephemeral-storage", new Quantity("20Gi"))
                .containsEntry("hugepages-1Gi", new Quantity("4Gi")).containsEntry("hugepages-2Mi", new Quantity("512Mi"));
    }

    @Test
    void aBadNodeResourceSettingIsRefusedAtOnce() {
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> Fixtures.FAST.withNodeEphemeralStorage("-1Gi"))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("nodeEphemeralStorage");
    }

    @Test
    void aUserSuppliedNodeKeepsItsOwnLabelsAndResourcesAndGetsTheMissingOnes() {
        Node arm = new NodeBuilder().withNewMetadata().withName("arm-box")
                .addToLabels("kubernetes.io/arch", "arm64").endMetadata()
                .withNewStatus().addToCapacity(Map.of("cpu", new Quantity("8"), "memory", new Quantity("32Gi"),
                        "pods", new Quantity("32"), "ephemeral-storage", new Quantity("50Gi"))).endStatus()
                .build();

        cluster.addSimulatedNode(arm);

        Node joined = client.nodes().withName("arm-box").get();
        assertThat(joined.getMetadata().getLabels()).containsEntry("kubernetes.io/arch", "arm64")
                .containsEntry("kubernetes.io/os", "linux").containsEntry("kubernetes.io/hostname", "arm-box");
        assertThat(joined.getStatus().getCapacity()).containsEntry("ephemeral-storage", new Quantity("50Gi"))
                .containsEntry("hugepages-2Mi", new Quantity("0"));
    }

    @Test
    void nodeCreatedThroughTheApiGetsAStatusAndRunsPods() {
        client.resource(Fixtures.pod("early")).create();
        bind("early", "applied-node");
        client.nodes().resource(new NodeBuilder().withNewMetadata().withName("applied-node").endMetadata().build())
                .create();

        // The node has no status at all until the kubelet has seen it.
        await().ignoreException(NullPointerException.class).untilAsserted(() -> {
            Node node = client.nodes().withName("applied-node").get();
            assertThat(node.getStatus().getCapacity()).containsEntry("cpu", new Quantity("16"));
            assertThat(node.getStatus().getAllocatable()).isEqualTo(node.getStatus().getCapacity());
            assertThat(node.getStatus().getConditions()).extracting("type").contains("Ready");
        });
        await().until(() -> phase("early"), "Succeeded"::equals);
    }

    @Test
    void podCreatedRunningOnANodeFinishesOnItsSchedule() {
        Pod pod = Fixtures.pod("already-running");
        pod.getSpec().setNodeName("node-0");
        pod.setStatus(new PodStatusBuilder().withPhase("Running").withStartTime(Instant.now().toString()).build());

        client.resource(pod).create();

        await().until(() -> phase("already-running"), "Succeeded"::equals);
    }
}
