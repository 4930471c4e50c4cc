package dev.muster.scheduler.core.placement;

import dev.muster.scheduler.core.CoreFixtures;
import dev.muster.scheduler.core.cluster.ClusterSnapshot;
import dev.muster.scheduler.core.cluster.ClusterState;
import dev.muster.scheduler.core.cluster.NodeState;
import dev.muster.scheduler.core.model.GangInfo;
import dev.muster.scheduler.core.model.HostPort;
import dev.muster.scheduler.core.model.InterPodTerms;
import dev.muster.scheduler.core.model.NodeInfo;
import dev.muster.scheduler.core.model.NodeSelectorRequirement;
import dev.muster.scheduler.core.model.PlacementConstraints;
import dev.muster.scheduler.core.model.PodAffinityTerm;
import dev.muster.scheduler.core.model.PodInfo;
import dev.muster.scheduler.core.model.ResourceVector;
import dev.muster.scheduler.core.model.SpreadConstraint;
import dev.muster.scheduler.core.model.Taint;
import dev.muster.scheduler.core.model.Toleration;
import dev.muster.scheduler.core.model.WeightedPodAffinityTerm;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;

import static dev.muster.scheduler.core.CoreFixtures.GI;
import static dev.muster.scheduler.core.CoreFixtures.gang;
import static dev.muster.scheduler.core.CoreFixtures.pending;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * Inter-pod terms and host ports are judged from per-domain counts kept up to date as trials place and
 * discard pods, nodes are found by walking the per-shape heaps, and ScheduleAnyway spread and preferred
 * inter-pod affinity are scored from the same counts over the nodes that pass. None of it may change a
 * decision: on random clusters with running pods and sequences of gangs carrying affinities and
 * anti-affinities (required and preferred, by namespace names and namespaceSelectors), host ports and
 * topology spread constraints of both kinds, the trial places exactly as a plain scan of every node per pod that
 * evaluates and scores every term against every pod directly.
 */
class InterPodShortcutsTest {
    private static final String HOST = "kubernetes.io/hostname";
    private static final String ZONE = "zone";
    private static final String[] APPS = {"a", "b", "c"};
    private static final String[] KEYS = {HOST, ZONE};
    private static final Taint TAINT = new Taint("dedicated", "x", Taint.NO_SCHEDULE);
    /** Pods' namespaces: two with labels a namespaceSelector selects, one the scheduler has no labels of. */
    private static final String[] NAMESPACES = {"ns", "ns-b", "ns-c"};

    @Test
    void placesExactlyLikeAScanThatEvaluatesEveryTermDirectly() {
        for (int seed = 0; seed < 400; seed++) {
            placesExactlyLikeADirectScan(seed);
        }
    }

    private static void placesExactlyLikeADirectScan(long seed) {
        Random random = new Random(seed);
        List<NodeInfo> nodes = new ArrayList<>();
        for (int i = 0; i < 2 + random.nextInt(10); i++) {
            String name = String.format("node-%02d", i);
            Map<String, String> labels = new HashMap<>(Map.of(HOST, name));
            if (random.nextInt(6) > 0) {
                labels.put(ZONE, "z" + random.nextInt(3));
            }
            nodes.add(new NodeInfo(name, labels, ResourceVector.builder().cpuMillis(1000L * (2 + random.nextInt(15)))
                    .memoryBytes(GI * 32).pods(2 + random.nextInt(12)).build(), true, false,
                    random.nextInt(6) == 0 ? List.of(TAINT) : List.of()));
        }
        ClusterState state = new ClusterState();
        ClusterState referenceState = new ClusterState();
        nodes.forEach(state::putNode);
        nodes.forEach(referenceState::putNode);
        for (ClusterState each : List.of(state, referenceState)) {
            each.putNamespace("ns", Map.of("team", "a"));
            each.putNamespace("ns-b", Map.of("team", "b"));
        }
        GangInfo running = gang("running", 1);
        for (int p = 0; p < random.nextInt(8); p++) {
            PodInfo pod = randomPod(random, running, "running-" + p, NAMESPACES[random.nextInt(3)]);
            String node = nodes.get(random.nextInt(nodes.size())).name();
            state.occupy(node, pod);
            referenceState.occupy(node, pod);
        }
        GangTrial trial = new GangTrial(state.snapshot());
        Direct reference = new Direct(referenceState.snapshot());
        for (int g = 0; g < 1 + random.nextInt(5); g++) {
            GangInfo gang = gang("g" + g, random.nextInt(8));
            List<PodInfo> pods = new ArrayList<>();
            String namespace = NAMESPACES[random.nextInt(3)];
            PodInfo shape = randomPod(random, gang, "shape", namespace);
            for (int p = 0; p < 1 + random.nextInt(10); p++) {
                PodInfo like = random.nextInt(4) == 0 ? randomPod(random, gang, "other", namespace) : shape;
                pods.add(new PodInfo(namespace, "g" + g + "-" + p, gang.key(), "", 0, like.requests(),
                        like.constraints(), like.labels(), like.interPod()));
            }

            GangPlacement result = trial.attempt(pending(gang, pods));
            List<PodPlacement> expected = reference.place(pods, gang.minMember());

            assertThat(result.placed()).as("seed %d gang %d", seed, g).isEqualTo(expected != null);
            if (result.placed()) {
                assertThat(result.placements()).as("seed %d gang %d", seed, g).isEqualTo(expected);
            }
        }
    }

    private static PodInfo randomPod(Random random, GangInfo gang, String name, String namespace) {
        Map<String, String> labels = random.nextInt(5) == 0 ? Map.of() : Map.of("app", APPS[random.nextInt(3)]);
        List<PodAffinityTerm> affinity = new ArrayList<>();
        List<PodAffinityTerm> anti = new ArrayList<>();
        List<HostPort> ports = new ArrayList<>();
        if (random.nextInt(3) == 0) {
            affinity.add(randomTerm(random));
        }
        for (int t = 0; t < random.nextInt(3); t++) {
            anti.add(randomTerm(random));
        }
        List<SpreadConstraint> spread = new ArrayList<>();
        for (int c = 0; c < (random.nextInt(3) == 0 ? 1 + random.nextInt(2) : 0); c++) {
            spread.add(new SpreadConstraint(1 + random.nextInt(2), KEYS[random.nextInt(2)],
                    List.of(new NodeSelectorRequirement("app", NodeSelectorRequirement.Operator.In,
                            List.of(APPS[random.nextInt(3)]))), 1 + random.nextInt(4), random.nextBoolean(),
                    random.nextBoolean()));
        }
        List<SpreadConstraint> softSpread = new ArrayList<>();
        for (int c = 0; c < (random.nextInt(3) == 0 ? 1 + random.nextInt(2) : 0); c++) {
            softSpread.add(new SpreadConstraint(1 + random.nextInt(3), KEYS[random.nextInt(2)],
                    List.of(new NodeSelectorRequirement("app", NodeSelectorRequirement.Operator.In,
                            List.of(APPS[random.nextInt(3)]))), 1, random.nextBoolean(), random.nextBoolean()));
        }
        List<WeightedPodAffinityTerm> preferred = new ArrayList<>();
        List<WeightedPodAffinityTerm> preferredAnti = new ArrayList<>();
        for (int t = 0; t < (random.nextInt(3) == 0 ? 1 + random.nextInt(2) : 0); t++) {
            preferred.add(new WeightedPodAffinityTerm(1 + random.nextInt(100), randomTerm(random)));
        }
        for (int t = 0; t < (random.nextInt(3) == 0 ? 1 + random.nextInt(2) : 0); t++) {
            preferredAnti.add(new WeightedPodAffinityTerm(1 + random.nextInt(100), randomTerm(random)));
        }
        PlacementConstraints constraints = new PlacementConstraints(
                random.nextInt(4) == 0 ? Map.of(ZONE, "z" + random.nextInt(3)) : Map.of(), List.of(),
                random.nextBoolean() ? List.of(new Toleration("dedicated", Toleration.EXISTS, null, null)) : List.of());
        if (random.nextInt(3) == 0) {
            ports.add(new HostPort(random.nextBoolean() ? null : "10.0.0." + random.nextInt(2),
                    random.nextBoolean() ? "TCP" : "UDP", 80 + random.nextInt(2)));
        }
        return new PodInfo(namespace, name, gang.key(), "", 0,
                ResourceVector.builder().cpuMillis(500L * (1 + random.nextInt(6))).build(),
                constraints, labels, new InterPodTerms(affinity, anti, ports, spread, softSpread, preferred,
                preferredAnti));
    }

    /**
     * Mostly a label to match in namespace ns; sometimes only a NotIn or an Exists, which selects pods
     * without any In; sometimes in the namespaces a namespaceSelector selects, besides one it names.
     */
    private static PodAffinityTerm randomTerm(Random random) {
        String key = KEYS[random.nextInt(2)];
        return switch (random.nextInt(7)) {
            case 5 -> new PodAffinityTerm(PodAffinityTerm.ofLabels(Map.of("app", APPS[random.nextInt(3)]), "ns", key)
                    .selector(), random.nextBoolean() ? java.util.Set.of("ns-c") : java.util.Set.of(), false,
                    List.of(new NodeSelectorRequirement("team", NodeSelectorRequirement.Operator.In,
                            List.of(random.nextBoolean() ? "a" : "b"))), key);
            case 6 -> new PodAffinityTerm(List.of(new NodeSelectorRequirement("app",
                    NodeSelectorRequirement.Operator.Exists, List.of())), java.util.Set.of(), false,
                    List.of(new NodeSelectorRequirement("team", NodeSelectorRequirement.Operator.NotIn,
                            List.of("a"))), key);
            case 0 -> new PodAffinityTerm(List.of(new NodeSelectorRequirement("app",
                    NodeSelectorRequirement.Operator.NotIn, List.of(APPS[random.nextInt(3)]))), java.util.Set.of("ns"),
                    false, key);
            case 1 -> new PodAffinityTerm(List.of(new NodeSelectorRequirement("app",
                    NodeSelectorRequirement.Operator.Exists, List.of())), java.util.Set.of(), true, key);
            default -> PodAffinityTerm.ofLabels(Map.of("app", APPS[random.nextInt(3)]), "ns", key);
        };
    }

    /**
     * Places pod by pod on the best node that passes every filter, evaluated over all pods each time; a
     * pod with ScheduleAnyway spread scores as kube-scheduler adds it to the resource score.
     */
    private static final class Direct {
        private final ClusterSnapshot snapshot;
        /** Per node name, the pods on it, starting from the snapshot's. */
        private final Map<String, List<PodInfo>> pods = new HashMap<>();

        private boolean selects(PodAffinityTerm term, PodInfo pod) {
            return term.matches(pod, snapshot.namespaceLabels());
        }

        Direct(ClusterSnapshot snapshot) {
            this.snapshot = snapshot;
            snapshot.nodes().forEach(n -> pods.put(n.name(), new ArrayList<>(n.snapshotPods())));
        }

        List<PodPlacement> place(List<PodInfo> gang, int minMember) {
            List<PodPlacement> placements = new ArrayList<>();
            for (PodInfo pod : gang) {
                List<NodeState> candidates = new ArrayList<>();
                for (NodeState node : snapshot.nodeArray()) {
                    if (pod.constraints().rejection(node.info()) == null && node.slotsFor(pod.requests()) > 0
                            && portsFree(pod, node) && spreadHolds(pod, node) && affinityHolds(pod, node)) {
                        candidates.add(node);
                    }
                }
                Map<NodeState, Long> spreadScores = spreadScores(pod, candidates);
                Map<NodeState, Long> affinityScores = affinityScores(pod, candidates);
                boolean scored = !pod.interPod().softSpread().isEmpty() || affinityScores != null;
                NodeState best = null;
                double bestScore = Double.NEGATIVE_INFINITY;
                for (NodeState node : candidates) {
                    double score = !scored ? node.mostAllocatedScore(pod.requests())
                            : node.mostAllocatedScore(pod.requests()) * (100.0 / NodeState.resourcesScored(pod.requests()))
                            + (spreadScores.get(node) + (affinityScores == null ? 0 : affinityScores.get(node)));
                    if (score > bestScore) {
                        best = node;
                        bestScore = score;
                    }
                }
                if (best != null) {
                    best.place(pod.requests());
                    pods.get(best.name()).add(pod);
                    placements.add(new PodPlacement(pod, best.name()));
                }
            }
            if (placements.size() >= minMember) {
                return placements;
            }
            for (PodPlacement placement : placements) {
                snapshot.node(placement.nodeName()).orElseThrow().unplace(placement.pod().requests());
                pods.get(placement.nodeName()).remove(placement.pod());
            }
            return null;
        }

        private boolean portsFree(PodInfo pod, NodeState node) {
            for (PodInfo other : pods.get(node.name())) {
                for (HostPort held : other.interPod().hostPorts()) {
                    for (HostPort wanted : pod.interPod().hostPorts()) {
                        if (wanted.conflictsWith(held)) {
                            return false;
                        }
                    }
                }
            }
            return true;
        }

        /**
         * kube-scheduler's PodTopologySpread score ×2 for the ScheduleAnyway constraints, per candidate, as
         * its PreScore, Score and NormalizeScore compute it, counting pods one by one.
         */
        private Map<NodeState, Long> spreadScores(PodInfo pod, List<NodeState> candidates) {
            List<SpreadConstraint> soft = pod.interPod().softSpread();
            Map<NodeState, Long> raw = new HashMap<>();
            List<NodeState> scored = candidates.stream()
                    .filter(n -> soft.stream().allMatch(c -> n.info().labels().containsKey(c.topologyKey()))).toList();
            double[] weights = new double[soft.size()];
            for (int c = 0; c < soft.size(); c++) {
                String key = soft.get(c).topologyKey();
                long size = key.equals(HOST) ? scored.size()
                        : scored.stream().map(n -> n.info().labels().get(key)).distinct().count();
                weights[c] = Math.log(size + 2);
            }
            for (NodeState node : scored) {
                double sum = 0;
                for (int c = 0; c < soft.size(); c++) {
                    SpreadConstraint constraint = soft.get(c);
                    long count = 0;
                    if (constraint.topologyKey().equals(HOST)) {
                        count = pods.get(node.name()).stream()
                                .filter(p -> p.namespace().equals(pod.namespace()) && constraint.selects(p)).count();
                    } else {
                        String value = node.info().labels().get(constraint.topologyKey());
                        for (NodeState other : snapshot.nodeArray()) {
                            NodeInfo info = other.info();
                            boolean eligible = soft.stream().allMatch(k -> info.labels().containsKey(k.topologyKey()))
                                    && (!constraint.honorNodeAffinity() || pod.constraints().matchesNodeAffinity(info))
                                    && (!constraint.honorTaints() || pod.constraints().untoleratedTaint(info) == null);
                            if (eligible && value.equals(info.labels().get(constraint.topologyKey()))) {
                                count += pods.get(other.name()).stream()
                                        .filter(p -> p.namespace().equals(pod.namespace()) && constraint.selects(p))
                                        .count();
                            }
                        }
                    }
                    sum += count * weights[c] + (constraint.maxSkew() - 1);
                }
                raw.put(node, Math.round(sum));
            }
            long min = raw.values().stream().min(Long::compare).orElse(0L);
            long max = raw.values().stream().max(Long::compare).orElse(0L);
            Map<NodeState, Long> normalised = new HashMap<>();
            for (NodeState node : candidates) {
                Long score = raw.get(node);
                normalised.put(node, 2 * (score == null ? 0 : max == 0 ? 100 : 100 * (max + min - score) / max));
            }
            return normalised;
        }

        /**
         * kube-scheduler's InterPodAffinity score ×2 per candidate, from every pod one by one: the pod's
         * preferred terms against the pods in each domain, and the preferred terms and required affinity
         * (weight 1) of the pods that select it; {@code null} when the pod has no preferred terms and no
         * pod's term selects it, which the fast path leaves to the resource score alone.
         */
        private Map<NodeState, Long> affinityScores(PodInfo pod, List<NodeState> candidates) {
            boolean concerned = !pod.interPod().preferredAffinity().isEmpty()
                    || !pod.interPod().preferredAntiAffinity().isEmpty();
            Map<NodeState, Long> raw = new HashMap<>();
            for (NodeState node : candidates) {
                long score = 0;
                for (NodeState other : snapshot.nodeArray()) {
                    for (PodInfo existing : pods.get(other.name())) {
                        for (WeightedPodAffinityTerm t : pod.interPod().preferredAffinity()) {
                            score += sameDomain(node, other, t.term()) && selects(t.term(), existing) ? t.weight() : 0;
                        }
                        for (WeightedPodAffinityTerm t : pod.interPod().preferredAntiAffinity()) {
                            score -= sameDomain(node, other, t.term()) && selects(t.term(), existing) ? t.weight() : 0;
                        }
                        for (WeightedPodAffinityTerm t : existing.interPod().preferredAffinity()) {
                            concerned |= selectsFrom(other, t.term(), pod);
                            score += sameDomain(node, other, t.term()) && selects(t.term(), pod) ? t.weight() : 0;
                        }
                        for (WeightedPodAffinityTerm t : existing.interPod().preferredAntiAffinity()) {
                            concerned |= selectsFrom(other, t.term(), pod);
                            score -= sameDomain(node, other, t.term()) && selects(t.term(), pod) ? t.weight() : 0;
                        }
                        for (PodAffinityTerm t : existing.interPod().affinity()) {
                            concerned |= selectsFrom(other, t, pod);
                            score += sameDomain(node, other, t) && selects(t, pod) ? 1 : 0;
                        }
                    }
                }
                raw.put(node, score);
            }
            if (!concerned) {
                return null;
            }
            long min = raw.values().stream().min(Long::compare).orElse(0L);
            long max = raw.values().stream().max(Long::compare).orElse(0L);
            Map<NodeState, Long> normalised = new HashMap<>();
            for (NodeState node : candidates) {
                normalised.put(node, 2 * (max > min ? (long) (100.0 * ((double) (raw.get(node) - min) / (max - min))) : 0));
            }
            return normalised;
        }

        private static boolean sameDomain(NodeState node, NodeState other, PodAffinityTerm term) {
            String value = node.info().labels().get(term.topologyKey());
            return value != null && value.equals(other.info().labels().get(term.topologyKey()));
        }

        /** Whether the term of a pod on the node scores the pod: it selects it and the node has the key. */
        private boolean selectsFrom(NodeState owner, PodAffinityTerm term, PodInfo pod) {
            return owner.info().labels().containsKey(term.topologyKey()) && selects(term, pod);
        }

        /** Every DoNotSchedule constraint, counting the selected pods of eligible nodes one by one. */
        private boolean spreadHolds(PodInfo pod, NodeState node) {
            List<SpreadConstraint> spread = pod.interPod().spread();
            for (SpreadConstraint constraint : spread) {
                String value = node.info().labels().get(constraint.topologyKey());
                if (value == null) {
                    return false;
                }
                Map<String, Integer> perDomain = new HashMap<>();
                for (NodeState other : snapshot.nodeArray()) {
                    NodeInfo info = other.info();
                    boolean eligible = spread.stream().allMatch(c -> info.labels().containsKey(c.topologyKey()))
                            && (!constraint.honorNodeAffinity() || pod.constraints().matchesNodeAffinity(info))
                            && (!constraint.honorTaints() || pod.constraints().untoleratedTaint(info) == null);
                    if (eligible) {
                        int selected = (int) pods.get(other.name()).stream()
                                .filter(p -> p.namespace().equals(pod.namespace()) && constraint.selects(p)).count();
                        perDomain.merge(info.labels().get(constraint.topologyKey()), selected, Integer::sum);
                    }
                }
                int min = perDomain.size() < constraint.minDomains() ? 0
                        : perDomain.values().stream().min(Integer::compare).orElse(0);
                int here = perDomain.getOrDefault(value, 0);
                if (here + (constraint.selects(pod) ? 1 : 0) - min > constraint.maxSkew()) {
                    return false;
                }
            }
            return true;
        }

        private boolean affinityHolds(PodInfo pod, NodeState node) {
            Map<String, String> labels = node.info().labels();
            List<PodAffinityTerm> affinity = pod.interPod().affinity();
            boolean together = true;
            for (PodAffinityTerm term : affinity) {
                if (!labels.containsKey(term.topologyKey())) {
                    return false;
                }
                together &= anyInDomain(node, term.topologyKey(), p -> affinity.stream().allMatch(t -> selects(t, p)));
            }
            if (!together) {
                boolean selectedAnywhere = false;
                for (PodAffinityTerm term : affinity) {
                    for (NodeState other : snapshot.nodeArray()) {
                        selectedAnywhere |= other.info().labels().containsKey(term.topologyKey())
                                && pods.get(other.name()).stream()
                                .anyMatch(p -> affinity.stream().allMatch(t -> selects(t, p)));
                    }
                }
                if (selectedAnywhere || !affinity.stream().allMatch(t -> selects(t, pod))) {
                    return false;
                }
            }
            for (PodAffinityTerm term : pod.interPod().antiAffinity()) {
                if (labels.containsKey(term.topologyKey()) && anyInDomain(node, term.topologyKey(), p -> selects(term, p))) {
                    return false;
                }
            }
            for (NodeState other : snapshot.nodeArray()) {
                for (PodInfo owner : pods.get(other.name())) {
                    for (PodAffinityTerm term : owner.interPod().antiAffinity()) {
                        String value = labels.get(term.topologyKey());
                        if (value != null && value.equals(other.info().labels().get(term.topologyKey()))
                                && selects(term, pod)) {
                            return false;
                        }
                    }
                }
            }
            return true;
        }

        private boolean anyInDomain(NodeState node, String key, java.util.function.Predicate<PodInfo> selects) {
            String value = node.info().labels().get(key);
            for (NodeState other : snapshot.nodeArray()) {
                if (value.equals(other.info().labels().get(key)) && pods.get(other.name()).stream().anyMatch(selects)) {
                    return true;
                }
            }
            return false;
        }
    }
}
