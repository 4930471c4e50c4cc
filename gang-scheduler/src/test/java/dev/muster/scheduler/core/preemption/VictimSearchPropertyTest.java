package dev.muster.scheduler.core.preemption;

import dev.muster.scheduler.core.CoreFixtures;
import dev.muster.scheduler.core.QueueFixtures;
import dev.muster.scheduler.core.cluster.ClusterSnapshot;
import dev.muster.scheduler.core.cluster.ClusterState;
import dev.muster.scheduler.core.model.GangInfo;
import dev.muster.scheduler.core.model.GroupKey;
import dev.muster.scheduler.core.model.InterPodTerms;
import dev.muster.scheduler.core.model.NodeInfo;
import dev.muster.scheduler.core.model.PendingGang;
import dev.muster.scheduler.core.model.PlacementConstraints;
import dev.muster.scheduler.core.model.PodInfo;
import dev.muster.scheduler.core.model.ResourceVector;
import dev.muster.scheduler.core.model.RunningGang;
import dev.muster.scheduler.core.placement.GangPlacement;
import dev.muster.scheduler.core.placement.GangTrial;
import dev.muster.scheduler.core.placement.NodeScoring;
import dev.muster.scheduler.core.placement.PodPlacement;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Random;
import java.util.Set;

import static dev.muster.scheduler.core.QueueFixtures.GPU;
import static dev.muster.scheduler.core.QueueFixtures.T0;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * On random small clusters, running gangs and preemptors, every victim set the search returns is checked
 * against plain arithmetic and fresh trials: it leaves no gang with {@code 0 < running < minMember} or a
 * task below its minimum, stays within the budget, really makes the preemptor fit node by node, and is
 * minimal (without any one of its units the preemptor no longer fits, or places fewer pods), and breaks
 * several gangs only if no gang taken whole alone makes room. When the search returns none, the
 * snapshot is exactly as before; and, where the search claims completeness (see {@link VictimSearch}), an
 * exhaustive search over every gang-safe victim set finds none either. Victims and preemptors are drawn
 * in different shapes: any mix, small cpu-heavy or memory-heavy pods, pods of half or all a node's GPUs
 * asking for little cpu.
 */
class VictimSearchPropertyTest {

    @Test
    void victimSetsAreGangSafeVerifiedAndMinimal() {
        int found = 0;
        int completeChecked = 0;
        for (int seed = 0; seed < 3000; seed++) {
            Outcome outcome = check(new Case(new Random(seed)), seed);
            found += outcome == Outcome.FOUND ? 1 : 0;
            completeChecked += outcome == Outcome.NONE_CHECKED ? 1 : 0;
        }
        // The random cases exercise both sides, not one.
        assertThat(found).isGreaterThan(400);
        assertThat(completeChecked).isGreaterThan(250);
    }

    private enum Outcome { FOUND, NONE_CHECKED, NONE_NOT_CHECKED }

    private static Outcome check(Case c, int seed) {
        ClusterSnapshot snapshot = c.state(Set.of()).snapshot();
        Map<String, ResourceVector> before = CoreFixtures.requestedByNode(snapshot);
        boolean[] refused = new boolean[1];
        VictimBudget budget = c.budget();
        VictimBudget watched = (victim, pods, taken) -> {
            boolean allows = budget.allows(victim, pods, taken);
            refused[0] |= !allows;
            return allows;
        };

        Optional<Preemption> found = new VictimSearch(new GangTrial(snapshot, NodeScoring.MOST_ALLOCATED, null))
                .find(c.preemptor, c.running, watched);

        if (found.isEmpty()) {
            assertThat(CoreFixtures.requestedByNode(snapshot)).as("seed %d: snapshot unchanged", seed)
                    .isEqualTo(before);
            // Completeness holds where the search claims it: for a preemptor that does not fit as things are
            // and a budget that refused nothing, no gang-safe set makes it fit, unless the trial does not place
            // it with every candidate gang evicted (a trial packs greedily, so in rare cases a partial eviction
            // fits where a full one does not; the search, like the trial, does not look further).
            if (refused[0] || c.placedWith(Set.of()) >= 0) {
                return Outcome.NONE_NOT_CHECKED;
            }
            Set<PodInfo> valid = c.anyValidSet();
            if (valid != null) {
                assertThat(c.placedWith(c.allPods())).as("seed %d: missed %s", seed, valid).isNegative();
            }
            return Outcome.NONE_CHECKED;
        }
        Preemption preemption = found.get();
        Set<PodInfo> evicted = new HashSet<>();
        preemption.evictedPods().forEach(p -> evicted.add(p.pod()));
        assertThat(evicted).as("seed %d: each pod evicted once", seed).hasSize(preemption.evictedPods().size());
        for (Preemption.Victim victim : preemption.victims()) {
            assertThat(c.gangSafe(victim.key(), evicted)).as("seed %d: %s left safe", seed, victim.key()).isTrue();
            assertThat(victim.whole()).as("seed %d: %s whole", seed, victim.key())
                    .isEqualTo(c.members(victim.key()).stream().allMatch(evicted::contains));
            victim.pods().forEach(p -> assertThat(c.nodeOf.get(p.pod())).isEqualTo(p.nodeName()));
        }
        assertThat(c.withinBudget(evicted)).as("seed %d: within budget", seed).isTrue();
        assertThat(c.fitsByArithmetic(evicted, preemption.placement().placements()))
                .as("seed %d: the preemptor's placement fits node by node", seed).isTrue();
        assertThat(CoreFixtures.requestedByNode(snapshot)).as("seed %d: the snapshot keeps the preemption", seed)
                .isEqualTo(c.requestedAfter(evicted, preemption.placement().placements()));
        long broken = preemption.victims().stream().filter(Preemption.Victim::whole).count();
        if (broken > 1 && !refused[0]) {
            for (GroupKey gang : c.pods.keySet()) {
                assertThat(c.placedWith(Set.copyOf(c.members(gang))))
                        .as("seed %d: breaks %d gangs where %s alone would do", seed, broken, gang).isNegative();
            }
        }
        int placed = preemption.placement().placements().size();
        for (Set<PodInfo> unit : units(c, preemption)) {
            Set<PodInfo> without = new HashSet<>(evicted);
            without.removeAll(unit);
            assertThat(c.placedWith(without)).as("seed %d: %s is needed", seed, unit).isLessThan(placed);
        }
        return Outcome.FOUND;
    }

    /** The units of the returned set: each surplus pod on its own, each whole gang as one. */
    private static List<Set<PodInfo>> units(Case c, Preemption preemption) {
        List<Set<PodInfo>> units = new ArrayList<>();
        for (Preemption.Victim victim : preemption.victims()) {
            if (victim.whole()) {
                Set<PodInfo> all = new HashSet<>();
                victim.pods().forEach(p -> all.add(p.pod()));
                units.add(all);
            } else {
                victim.pods().forEach(p -> units.add(Set.of(p.pod())));
            }
        }
        return units;
    }

    /** One random cluster, its running gangs, a preemptor and a budget. */
    private static final class Case {
        final List<NodeInfo> nodes = new ArrayList<>();
        final Map<GroupKey, RunningGang> running = new LinkedHashMap<>();
        final Map<GroupKey, List<PodInfo>> pods = new LinkedHashMap<>();
        final Map<PodInfo, String> nodeOf = new HashMap<>();
        final PendingGang preemptor;
        /** Per queue, the GPUs that may be taken from it; absent: no limit. */
        final Map<String, Long> gpuCaps = new HashMap<>();

        Case(Random random) {
            for (int n = 0; n < 2 + random.nextInt(3); n++) {
                nodes.add(new NodeInfo("n" + n, Map.of("zone", "z" + random.nextInt(2)), ResourceVector.builder()
                        .cpuMillis(1000L * (4 + random.nextInt(12))).memoryBytes(64 * CoreFixtures.GI)
                        .pods(3 + random.nextInt(6)).set(GPU, 4L * (1 + random.nextInt(2))).build(), true, false));
            }
            ClusterState fill = CoreFixtures.cluster(nodes.toArray(NodeInfo[]::new));
            Map<String, ResourceVector> free = new HashMap<>();
            nodes.forEach(n -> free.put(n.name(), n.allocatable()));
            for (int g = 0; g < 1 + random.nextInt(3); g++) {
                GroupKey key = GroupKey.podGroup("ns", "g" + g);
                List<PodInfo> members = new ArrayList<>();
                boolean tasks = random.nextBoolean();
                Shape shape = Shape.any(random);
                for (int p = 0; p < 1 + random.nextInt(4); p++) {
                    String task = tasks ? (random.nextBoolean() ? "a" : "b") : "";
                    PodInfo pod = new PodInfo("ns", "g" + g + "-" + p, key, task, 0, shape.requests(random, 4),
                            PlacementConstraints.NONE, Map.of(), InterPodTerms.NONE, null,
                            T0.plusSeconds(random.nextInt(4)));
                    List<NodeInfo> shuffled = new ArrayList<>(nodes);
                    java.util.Collections.shuffle(shuffled, random);
                    for (NodeInfo node : shuffled) {
                        if (fill.snapshot().node(node.name()).orElseThrow().slotsFor(pod.requests()) > 0) {
                            fill.occupy(node.name(), pod);
                            nodeOf.put(pod, node.name());
                            members.add(pod);
                            break;
                        }
                    }
                }
                if (members.isEmpty()) {
                    continue;
                }
                Map<String, Integer> minTask = new HashMap<>();
                if (tasks && random.nextBoolean()) {
                    String task = random.nextBoolean() ? "a" : "b";
                    int count = (int) members.stream().filter(p -> p.task().equals(task)).count();
                    minTask.put(task, random.nextInt(count + 1));
                }
                GangInfo gang = new GangInfo(key, 1 + random.nextInt(members.size()), minTask, random.nextInt(3),
                        T0.plusSeconds(random.nextInt(3))).inQueue("q" + random.nextInt(2), null);
                running.put(key, new RunningGang(gang, T0, random.nextInt(2)));
                pods.put(key, members);
            }
            if (random.nextBoolean()) {
                gpuCaps.put("q0", (long) random.nextInt(12));
            }
            if (random.nextBoolean()) {
                gpuCaps.put("q1", (long) random.nextInt(12));
            }
            GangInfo gang = new GangInfo(GroupKey.podGroup("ns", "h"), 1, Map.of(), 1000, T0);
            PlacementConstraints constraints = random.nextInt(3) == 0
                    ? PlacementConstraints.ofNodeSelector(Map.of("zone", "z0")) : PlacementConstraints.NONE;
            List<PodInfo> pending = new ArrayList<>();
            Shape shape = Shape.any(random);
            int count = shape == Shape.GPU_HEAVY ? 1 : 1 + random.nextInt(3);
            for (int p = 0; p < count; p++) {
                pending.add(new PodInfo("ns", "h-" + p, gang.key(), "", 1000, shape.requests(random, 8), constraints));
            }
            GangInfo preemptorGang = new GangInfo(gang.key(), 1 + random.nextInt(count), Map.of(), 1000, T0);
            preemptor = CoreFixtures.pending(preemptorGang, pending);
        }

        /**
         * What the pods of a gang are like, so that victims and preemptors differ: any mix of cpu and GPUs,
         * small pods heavy on cpu or on memory with at most a GPU, or a pod of half or all a node's GPUs
         * asking for little cpu.
         */
        private enum Shape {
            MIXED, CPU_HEAVY, MEMORY_HEAVY, GPU_HEAVY;

            static Shape any(Random random) {
                return values()[random.nextInt(values().length)];
            }

            ResourceVector requests(Random random, int maxGpus) {
                ResourceVector.Builder builder = ResourceVector.builder();
                return switch (this) {
                    case MIXED -> builder.cpuMillis(500L * (1 + random.nextInt(6))).set(GPU, random.nextInt(maxGpus + 1))
                            .build();
                    case CPU_HEAVY -> builder.cpuMillis(1000L * (2 + random.nextInt(3))).set(GPU, random.nextInt(2))
                            .build();
                    case MEMORY_HEAVY -> builder.cpuMillis(500).memoryBytes(CoreFixtures.GI * (8 + random.nextInt(25)))
                            .set(GPU, random.nextInt(2)).build();
                    case GPU_HEAVY -> builder.cpuMillis(250).memoryBytes(CoreFixtures.GI)
                            .set(GPU, maxGpus / (1 + random.nextInt(2))).build();
                };
            }
        }

        VictimBudget budget() {
            return (victim, taken, takenByQueue) -> {
                Long cap = gpuCaps.get(victim.gang().queue());
                ResourceVector before = takenByQueue.get(victim.gang().queue());
                long gpus = (before == null ? 0 : before.get(GPU)) + taken.stream().mapToLong(p -> p.requests().get(GPU))
                        .sum();
                return cap == null || gpus <= cap;
            };
        }

        Set<PodInfo> allPods() {
            Set<PodInfo> all = new HashSet<>();
            pods.values().forEach(all::addAll);
            return all;
        }

        List<PodInfo> members(GroupKey key) {
            return pods.get(key);
        }

        /** The cluster with the evicted pods gone. */
        ClusterState state(Set<PodInfo> evicted) {
            ClusterState state = CoreFixtures.cluster(nodes.toArray(NodeInfo[]::new));
            pods.values().forEach(list -> list.stream().filter(p -> !evicted.contains(p))
                    .forEach(p -> state.occupy(nodeOf.get(p), p)));
            return state;
        }

        boolean gangSafe(GroupKey key, Set<PodInfo> evicted) {
            GangInfo gang = running.get(key).gang();
            List<PodInfo> left = members(key).stream().filter(p -> !evicted.contains(p)).toList();
            if (left.isEmpty()) {
                return true;
            }
            if (left.size() < gang.minMember()) {
                return false;
            }
            return gang.minTaskMember().entrySet().stream().allMatch(e ->
                    left.stream().filter(p -> p.task().equals(e.getKey())).count() >= e.getValue());
        }

        boolean withinBudget(Set<PodInfo> evicted) {
            Map<String, Long> taken = new HashMap<>();
            pods.forEach((key, list) -> list.stream().filter(evicted::contains).forEach(p ->
                    taken.merge(running.get(key).gang().queue(), p.requests().get(GPU), Long::sum)));
            return taken.entrySet().stream().allMatch(e -> !gpuCaps.containsKey(e.getKey())
                    || e.getValue() <= gpuCaps.get(e.getKey()));
        }

        /** A plain check: no node over its allocatable, every pod on a node it may run on, the quorum placed. */
        boolean fitsByArithmetic(Set<PodInfo> evicted, List<PodPlacement> placements) {
            Map<String, ResourceVector> requested = new HashMap<>();
            Map<String, Integer> podCount = new HashMap<>();
            pods.values().forEach(list -> list.stream().filter(p -> !evicted.contains(p)).forEach(p -> {
                requested.merge(nodeOf.get(p), p.requests(), ResourceVector::plus);
                podCount.merge(nodeOf.get(p), 1, Integer::sum);
            }));
            for (PodPlacement placement : placements) {
                NodeInfo node = nodes.stream().filter(n -> n.name().equals(placement.nodeName())).findFirst()
                        .orElseThrow();
                if (placement.pod().constraints().rejection(node) != null) {
                    return false;
                }
                requested.merge(node.name(), placement.pod().requests(), ResourceVector::plus);
                podCount.merge(node.name(), 1, Integer::sum);
            }
            for (NodeInfo node : nodes) {
                ResourceVector used = requested.getOrDefault(node.name(), ResourceVector.ZERO);
                for (String resource : List.of(ResourceVector.CPU, GPU)) {
                    if (used.get(resource) > node.allocatable().get(resource)) {
                        return false;
                    }
                }
                if (podCount.getOrDefault(node.name(), 0) > node.allocatable().get(ResourceVector.PODS)) {
                    return false;
                }
            }
            return placements.size() >= preemptor.gang().minMember();
        }

        Map<String, ResourceVector> requestedAfter(Set<PodInfo> evicted, List<PodPlacement> placements) {
            ClusterState state = state(evicted);
            placements.forEach(p -> state.occupy(p.nodeName(), p.pod()));
            return CoreFixtures.requestedByNode(state.snapshot());
        }

        /** How many of the preemptor's pods a fresh trial places with these pods evicted; -1 if it does not fit. */
        int placedWith(Set<PodInfo> evicted) {
            GangPlacement result = new GangTrial(state(evicted).snapshot()).attempt(preemptor);
            return result.placed() ? result.placements().size() : -1;
        }

        /**
         * Some gang-safe set within the budget, any subset of each gang's members, with which the preemptor
         * fits; {@code null} if none.
         */
        Set<PodInfo> anyValidSet() {
            List<List<Set<PodInfo>>> options = new ArrayList<>();
            for (GroupKey key : pods.keySet()) {
                List<PodInfo> members = members(key);
                List<Set<PodInfo>> safe = new ArrayList<>();
                for (int mask = 0; mask < 1 << members.size(); mask++) {
                    Set<PodInfo> subset = new HashSet<>();
                    for (int i = 0; i < members.size(); i++) {
                        if ((mask & 1 << i) != 0) {
                            subset.add(members.get(i));
                        }
                    }
                    if (gangSafe(key, subset)) {
                        safe.add(subset);
                    }
                }
                options.add(safe);
            }
            return search(options, 0, new HashSet<>());
        }

        private Set<PodInfo> search(List<List<Set<PodInfo>>> options, int gang, Set<PodInfo> chosen) {
            if (gang == options.size()) {
                return !chosen.isEmpty() && withinBudget(chosen) && placedWith(chosen) >= 0 ? chosen : null;
            }
            for (Set<PodInfo> option : options.get(gang)) {
                Set<PodInfo> next = new HashSet<>(chosen);
                next.addAll(option);
                Set<PodInfo> found = search(options, gang + 1, next);
                if (found != null) {
                    return found;
                }
            }
            return null;
        }
    }
}
