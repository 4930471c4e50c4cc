package dev.muster.scheduler;

import dev.muster.api.scheduling.v1alpha1.PodGroup;
import dev.muster.api.scheduling.v1alpha1.PodGroupSchedulingConstraints;
import dev.muster.api.scheduling.v1alpha1.TopologyConstraint;
import dev.muster.gang.GangVerdict;
import io.fabric8.kubernetes.api.model.NodeBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.function.UnaryOperator;

import static dev.muster.scheduler.Patience.PATIENCE;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/** Inter-pod affinity, host ports, topology spread and gang topology on the local cluster, from pod specs as users write them. */
@Tag("emulator")
class InterPodScenarioTest extends SchedulerScenario {
    private static final String ZONE = "topology.kubernetes.io/zone";
    private static final String RACK = "topology.muster.dev/rack";

    /** Each pod labelled app=spread and required on a node without another app=spread pod. */
    private static final UnaryOperator<Pod> ONE_PER_NODE = pod -> new PodBuilder(pod)
            .editMetadata().addToLabels("app", "spread").endMetadata()
            .editSpec().withNewAffinity().withNewPodAntiAffinity().addNewRequiredDuringSchedulingIgnoredDuringExecution()
            .withNewLabelSelector().addToMatchLabels("app", "spread").endLabelSelector()
            .withTopologyKey("kubernetes.io/hostname").endRequiredDuringSchedulingIgnoredDuringExecution()
            .endPodAntiAffinity().endAffinity().endSpec().build();

    /** Labels node-0 and node-1 with the first value, node-2 and node-3 with the second. */
    private void labelHalves(String key, String first, String second) {
        for (int n = 0; n < 4; n++) {
            String value = n < 2 ? first : second;
            client.nodes().withName("node-" + n).edit(node -> new NodeBuilder(node).editMetadata()
                    .addToLabels(key, value).endMetadata().build());
        }
    }

    @Test
    void fourPodsThatMustSpreadOnePerNodeWaitOnThreeNodesAndTakeFourWhenAFourthJoins() {
        startCluster(3, "16");
        createGang("spread", 4, null, 4, "1", ONE_PER_NODE);

        startScheduler();

        await().atMost(PATIENCE).until(() -> verdict("spread").isPresent());
        assertThat(verdict("spread")).hasValueSatisfying(v -> {
            assertThat(v.outcome()).isEqualTo(GangVerdict.Outcome.UNSCHEDULABLE);
            assertThat(v.message()).startsWith("0/3 nodes are available: 3 node(s) didn't match pod anti-affinity rules.");
        });
        staysSo("spread", () -> assertThat(bound("spread")).isEmpty());

        cluster.addSimulatedNode(new NodeBuilder().withNewMetadata().withName("node-3").endMetadata().build());

        await().atMost(PATIENCE).untilAsserted(() -> assertThat(bound("spread")).hasSize(4));
        assertThat(bound("spread")).extracting(p -> p.getSpec().getNodeName()).doesNotHaveDuplicates();
    }

    @Test
    void podsAskingForTheSameHostPortTakeDifferentNodesAndTheOneLeftOverSaysWhy() {
        startCluster(2, "16");
        UnaryOperator<Pod> port8080 = pod -> new PodBuilder(pod).editSpec().editFirstContainer().addNewPort()
                .withContainerPort(80).withHostPort(8080).endPort().endContainer().endSpec().build();
        createGang("web", 2, null, 3, "1", port8080);

        startScheduler();

        await().atMost(PATIENCE).untilAsserted(() -> assertThat(bound("web")).hasSize(2));
        assertThat(bound("web")).extracting(p -> p.getSpec().getNodeName()).doesNotHaveDuplicates();
        await().atMost(PATIENCE).untilAsserted(() -> assertThat(client.pods().inNamespace(NS).withName("web-worker-2")
                .get().getStatus().getConditions()).anySatisfy(c -> {
                    assertThat(c.getType()).isEqualTo("PodScheduled");
                    assertThat(c.getMessage()).isEqualTo(
                            "0/2 nodes are available: 2 node(s) didn't have free ports for the requested pod ports.");
                }));
        staysSo("web", () -> assertThat(bound("web")).hasSize(2));
    }

    @Test
    void sixPodsSpreadOverTwoZonesWithMaxSkewOneLandThreeAndThree() {
        startCluster(4, "16");
        labelHalves(ZONE, "a", "b");
        createGang("zoned", 6, null, 6, "1", pod -> new PodBuilder(pod)
                .editMetadata().addToLabels("app", "zoned").endMetadata()
                .editSpec().addNewTopologySpreadConstraint().withMaxSkew(1).withTopologyKey(ZONE)
                .withWhenUnsatisfiable("DoNotSchedule").withNewLabelSelector().addToMatchLabels("app", "zoned")
                .endLabelSelector().endTopologySpreadConstraint().endSpec().build());

        startScheduler();

        await().atMost(PATIENCE).untilAsserted(() -> assertThat(bound("zoned")).hasSize(6));
        assertThat(bound("zoned")).extracting(p -> client.nodes().withName(p.getSpec().getNodeName()).get()
                .getMetadata().getLabels().get(ZONE))
                .containsExactlyInAnyOrder("a", "a", "a", "b", "b", "b");
    }

    @Test
    void aGangWithPreferredAntiAffinitySpreadsOverNodesThoughBinPackingWouldStackIt() {
        startCluster(2, "16");
        createGang("soft", 2, null, 2, "1", pod -> new PodBuilder(pod)
                .editMetadata().addToLabels("app", "soft").endMetadata().editSpec().withNewAffinity()
                .withNewPodAntiAffinity().addNewPreferredDuringSchedulingIgnoredDuringExecution().withWeight(100)
                .withNewPodAffinityTerm().withNewLabelSelector().addToMatchLabels("app", "soft").endLabelSelector()
                .withTopologyKey("kubernetes.io/hostname").endPodAffinityTerm()
                .endPreferredDuringSchedulingIgnoredDuringExecution().endPodAntiAffinity().endAffinity().endSpec()
                .build());

        startScheduler();

        await().atMost(PATIENCE).untilAsserted(() -> assertThat(bound("soft")).hasSize(2));
        assertThat(bound("soft")).extracting(p -> p.getSpec().getNodeName()).doesNotHaveDuplicates();
        // The preference is scored now, so the verdict no longer says it was left out.
        assertThat(verdict("soft")).hasValueSatisfying(v -> assertThat(v.message()).isEqualTo(
                "2 pod(s) placed or bound; minMember 2 met."));
    }

    @Test
    void aGangRequiredInOneRackThatFitsOnlyAcrossTwoRacksWaitsAndItsVerdictNamesTheConstraint() {
        startCluster(4, "4");
        labelHalves(RACK, "r1", "r2");
        createGang("racked", 3, null, 3, "3", UnaryOperator.identity());
        client.resources(PodGroup.class).inNamespace(NS).withName("racked").edit(podGroup -> {
            PodGroupSchedulingConstraints constraints = new PodGroupSchedulingConstraints();
            constraints.setTopology(List.of(new TopologyConstraint(RACK)));
            podGroup.getSpec().setSchedulingConstraints(constraints);
            return podGroup;
        });

        startScheduler();

        await().atMost(PATIENCE).until(() -> verdict("racked").isPresent());
        assertThat(verdict("racked")).hasValueSatisfying(v -> assertThat(v.message()).startsWith(
                "No single domain of " + RACK + " holds the 3 pod(s) the quorum still needs"));
        staysSo("racked", () -> assertThat(bound("racked")).isEmpty());
    }
}
