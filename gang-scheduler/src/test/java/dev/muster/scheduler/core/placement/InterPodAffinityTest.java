package dev.muster.scheduler.core.placement;

import dev.muster.scheduler.core.CoreFixtures;
import dev.muster.scheduler.core.cluster.ClusterSnapshot;
import dev.muster.scheduler.core.cluster.ClusterState;
import dev.muster.scheduler.core.model.GangInfo;
import dev.muster.scheduler.core.model.GroupKey;
import dev.muster.scheduler.core.model.InterPodTerms;
import dev.muster.scheduler.core.model.NodeInfo;
import dev.muster.scheduler.core.model.NodeSelectorRequirement;
import dev.muster.scheduler.core.model.PlacementConstraints;
import dev.muster.scheduler.core.model.PodAffinityTerm;
import dev.muster.scheduler.core.model.PodInfo;
import dev.muster.scheduler.core.model.ResourceVector;
import dev.muster.scheduler.core.model.WeightedPodAffinityTerm;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import static dev.muster.scheduler.core.CoreFixtures.ZONE;
import static dev.muster.scheduler.core.CoreFixtures.cluster;
import static dev.muster.scheduler.core.CoreFixtures.cpu;
import static dev.muster.scheduler.core.CoreFixtures.gang;
import static dev.muster.scheduler.core.CoreFixtures.node;
import static dev.muster.scheduler.core.CoreFixtures.pending;
import static dev.muster.scheduler.core.CoreFixtures.requestedByNode;
import static org.assertj.core.api.Assertions.assertThat;

/** Required inter-pod affinity and anti-affinity, against the cluster's pods and the gang's own. */
class InterPodAffinityTest {
    private static final String HOST = "kubernetes.io/hostname";

    static NodeInfo labelled(String name, String zone) {
        return node(name, 16, Map.of(HOST, name, ZONE, zone));
    }

    /** Pods labelled app=name that must not share a node with each other. */
    static List<PodInfo> spreadOnePerNode(GangInfo gang, int count) {
        Map<String, String> labels = Map.of("app", gang.key().name());
        InterPodTerms terms = new InterPodTerms(List.of(),
                List.of(PodAffinityTerm.ofLabels(labels, "ns", HOST)), List.of());
        List<PodInfo> pods = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            pods.add(new PodInfo("ns", gang.key().name() + "-" + i, gang.key(), "", 0, cpu(1),
                    PlacementConstraints.NONE, labels, terms));
        }
        return pods;
    }

    private static PodInfo labelledPod(GangInfo gang, String name, Map<String, String> labels, InterPodTerms terms) {
        return new PodInfo("ns", name, gang.key(), "", 0, cpu(1), PlacementConstraints.NONE, labels, terms);
    }

    @Test
    void preferredAffinityDrawsAPodToItsPeersZoneAgainstBinPacking() {
        ClusterState state = cluster(labelled("node-0", "a"), labelled("node-1", "b"));
        GangInfo db = gang("db", 1);
        state.occupy("node-1", labelledPod(db, "db", Map.of("app", "db"), InterPodTerms.NONE));
        state.occupy("node-0", labelledPod(db, "filler", Map.of(), InterPodTerms.NONE));
        state.occupy("node-0", labelledPod(db, "filler-2", Map.of(), InterPodTerms.NONE));
        GangInfo gang = gang("web", 1);
        InterPodTerms nearDb = new InterPodTerms(List.of(), List.of(), List.of(), List.of(), List.of(),
                List.of(new WeightedPodAffinityTerm(10, PodAffinityTerm.ofLabels(Map.of("app", "db"), "ns", ZONE))),
                List.of());

        GangPlacement result = new GangTrial(state.snapshot()).attempt(pending(gang,
                List.of(labelledPod(gang, "web", Map.of(), nearDb))));

        // Bin-packing alone prefers the fuller node-0; the preference is worth more.
        assertThat(result.placements()).extracting(PodPlacement::nodeName).containsExactly("node-1");
    }

    @Test
    void anExistingPodsPreferredAntiAffinityKeepsAPodItSelectsAwayWhenThereIsRoomElsewhere() {
        ClusterState state = cluster(labelled("node-0", "a"), labelled("node-1", "b"));
        GangInfo loner = gang("loner", 1);
        state.occupy("node-0", labelledPod(loner, "loner", Map.of(), new InterPodTerms(List.of(), List.of(),
                List.of(), List.of(), List.of(), List.of(),
                List.of(new WeightedPodAffinityTerm(50, PodAffinityTerm.ofLabels(Map.of("app", "web"), "ns", HOST))))));
        GangInfo gang = gang("web", 1);

        GangPlacement result = new GangTrial(state.snapshot()).attempt(pending(gang,
                List.of(labelledPod(gang, "web", Map.of("app", "web"), InterPodTerms.NONE))));

        assertThat(result.placements()).extracting(PodPlacement::nodeName).containsExactly("node-1");
    }

    @Test
    void aGangThatMustSpreadOnePerNodeOverTooFewNodesIsPlacedNowhereAndLeavesNoTrace() {
        ClusterSnapshot snapshot = cluster(labelled("node-0", "a"), labelled("node-1", "a"), labelled("node-2", "b"))
                .snapshot();
        Map<String, ResourceVector> before = requestedByNode(snapshot);
        GangInfo gang = gang("workers", 4);
        GangTrial trial = new GangTrial(snapshot);

        GangPlacement result = trial.attempt(pending(gang, spreadOnePerNode(gang, 4)));

        assertThat(result.outcome()).isEqualTo(GangPlacement.Outcome.NOT_ENOUGH_RESOURCES);
        assertThat(result.unschedulable().message())
                .isEqualTo("0/3 nodes are available: 3 node(s) didn't match pod anti-affinity rules.");
        assertThat(requestedByNode(snapshot)).isEqualTo(before);
        // The discarded pods' terms are gone too: three of the same pods now fit, one per node.
        GangInfo smaller = gang("workers", 3);
        GangPlacement retry = trial.attempt(pending(smaller, spreadOnePerNode(smaller, 3)));
        assertThat(retry.placements()).extracting(PodPlacement::nodeName)
                .containsExactlyInAnyOrder("node-0", "node-1", "node-2");
    }

    @Test
    void aGangThatMustSpreadOnePerNodeTakesDistinctNodesThoughBinPackingWouldStackThem() {
        ClusterSnapshot snapshot = cluster(labelled("node-0", "a"), labelled("node-1", "a"), labelled("node-2", "b"),
                labelled("node-3", "b")).snapshot();
        GangInfo gang = gang("workers", 4);

        GangPlacement result = new GangTrial(snapshot).attempt(pending(gang, spreadOnePerNode(gang, 4)));

        assertThat(result.placed()).isTrue();
        assertThat(result.placements()).extracting(PodPlacement::nodeName)
                .containsExactlyInAnyOrder("node-0", "node-1", "node-2", "node-3");
    }

    @Test
    void aRunningPodsAntiAffinityKeepsThePodsItSelectsOffItsDomain() {
        ClusterState state = cluster(labelled("node-0", "a"), labelled("node-1", "b"));
        GangInfo loner = gang("loner", 1);
        // The running pod wants no app=web pod in its zone; the new pod has no terms of its own.
        state.occupy("node-0", labelledPod(loner, "loner", Map.of("app", "loner"), new InterPodTerms(List.of(),
                List.of(PodAffinityTerm.ofLabels(Map.of("app", "web"), "ns", ZONE)), List.of())));
        GangInfo web = gang("web", 1);

        GangPlacement result = new GangTrial(state.snapshot()).attempt(pending(web,
                List.of(labelledPod(web, "web-0", Map.of("app", "web"), InterPodTerms.NONE))));

        assertThat(result.placements()).extracting(PodPlacement::nodeName).containsExactly("node-1");
    }

    @Test
    void aRunningPodsAntiAffinityNamesTheReasonWhenItLeavesNoNode() {
        ClusterState state = cluster(labelled("node-0", "a"));
        GangInfo loner = gang("loner", 1);
        state.occupy("node-0", labelledPod(loner, "loner", Map.of(), new InterPodTerms(List.of(),
                List.of(PodAffinityTerm.ofLabels(Map.of("app", "web"), "ns", ZONE)), List.of())));
        GangInfo web = gang("web", 1);

        GangPlacement result = new GangTrial(state.snapshot()).attempt(pending(web,
                List.of(labelledPod(web, "web-0", Map.of("app", "web"), InterPodTerms.NONE))));

        assertThat(result.unschedulable().message())
                .isEqualTo("0/1 nodes are available: 1 node(s) didn't satisfy existing pods anti-affinity rules.");
    }

    @Test
    void affinityFollowsTheSelectedPodsIntoTheirZone() {
        ClusterState state = cluster(labelled("node-0", "a"), labelled("node-1", "b"), labelled("node-2", "b"));
        GangInfo db = gang("db", 1);
        state.occupy("node-2", labelledPod(db, "db-0", Map.of("app", "db"), InterPodTerms.NONE));
        GangInfo app = gang("app", 2);
        InterPodTerms nearDb = new InterPodTerms(List.of(PodAffinityTerm.ofLabels(Map.of("app", "db"), "ns", ZONE)),
                List.of(), List.of());

        GangPlacement result = new GangTrial(state.snapshot()).attempt(pending(app, List.of(
                labelledPod(app, "app-0", Map.of(), nearDb), labelledPod(app, "app-1", Map.of(), nearDb))));

        assertThat(result.placements()).extracting(PodPlacement::nodeName).hasSize(2).isSubsetOf("node-1", "node-2");
    }

    @Test
    void affinityToNothingFailsUnlessThePodIsTheFirstOfItsOwnGroup() {
        ClusterSnapshot snapshot = cluster(labelled("node-0", "a"), labelled("node-1", "b")).snapshot();
        GangInfo gang = gang("together", 3);
        InterPodTerms togetherInAZone = new InterPodTerms(
                List.of(PodAffinityTerm.ofLabels(Map.of("app", "together"), "ns", ZONE)), List.of(), List.of());
        InterPodTerms nearDb = new InterPodTerms(List.of(PodAffinityTerm.ofLabels(Map.of("app", "db"), "ns", ZONE)),
                List.of(), List.of());
        GangTrial trial = new GangTrial(snapshot);

        GangPlacement lonely = trial.attempt(pending(gang("lonely", 1),
                List.of(labelledPod(gang("lonely", 1), "lonely-0", Map.of("app", "x"), nearDb))));
        List<PodInfo> pods = new ArrayList<>();
        for (int i = 0; i < 3; i++) {
            pods.add(labelledPod(gang, "together-" + i, Map.of("app", "together"), togetherInAZone));
        }
        GangPlacement together = trial.attempt(pending(gang, pods));

        assertThat(lonely.unschedulable().message())
                .isEqualTo("0/2 nodes are available: 2 node(s) didn't match pod affinity rules.");
        assertThat(together.placements()).extracting(PodPlacement::nodeName).containsOnly("node-0");
    }

    @Test
    void aTermSelectsOnlyPodsOfItsNamespacesUnlessItSelectsAll() {
        PodInfo other = new PodInfo("other", "p", GroupKey.podGroup("other", "g"), "", 0, cpu(1),
                PlacementConstraints.NONE, Map.of("app", "web"), InterPodTerms.NONE);
        PodAffinityTerm own = PodAffinityTerm.ofLabels(Map.of("app", "web"), "ns", HOST);
        PodAffinityTerm all = new PodAffinityTerm(own.selector(), java.util.Set.of(), true, HOST);
        PodAffinityTerm noSelector = new PodAffinityTerm(null, java.util.Set.of(), true, HOST);

        assertThat(own.matches(other, Map.of())).isFalse();
        assertThat(all.matches(other, Map.of())).isTrue();
        assertThat(noSelector.matches(other, Map.of())).isFalse();
    }

    @Test
    void aNamespaceSelectorAddsTheNamespacesWhoseLabelsItSelects() {
        PodInfo inOther = new PodInfo("other", "p", GroupKey.podGroup("other", "g"), "", 0, cpu(1),
                PlacementConstraints.NONE, Map.of("app", "web"), InterPodTerms.NONE);
        PodInfo inNs = new PodInfo("ns", "q", GroupKey.podGroup("ns", "g"), "", 0, cpu(1),
                PlacementConstraints.NONE, Map.of("app", "web"), InterPodTerms.NONE);
        List<NodeSelectorRequirement> teamA = List.of(new NodeSelectorRequirement("team",
                NodeSelectorRequirement.Operator.In, List.of("a")));
        PodAffinityTerm term = new PodAffinityTerm(PodAffinityTerm.ofLabels(Map.of("app", "web"), "ns", HOST)
                .selector(), java.util.Set.of("ns"), false, teamA, HOST);
        Map<String, Map<String, String>> labels = Map.of("other", Map.of("team", "a"), "ns", Map.of("team", "b"));

        assertThat(term.matches(inOther, labels)).as("selected by its namespace's labels").isTrue();
        assertThat(term.matches(inNs, labels)).as("named, whatever its labels").isTrue();
        assertThat(term.matches(inOther, Map.of("other", Map.of("team", "b")))).isFalse();
        assertThat(term.matches(inOther, Map.of())).as("a namespace without known labels").isFalse();
    }

    @Test
    void anAntiAffinityTermKeepsAPodOffPodsOfTheNamespacesItsSelectorSelects() {
        ClusterState state = cluster(labelled("node-0", "z"), labelled("node-1", "z"));
        state.putNamespace("team-a", Map.of("team", "a"));
        state.putNamespace("team-b", Map.of("team", "b"));
        GangInfo runningGang = gang("running", 1);
        state.occupy("node-0", new PodInfo("team-a", "web-a", runningGang.key(), "", 0, cpu(1),
                PlacementConstraints.NONE, Map.of("app", "web"), InterPodTerms.NONE));
        state.occupy("node-1", new PodInfo("team-b", "web-b", runningGang.key(), "", 0, cpu(1),
                PlacementConstraints.NONE, Map.of("app", "web"), InterPodTerms.NONE));
        PodAffinityTerm awayFromTeamA = new PodAffinityTerm(PodAffinityTerm.ofLabels(Map.of("app", "web"), "ns", HOST)
                .selector(), java.util.Set.of(), false, List.of(new NodeSelectorRequirement("team",
                NodeSelectorRequirement.Operator.In, List.of("a"))), HOST);
        GangInfo gang = gang("g", 1);
        PodInfo pod = new PodInfo("ns", "p", gang.key(), "", 0, cpu(1), PlacementConstraints.NONE, Map.of(),
                new InterPodTerms(List.of(), List.of(awayFromTeamA), List.of()));

        GangPlacement result = new GangTrial(state.snapshot()).attempt(pending(gang, List.of(pod)));

        assertThat(result.placements()).extracting(PodPlacement::nodeName).containsExactly("node-1");
    }
}
