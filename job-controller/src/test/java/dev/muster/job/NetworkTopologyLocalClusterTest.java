package dev.muster.job;

import dev.muster.job.decision.NetworkTopologyTiers;
import dev.muster.api.MusterLabels;
import dev.muster.api.batch.v1alpha1.Job;
import dev.muster.api.batch.v1alpha1.NetworkTopologySpec;
import dev.muster.api.batch.v1alpha1.PartitionPolicySpec;
import dev.muster.api.batch.v1alpha1.TaskSpec;
import dev.muster.api.scheduling.v1alpha1.PodGroupSchedulingConstraints;
import dev.muster.api.scheduling.v1alpha1.TopologyConstraint;
import dev.muster.local.LocalClusterConfig;
import io.fabric8.kubernetes.api.model.Condition;
import io.fabric8.kubernetes.api.model.Event;
import io.fabric8.kubernetes.api.model.NodeBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.api.model.ResourceRequirementsBuilder;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;

import static dev.muster.api.batch.v1alpha1.JobPhase.Running;
import static dev.muster.job.Patience.PATIENCE;
import static dev.muster.job.TestJobs.task;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Volcano's network-topology fields on a cluster whose nodes are labelled per network tier, with the production
 * controller, PodGroup controller and gang scheduler, and {@code muster.scheduler.network-topology-tiers} set to
 * the switch then the spine label. Four 4-CPU nodes: node-0 alone on switch s1, node-1 and node-2 on switch s2,
 * node-3 alone on switch s3; node-0 under spine p1, the others under p2.
 */
@Tag("emulator")
class NetworkTopologyLocalClusterTest extends LocalClusterTestBase {
    private static final String SWITCH = "topology.muster.dev/switch";
    private static final String SPINE = "topology.muster.dev/spine";
    private static final Map<String, Map<String, String>> LABELS = Map.of(
            "node-0", Map.of(SWITCH, "s1", SPINE, "p1"),
            "node-1", Map.of(SWITCH, "s2", SPINE, "p2"),
            "node-2", Map.of(SWITCH, "s2", SPINE, "p2"),
            "node-3", Map.of(SWITCH, "s3", SPINE, "p2"));

    @BeforeAll
    static void start() {
        startWith(LocalClusterConfig.defaults().withNodes(4).withNodeCpu("4").withPodStartDelay(Duration.ofMillis(200)),
                JobControllerConfig.defaults().withNetworkTopologyTiers(new NetworkTopologyTiers(List.of(SWITCH, SPINE))),
                true);
        LABELS.forEach((node, labels) -> client.nodes().withName(node).edit(n -> new NodeBuilder(n).editMetadata()
                .addToLabels(labels).endMetadata().build()));
    }

    private static TaskSpec needingCpu(String cpu, TaskSpec task) {
        task.getTemplate().getSpec().getContainers().get(0).setResources(new ResourceRequirementsBuilder()
                .addToRequests("cpu", new Quantity(cpu)).build());
        return runFor("600", task);
    }

    private static NetworkTopologySpec topology(Integer highestTierAllowed, String highestTierName) {
        NetworkTopologySpec topology = new NetworkTopologySpec();
        topology.setMode(NetworkTopologySpec.HARD);
        topology.setHighestTierAllowed(highestTierAllowed);
        topology.setHighestTierName(highestTierName);
        return topology;
    }

    private static List<Condition> controllerConditions(String job) {
        List<Condition> conditions = status(job).getControllerConditions();
        return conditions == null ? List.of() : conditions;
    }

    /**
     * Two 3-CPU pods need two nodes; only switch s2 has two. Limited to tier 1 the gang lands on node-1 and node-2,
     * never across switches.
     */
    @Test
    void aGangLimitedToTierOneGetsTheSwitchTopologyAndLandsWithinOneSwitch() {
        Job job = newJob("ring", null, needingCpu("3", task("worker", 2, null)));
        job.getSpec().setNetworkTopology(topology(1, null));
        create(job);

        await().atMost(PATIENCE).until(() -> status("ring"), in(Running));
        PodGroupSchedulingConstraints constraints = podGroup("ring").orElseThrow().getSpec().getSchedulingConstraints();
        assertThat(constraints.getTopology()).extracting(TopologyConstraint::getKey).containsExactly(SWITCH);
        assertThat(constraints.getTopologyPolicy()).isEqualTo(PodGroupSchedulingConstraints.REQUIRED);
        Set<String> nodes = pods("ring").stream().map(Pod::getSpec).map(s -> s.getNodeName()).collect(Collectors.toSet());
        assertThat(nodes).containsExactlyInAnyOrder("node-1", "node-2");
        assertThat(controllerConditions("ring")).noneMatch(c -> FieldsNotHonoured.TYPE.equals(c.getType()));
    }

    @Test
    void aJobWithPartitionsAndAnUnknownTierRunsItsPartitionsAndSaysWhatIsNotHonoured() {
        TaskSpec worker = needingCpu("100m", task("worker", 2, null));
        PartitionPolicySpec partitions = TestJobs.partitions(2, 1);
        worker.setPartitionPolicy(partitions);
        Job job = newJob("parted", null, worker);
        job.getSpec().setNetworkTopology(topology(null, "rack"));
        create(job);

        await().atMost(PATIENCE).until(() -> status("parted"), in(Running));
        Condition condition = await().atMost(PATIENCE).until(() -> controllerConditions("parted").stream()
                .filter(c -> FieldsNotHonoured.TYPE.equals(c.getType())).findFirst().orElse(null), c -> c != null);
        assertThat(condition.getStatus()).isEqualTo("True");
        assertThat(condition.getReason()).isEqualTo(FieldsNotHonoured.REASON);
        assertThat(condition.getMessage()).contains(
                "spec.networkTopology: highestTierName 'rack' is not one of this cluster's tiers [" + SWITCH + ", " + SPINE + "]")
                .doesNotContain("partitionPolicy");
        assertThat(podGroup("parted").orElseThrow().getSpec().getSchedulingConstraints()).isNull();
        assertThat(podGroup("parted").orElseThrow().getSpec().getSubGroupPolicy()).singleElement().satisfies(policy -> {
            assertThat(policy.getSubGroupSize()).isEqualTo(1);
            assertThat(policy.getMatchLabelKeys()).containsExactly(MusterLabels.PARTITION_ID);
            assertThat(policy.getSchedulingConstraints()).isNull();
        });
        assertThat(pods("parted")).extracting(p -> p.getMetadata().getLabels().get(MusterLabels.PARTITION_ID))
                .containsExactlyInAnyOrder("0", "1");
        assertThat(job("parted").getSpec().getTasks().get(0).getPartitionPolicy().getPartitionSize())
                .as("kept by the API server, not pruned").isEqualTo(1);
        List<Event> warnings = await().atMost(PATIENCE).until(() -> events("parted").stream()
                .filter(e -> FieldsNotHonoured.REASON.equals(e.getReason())).toList(), list -> !list.isEmpty());
        assertThat(warnings).singleElement().satisfies(e -> {
            assertThat(e.getType()).isEqualTo("Warning");
            assertThat(e.getMessage()).isEqualTo(condition.getMessage());
        });
    }
    /**
     * Volcano's partitions: four 3-CPU pods in two partitions of two, each limited to one switch. Only switch s2
     * has two nodes, so one partition runs there and the other waits whole; the job runs with its one required
     * partition ({@code minPartitions: 1}). Packed pod by pod, the four pods would take all four nodes, splitting a
     * partition across switches.
     */
    @Test
    void eachPartitionRunsWithinOneSwitchOrWaitsWhole() {
        TaskSpec worker = needingCpu("3", task("worker", 4, null));
        PartitionPolicySpec partitions = TestJobs.partitions(2, 2);
        partitions.setMinPartitions(1);
        partitions.setNetworkTopology(topology(1, null));
        worker.setPartitionPolicy(partitions);
        create(newJob("pairs", null, worker));

        await().atMost(PATIENCE).until(() -> status("pairs"), in(Running));
        assertThat(podGroup("pairs").orElseThrow().getSpec().getSubGroupPolicy()).singleElement().satisfies(policy -> {
            assertThat(policy.getMinSubGroups()).isEqualTo(1);
            assertThat(policy.getSchedulingConstraints().getTopology()).extracting(TopologyConstraint::getKey)
                    .containsExactly(SWITCH);
        });
        List<Pod> bound = await().atMost(PATIENCE).until(() -> pods("pairs").stream()
                .filter(p -> p.getSpec().getNodeName() != null).toList(), list -> list.size() == 2);
        assertThat(bound).extracting(p -> p.getSpec().getNodeName()).containsExactlyInAnyOrder("node-1", "node-2");
        assertThat(bound.stream().map(p -> p.getMetadata().getLabels().get(MusterLabels.PARTITION_ID)).distinct())
                .as("one partition").singleElement().isNotNull();
        await().during(Duration.ofSeconds(2)).atMost(PATIENCE).until(() -> pods("pairs").stream()
                .filter(p -> p.getSpec().getNodeName() != null).count(), n -> n == 2);
        assertThat(controllerConditions("pairs")).noneMatch(c -> FieldsNotHonoured.TYPE.equals(c.getType()));

        // Switch s2 is the only one of two nodes; the other tests need it free.
        client.resources(Job.class).withName("pairs").delete();
        await().atMost(PATIENCE).until(() -> pods("pairs").isEmpty());
    }
}
