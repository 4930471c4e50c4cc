package dev.muster.scheduler;

import dev.muster.api.MusterLabels;
import dev.muster.api.scheduling.v1alpha1.PodGroup;
import dev.muster.local.LocalCluster;
import dev.muster.local.LocalClusterConfig;
import dev.muster.gang.GangVerdict;
import dev.muster.support.Decided;
import dev.muster.support.Stillness;
import dev.muster.support.informer.SharedInformers;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.fabric8.kubernetes.api.model.NodeSelectorRequirementBuilder;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.api.model.TaintBuilder;
import io.fabric8.kubernetes.api.model.TolerationBuilder;
import io.fabric8.kubernetes.api.model.scheduling.v1.PriorityClassBuilder;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.function.UnaryOperator;
import java.util.stream.IntStream;

import static dev.muster.scheduler.Patience.PATIENCE;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Scheduling semantics on the local cluster over HTTP. The scheduler starts after a scenario's objects
 * exist, so its first cycle sees them all and the outcome does not depend on creation timing.
 */
@Tag("emulator")
class GangSchedulerScenarioTest extends SchedulerScenario {
    @Test
    void theHigherPriorityGangWinsThoughCreatedLater() {
        startCluster(1, "4");
        client.resources(io.fabric8.kubernetes.api.model.scheduling.v1.PriorityClass.class).resource(
                new PriorityClassBuilder().withNewMetadata().withName("urgent").endMetadata().withValue(1000).build())
                .create();
        createGang("routine", 2, null, 2, "2", UnaryOperator.identity());
        createGang("urgent", 2, "urgent", 2, "2", UnaryOperator.identity());

        startScheduler();

        await().atMost(PATIENCE).untilAsserted(() -> assertThat(bound("urgent")).hasSize(2));
        assertThat(verdict("routine")).hasValueSatisfying(v -> assertThat(v.reason()).isEqualTo("NotEnoughResources"));
        staysSo("routine", () -> assertThat(bound("routine")).isEmpty());
    }

    @Test
    void aBigGangThatDoesNotFitDoesNotHoldUpSmallerOnesBehindIt() {
        startCluster(3, "4");
        createGang("big", 4, null, 4, "3", UnaryOperator.identity());
        createGang("small", 2, null, 2, "1", UnaryOperator.identity());

        startScheduler();

        await().atMost(PATIENCE).untilAsserted(() -> assertThat(bound("small")).hasSize(2));
        assertThat(verdict("big")).hasValueSatisfying(v -> {
            assertThat(v.outcome()).isEqualTo(GangVerdict.Outcome.UNSCHEDULABLE);
            assertThat(v.reason()).isEqualTo("NotEnoughResources");
        });
        assertThat(bound("big")).isEmpty();
    }

    @Test
    void aGangShortOfPodsWaitsWithNotEnoughTasksUntilTheyExist() {
        startCluster(2, "4");
        createGang("mpi", 3, null, 2, "1", UnaryOperator.identity());

        startScheduler();

        await().atMost(PATIENCE).until(() -> verdict("mpi").filter(v -> "NotEnoughTasks".equals(v.reason())).isPresent());
        assertThat(bound("mpi")).isEmpty();

        client.pods().inNamespace(NS).resource(pod("mpi-worker-2", "mpi", "1", UnaryOperator.identity())).create();

        await().atMost(PATIENCE).untilAsserted(() -> assertThat(bound("mpi")).hasSize(3));
        assertThat(verdict("mpi")).hasValueSatisfying(v -> assertThat(v.outcome()).isEqualTo(GangVerdict.Outcome.SCHEDULED));
    }

    @Test
    void onlyPodsThatTolerateATaintLandOnTheTaintedNode() {
        startCluster(2, "4");
        client.nodes().withName("node-0").edit(node -> {
            if (node.getSpec() == null) {
                node.setSpec(new io.fabric8.kubernetes.api.model.NodeSpec());
            }
            node.getSpec().setTaints(List.of(new TaintBuilder().withKey("dedicated").withValue("infra")
                    .withEffect("NoSchedule").build()));
            return node;
        });
        createGang("plain", 2, null, 2, "3", UnaryOperator.identity());
        createGang("tolerant", 1, null, 1, "3", pod -> new PodBuilder(pod).editSpec().addToTolerations(
                new TolerationBuilder().withKey("dedicated").withOperator("Equal").withValue("infra")
                        .withEffect("NoSchedule").build()).endSpec().build());

        startScheduler();

        await().atMost(PATIENCE).untilAsserted(() -> assertThat(bound("tolerant"))
                .singleElement().satisfies(pod -> assertThat(pod.getSpec().getNodeName()).isEqualTo("node-0")));
        assertThat(verdict("plain")).hasValueSatisfying(v -> assertThat(v.message())
                .startsWith("0/2 nodes are available: 1 Insufficient cpu, 1 node(s) had untolerated taint "
                        + "{dedicated: infra}."));
        assertThat(bound("plain")).isEmpty();
    }

    @Test
    void requiredNodeAffinityKeepsTheGangToMatchingNodes() {
        startCluster(3, "4");
        for (int i = 0; i < 3; i++) {
            String zone = i == 2 ? "z2" : "z1";
            client.nodes().withName("node-" + i).edit(node -> {
                node.getMetadata().getLabels().put("topology.kubernetes.io/zone", zone);
                return node;
            });
        }
        createGang("zonal", 3, null, 3, "1", pod -> new PodBuilder(pod).editSpec().withNewAffinity()
                .withNewNodeAffinity().withNewRequiredDuringSchedulingIgnoredDuringExecution().addNewNodeSelectorTerm()
                .withMatchExpressions(new NodeSelectorRequirementBuilder().withKey("topology.kubernetes.io/zone")
                        .withOperator("NotIn").withValues("z1").build())
                .endNodeSelectorTerm().endRequiredDuringSchedulingIgnoredDuringExecution().endNodeAffinity()
                .endAffinity().endSpec().build());

        startScheduler();

        await().atMost(PATIENCE).untilAsserted(() -> assertThat(bound("zonal")).hasSize(3)
                .allSatisfy(pod -> assertThat(pod.getSpec().getNodeName()).isEqualTo("node-2")));
    }

    @Test
    void aGangIsAdmittedNodeByNodeNotByItsSum() {
        cluster = LocalCluster.start(LocalClusterConfig.defaults().withNodes(3).withNodeCpu("16").withNodeMemory("64Gi")
                .withNodeGpus(4).withDefaultRunTime(Duration.ofMinutes(10)));
        client = cluster.client();
        // 12 GPUs free in total for 12 requested, but no node has the 6 one pod needs.
        createGang("llm", 2, null, 2, "1", pod -> new PodBuilder(pod).editSpec().editFirstContainer().editResources()
                .addToRequests("nvidia.com/gpu", new Quantity("6")).addToLimits("nvidia.com/gpu", new Quantity("6"))
                .endResources().endContainer().endSpec().build());

        startScheduler();

        await().atMost(PATIENCE).until(() -> verdict("llm").isPresent());
        assertThat(verdict("llm")).hasValueSatisfying(v -> {
            assertThat(v.outcome()).isEqualTo(GangVerdict.Outcome.UNSCHEDULABLE);
            assertThat(v.message()).startsWith("0/3 nodes are available: 3 Insufficient nvidia.com/gpu.");
        });
        staysSo("llm", () -> assertThat(bound("llm")).isEmpty());
    }

    @Test
    void aGangFarFromItsQuorumBacksOffAndIsTriedAgainAfterwards() {
        startCluster(3, "4");
        createGang("big", 4, null, 4, "3", UnaryOperator.identity());

        startScheduler(config -> config.withPodGroupBackoff(Duration.ofSeconds(4)));

        await().atMost(PATIENCE).until(() -> verdict("big").filter(v -> v.message().contains("Backing off until"))
                .isPresent());
        cluster.addSimulatedNode(new io.fabric8.kubernetes.api.model.NodeBuilder().withNewMetadata()
                .withName("node-3").endMetadata().build());
        // The control: a pod that fits only on the new node is bound there, so the scheduler has seen it.
        client.pods().inNamespace(NS).resource(new PodBuilder(pod("on-node-3", "witness", "1", UnaryOperator.identity()))
                .editMetadata().withLabels(Map.of()).endMetadata()
                .editSpec().addToNodeSelector("kubernetes.io/hostname", "node-3").endSpec().build()).create();
        Stillness.holds(PATIENCE, "a pod for node-3 bound there", () -> "node-3".equals(client.pods().inNamespace(NS)
                        .withName("on-node-3").get().getSpec().getNodeName()),
                Duration.ofSeconds(1), () -> assertThat(bound("big")).isEmpty());

        await().atMost(PATIENCE).untilAsserted(() -> assertThat(bound("big")).hasSize(4));
    }

    @Test
    void theHeadGangNearItsQuorumHoldsItsRoomForTheWaitingTimeThenReleasesIt() {
        startCluster(3, "4");
        createGang("near", 4, null, 4, "3", UnaryOperator.identity());

        startScheduler(config -> config.withPodGroupRejectPercentage(30).withPermitWaitingTime(Duration.ofSeconds(4)));

        await().atMost(PATIENCE).until(() -> verdict("near").filter(v -> v.message().contains("Reserved 3 of the 4"))
                .isPresent());
        createGang("small", 1, null, 1, "3", UnaryOperator.identity());
        Stillness.holds(PATIENCE, "the scheduler decided on small", Decided.again(board, NS, "small"),
                Duration.ofSeconds(1), () -> assertThat(bound("small")).isEmpty());

        await().atMost(PATIENCE).untilAsserted(() -> assertThat(bound("small")).hasSize(1));
        assertThat(bound("near")).isEmpty();
        assertThat(verdict("near")).hasValueSatisfying(v -> assertThat(v.reason()).isEqualTo("NotEnoughResources"));
    }

    @Test
    void aPodGroupsScheduleTimeoutEndsItsReservationBeforeThePermitWaitingTime() {
        startCluster(3, "4");
        createGang("near", 4, null, 4, "3", UnaryOperator.identity());
        client.resources(PodGroup.class).inNamespace(NS).withName("near").edit(podGroup -> {
            podGroup.getSpec().setScheduleTimeoutSeconds(2);
            return podGroup;
        });

        startScheduler(config -> config.withPodGroupRejectPercentage(30).withPermitWaitingTime(Duration.ofMinutes(10)));

        await().atMost(PATIENCE).until(() -> verdict("near").filter(v -> v.message().contains("Reserved 3 of the 4"))
                .isPresent());
        createGang("small", 1, null, 1, "3", UnaryOperator.identity());

        // Within PATIENCE, long before the ten-minute permit waiting time: only the group's timeout can free it.
        await().atMost(PATIENCE).untilAsserted(() -> assertThat(bound("small")).hasSize(1));
        assertThat(verdict("near")).hasValueSatisfying(v -> assertThat(v.message())
                .doesNotContain("Reserved"));
    }

    /**
     * kube-scheduler's NodeResourcesFit counts ephemeral-storage and huge pages like any other resource
     * against allocatable; the local cluster's nodes report 100Gi of ephemeral storage and no huge pages.
     */
    @Test
    void ephemeralStorageAndHugePagesAreCountedAgainstAllocatable() {
        startCluster(1, "16");
        createGang("scratch", 1, null, 2, "1", pod -> withRequest(pod, "ephemeral-storage", "60Gi"));
        createGang("huge", 1, null, 1, "1", pod -> withRequest(pod, "hugepages-2Mi", "2Mi"));

        startScheduler();

        await().atMost(PATIENCE).untilAsserted(() -> assertThat(bound("scratch")).hasSize(1));
        await().atMost(PATIENCE).until(() -> verdict("huge").isPresent());
        assertThat(verdict("huge")).hasValueSatisfying(v ->
                assertThat(v.message()).startsWith("0/1 nodes are available: 1 Insufficient hugepages-2Mi."));
        staysSo("scratch", () -> assertThat(bound("scratch")).hasSize(1));
        await().atMost(PATIENCE).untilAsserted(() -> assertThat(client.pods().inNamespace(NS)
                .withLabel(MusterLabels.POD_GROUP, "scratch").list().getItems())
                .filteredOn(p -> p.getSpec().getNodeName() == null).singleElement()
                .satisfies(p -> assertThat(p.getStatus().getConditions()).anySatisfy(c ->
                        assertThat(c.getMessage()).contains("Insufficient ephemeral-storage"))));
    }

    private static Pod withRequest(Pod pod, String resource, String amount) {
        pod.getSpec().getContainers().get(0).getResources().getRequests().put(resource, new Quantity(amount));
        if (resource.startsWith("hugepages-")) {
            pod.getSpec().getContainers().get(0).getResources().setLimits(Map.of(resource, new Quantity(amount)));
        }
        return pod;
    }

    @Test
    void countsCyclesBoundPodsAndWaitingGangsByReason() {
        startCluster(2, "4");
        createGang("fits", 2, null, 2, "3", UnaryOperator.identity());
        createGang("too-big", 2, null, 2, "5", UnaryOperator.identity());
        SimpleMeterRegistry registry = new SimpleMeterRegistry();
        SharedInformers informers = new SharedInformers(client);
        scheduler = new GangScheduler(client, informers, board,
                GangSchedulerConfig.defaults().withCyclePeriod(Duration.ofMillis(200)), registry);
        scheduler.start();
        informers.start();
        try {
            await().atMost(PATIENCE).untilAsserted(() -> {
                assertThat(registry.get("muster.scheduler.pods.bound").counter().count()).isEqualTo(2);
                assertThat(registry.get("muster.scheduler.gangs.placed").counter().count()).isEqualTo(1);
                assertThat(registry.get("muster.scheduler.pending.groups").tag("reason", "NotEnoughResources")
                        .gauge().value()).isEqualTo(1);
                assertThat(registry.get("muster.scheduler.cycle").timer().count()).isPositive();
            });
            assertThat(registry.get("muster.scheduler.bind.failures").counter().count()).isZero();
        } finally {
            scheduler.stop();
            scheduler = null;
            informers.close();
        }
    }
}
