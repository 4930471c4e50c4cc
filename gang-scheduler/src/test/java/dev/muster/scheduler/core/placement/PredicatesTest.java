package dev.muster.scheduler.core.placement;

import dev.muster.scheduler.core.CoreFixtures;
import dev.muster.scheduler.core.cluster.ClusterSnapshot;
import dev.muster.scheduler.core.model.GangInfo;
import dev.muster.scheduler.core.model.NodeInfo;
import dev.muster.scheduler.core.model.NodeSelectorRequirement.Operator;
import dev.muster.scheduler.core.model.NodeSelectorRequirement;
import dev.muster.scheduler.core.model.NodeSelectorTerm;
import dev.muster.scheduler.core.model.PlacementConstraints;
import dev.muster.scheduler.core.model.PodInfo;
import dev.muster.scheduler.core.model.ResourceVector;
import dev.muster.scheduler.core.model.Taint;
import dev.muster.scheduler.core.model.Toleration;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;

import static dev.muster.scheduler.core.CoreFixtures.GI;
import static dev.muster.scheduler.core.CoreFixtures.cluster;
import static dev.muster.scheduler.core.CoreFixtures.cpu;
import static dev.muster.scheduler.core.CoreFixtures.gang;
import static dev.muster.scheduler.core.CoreFixtures.pending;
import static org.assertj.core.api.Assertions.assertThat;

/** Taints and tolerations, required node affinity and ephemeral-storage, as kube-scheduler filters. */
class PredicatesTest {
    private static final ResourceVector EIGHT_CPU = ResourceVector.builder().cpuMillis(8000).memoryBytes(8 * GI)
            .pods(110).set("ephemeral-storage", 100 * GI).build();
    private static final Taint INFRA_NO_SCHEDULE = new Taint("dedicated", "infra", Taint.NO_SCHEDULE);
    private static final Taint UNREACHABLE = new Taint("node.kubernetes.io/unreachable", null, Taint.NO_EXECUTE);

    private static NodeInfo node(String name, Map<String, String> labels, Taint... taints) {
        return new NodeInfo(name, labels, EIGHT_CPU, true, false, List.of(taints));
    }

    private static List<String> nodesAllowedFor(PlacementConstraints constraints, NodeInfo... nodes) {
        GangInfo gang = gang("g", 1);
        PodInfo pod = new PodInfo("ns", "p", gang.key(), "", 0, cpu(1), constraints);
        return java.util.Arrays.stream(nodes).filter(n -> pod.constraints().rejection(n) == null)
                .map(NodeInfo::name).toList();
    }

    private static PlacementConstraints tolerating(Toleration... tolerations) {
        return new PlacementConstraints(Map.of(), List.of(), List.of(tolerations));
    }

    private static PlacementConstraints affinity(NodeSelectorTerm... terms) {
        return new PlacementConstraints(Map.of(), List.of(terms), List.of());
    }

    private static NodeSelectorTerm term(NodeSelectorRequirement... requirements) {
        return new NodeSelectorTerm(List.of(requirements), List.of());
    }

    private static NodeSelectorRequirement req(String key, Operator operator, String... values) {
        return new NodeSelectorRequirement(key, operator, List.of(values));
    }

    @Test
    void noScheduleAndNoExecuteTaintsKeepPodsOffButPreferNoScheduleDoesNot() {
        NodeInfo clean = node("a", Map.of());
        NodeInfo infra = node("b", Map.of(), INFRA_NO_SCHEDULE);
        NodeInfo unreachable = node("c", Map.of(), UNREACHABLE);
        NodeInfo preferNot = node("d", Map.of(), new Taint("spot", "true", Taint.PREFER_NO_SCHEDULE));

        assertThat(nodesAllowedFor(PlacementConstraints.NONE, clean, infra, unreachable, preferNot))
                .containsExactly("a", "d");
    }

    @Test
    void tolerationsMatchByKeyOperatorValueAndEffect() {
        NodeInfo infra = node("infra", Map.of(), INFRA_NO_SCHEDULE);
        NodeInfo unreachable = node("unreachable", Map.of(), UNREACHABLE);

        assertThat(nodesAllowedFor(tolerating(new Toleration("dedicated", "Equal", "infra", "NoSchedule")),
                infra, unreachable)).containsExactly("infra");
        assertThat(nodesAllowedFor(tolerating(new Toleration("dedicated", null, "gpu", null)), infra)).isEmpty();
        assertThat(nodesAllowedFor(tolerating(new Toleration("dedicated", "Exists", null, "NoExecute")), infra))
                .as("wrong effect").isEmpty();
        assertThat(nodesAllowedFor(tolerating(new Toleration("node.kubernetes.io/unreachable", "Exists", null,
                null)), infra, unreachable)).containsExactly("unreachable");
        assertThat(nodesAllowedFor(tolerating(new Toleration(null, "Exists", null, null)), infra, unreachable))
                .as("an empty key with Exists tolerates everything").containsExactly("infra", "unreachable");
    }

    @Test
    void requiredNodeAffinitySupportsEveryOperator() {
        NodeInfo a = node("a", Map.of("zone", "z1", "gpu-gen", "3"));
        NodeInfo b = node("b", Map.of("zone", "z2", "gpu-gen", "5", "spot", "true"));
        NodeInfo c = node("c", Map.of("zone", "z3"));

        assertThat(nodesAllowedFor(affinity(term(req("zone", Operator.In, "z1", "z3"))), a, b, c))
                .containsExactly("a", "c");
        assertThat(nodesAllowedFor(affinity(term(req("zone", Operator.NotIn, "z1"))), a, b, c))
                .containsExactly("b", "c");
        assertThat(nodesAllowedFor(affinity(term(req("spot", Operator.NotIn, "true"))), a, b, c))
                .as("NotIn holds where the label is missing").containsExactly("a", "c");
        assertThat(nodesAllowedFor(affinity(term(req("spot", Operator.Exists))), a, b, c)).containsExactly("b");
        assertThat(nodesAllowedFor(affinity(term(req("spot", Operator.DoesNotExist))), a, b, c))
                .containsExactly("a", "c");
        assertThat(nodesAllowedFor(affinity(term(req("gpu-gen", Operator.Gt, "3"))), a, b, c)).containsExactly("b");
        assertThat(nodesAllowedFor(affinity(term(req("gpu-gen", Operator.Lt, "5"))), a, b, c)).containsExactly("a");
        assertThat(nodesAllowedFor(affinity(term(req("zone", Operator.Gt, "1"))), a, b, c))
                .as("Gt on a label that is not a number").isEmpty();
    }

    @Test
    void affinityTermsAreOredTheirExpressionsAndedAndAnEmptyTermMatchesNothing() {
        NodeInfo a = node("a", Map.of("zone", "z1", "rack", "r1"));
        NodeInfo b = node("b", Map.of("zone", "z1", "rack", "r2"));
        NodeInfo c = node("c", Map.of("zone", "z2", "rack", "r1"));

        assertThat(nodesAllowedFor(affinity(term(req("zone", Operator.In, "z1"), req("rack", Operator.In, "r1")),
                term(req("zone", Operator.In, "z2"))), a, b, c)).containsExactly("a", "c");
        assertThat(nodesAllowedFor(affinity(new NodeSelectorTerm(List.of(), List.of())), a, b, c)).isEmpty();
        assertThat(nodesAllowedFor(affinity(new NodeSelectorTerm(List.of(),
                List.of(req(NodeSelectorTerm.NODE_NAME_FIELD, Operator.In, "b")))), a, b, c)).containsExactly("b");
    }

    @Test
    void nodeSelectorAndAffinityMustBothHold() {
        NodeInfo a = node("a", Map.of("zone", "z1", "rack", "r1"));
        NodeInfo b = node("b", Map.of("zone", "z1", "rack", "r2"));
        PlacementConstraints both = new PlacementConstraints(Map.of("zone", "z1"),
                List.of(term(req("rack", Operator.In, "r2"))), List.of());

        assertThat(nodesAllowedFor(both, a, b)).containsExactly("b");
    }

    @Test
    void explainsTaintsAffinityAndEphemeralStorageInKubeSchedulerWords() {
        ClusterSnapshot snapshot = cluster(node("a-infra", Map.of("zone", "z1"), INFRA_NO_SCHEDULE),
                node("b-other-zone", Map.of("zone", "z2")), node("c-small-disk", Map.of("zone", "z1")))
                .snapshot();
        GangInfo gang = gang("g", 1);
        ResourceVector bigDisk = ResourceVector.builder().cpuMillis(1000).set("ephemeral-storage", 200 * GI).build();
        PodInfo pod = new PodInfo("ns", "p", gang.key(), "", 0, bigDisk,
                affinity(term(req("zone", Operator.In, "z1"))));

        GangPlacement result = new GangTrial(snapshot).attempt(pending(gang, List.of(pod)));

        assertThat(result.placed()).isFalse();
        assertThat(result.unschedulable().message()).isEqualTo("0/3 nodes are available: 1 Insufficient "
                + "ephemeral-storage, 1 node(s) didn't match Pod's node affinity/selector, "
                + "1 node(s) had untolerated taint {dedicated: infra}.");
    }

    @Test
    void ephemeralStorageIsCountedLikeAnyRequestedResource() {
        ClusterSnapshot snapshot = cluster(node("a", Map.of()), node("b", Map.of())).snapshot();
        GangInfo gang = gang("g", 3);
        ResourceVector disk = ResourceVector.builder().cpuMillis(100).set("ephemeral-storage", 60 * GI).build();

        GangPlacement result = new GangTrial(snapshot).attempt(pending(gang, CoreFixtures.pods(gang, "w", 3, disk)));

        assertThat(result.placed()).as("100Gi per node takes one 60Gi pod each").isFalse();
        assertThat(result.unschedulable().reasonCounts()).containsExactly(Map.entry("Insufficient ephemeral-storage", 2));
    }
}
