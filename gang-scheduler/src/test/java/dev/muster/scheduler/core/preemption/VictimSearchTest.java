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
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import static dev.muster.scheduler.core.QueueFixtures.GPU;
import static dev.muster.scheduler.core.QueueFixtures.T0;
import static org.assertj.core.api.Assertions.assertThat;

/** The queue preemption scenarios 3 and 4 of docs/queues.md and the victim search's rules, on nodes of 8 GPUs. */
class VictimSearchTest {

    private final ClusterState state = new ClusterState();
    private final Map<GroupKey, RunningGang> running = new LinkedHashMap<>();

    @Test
    void scenario3BigPreemptorTakesTheLowestPriorityGangWhole() {
        scenario3();
        PendingGang h = preemptor("h", 1000, 1, 1, 8);
        ClusterSnapshot snapshot = state.snapshot();

        Preemption preemption = search(snapshot).find(h, running, VictimBudget.UNLIMITED).orElseThrow();

        assertThat(preemption.victims()).hasSize(1);
        Preemption.Victim victim = preemption.victims().get(0);
        assertThat(victim.key()).isEqualTo(key("l4"));
        assertThat(victim.whole()).isTrue();
        assertThat(victim.pods()).hasSize(8).allMatch(p -> p.nodeName().equals("n4"));
        assertThat(preemption.placement().placements()).extracting(PodPlacement::nodeName).containsExactly("n4");
        assertThat(preemption.message()).isEqualTo("evicts all 8 pod(s) of podgroup ns/l4 (priority 50) to place "
                + "podgroup ns/h");
        assertThat(snapshot.node("n4").orElseThrow().free(GPU)).isZero();
    }

    @Test
    void scenario3SmallPreemptorTakesOnlySurplusPods() {
        scenario3();
        PendingGang h = preemptor("h", 1000, 4, 4, 1);

        Preemption preemption = search(state.snapshot()).find(h, running, VictimBudget.UNLIMITED).orElseThrow();

        assertThat(preemption.victims()).hasSize(1);
        Preemption.Victim victim = preemption.victims().get(0);
        assertThat(victim.key()).isEqualTo(key("l3"));
        assertThat(victim.whole()).isFalse();
        // The newest four of l3's eight pods: created one second apart, l3-7 last.
        assertThat(victim.pods()).extracting(p -> p.pod().name()).containsExactly("l3-7", "l3-6", "l3-5", "l3-4");
        assertThat(preemption.placement().placements()).hasSize(4).allMatch(p -> p.nodeName().equals("n3"));
        assertThat(preemption.message()).isEqualTo("evicts 4 surplus pod(s) of podgroup ns/l3 (priority 100) to "
                + "place podgroup ns/h");
    }

    @Test
    void scenario4TakesSurplusPodsUpToWhatTheBudgetAllows() {
        node("n1");
        node("n2");
        run("a", 0, 2, Map.of(), "n1", 4, 2, "n2", 4, 2);
        PendingGang b = preemptor("b", 0, 8, 2, 2);
        // Queue B may reclaim up to its fair share of 8 GPUs: half of 16.
        VictimBudget upToFairShare = (victim, pods, taken) -> gpus(taken.get(victim.gang().queue()))
                + pods.stream().mapToLong(p -> p.requests().get(GPU)).sum() <= 8;

        Preemption preemption = search(state.snapshot()).find(b, running, upToFairShare).orElseThrow();

        assertThat(preemption.victims()).singleElement().satisfies(victim -> {
            assertThat(victim.key()).isEqualTo(key("a"));
            assertThat(victim.whole()).isFalse();
            assertThat(victim.pods()).hasSize(4);
        });
        assertThat(preemption.placement().placements()).hasSize(4);
    }

    @Test
    void scenario4WithoutABudgetTakesEverySurplusPodTheSameGangCanUse() {
        node("n1");
        node("n2");
        run("a", 0, 2, Map.of(), "n1", 4, 2, "n2", 4, 2);
        PendingGang b = preemptor("b", 0, 8, 2, 2);

        Preemption preemption = search(state.snapshot()).find(b, running, VictimBudget.UNLIMITED).orElseThrow();

        // a keeps its minMember of 2; b places the 6 pods the room of a's 6 surplus pods holds.
        assertThat(preemption.evictedPods()).hasSize(6);
        assertThat(preemption.victims().get(0).whole()).isFalse();
        assertThat(preemption.placement().placements()).hasSize(6);
    }

    @Test
    void theBudgetIsAskedUnitByUnitWithWhatTheUnitsBeforeTakePerQueue() {
        node("n1");
        node("n2");
        run("x", 0, 2, Map.of(), "n1", 4, 2);
        run("y", 1, 4, Map.of(), "n2", 4, 2);
        running.put(key("x"), new RunningGang(running.get(key("x")).gang().inQueue("qx", null), T0, 0));
        running.put(key("y"), new RunningGang(running.get(key("y")).gang().inQueue("qy", null), T0, 0));
        List<String> asked = new ArrayList<>();
        VictimBudget recording = (victim, pods, taken) -> {
            Map<String, Long> gpus = new java.util.TreeMap<>();
            taken.forEach((queue, requests) -> gpus.put(queue, requests.get(GPU)));
            asked.add(victim.gang().key().name() + " " + pods.stream().map(PodInfo::name).toList() + " " + gpus);
            return true;
        };

        Preemption preemption = search(state.snapshot()).find(preemptor("h", 1000, 1, 1, 4), running, recording)
                .orElseThrow();

        // In preference order: x's two surplus pods, newest first (x-1 and x-0 would take x below its
        // minMember of 2 and are not offered), then x whole (what is left of it), then y whole.
        assertThat(asked.subList(0, 4)).containsExactly(
                "x [x-3] {}",
                "x [x-2] {qx=2}",
                "x [x-1, x-0] {qx=4}",
                "y [y-3, y-2, y-1, y-0] {qx=8}");
        assertThat(preemption.evictedPods()).extracting(p -> p.pod().name()).containsExactly("x-3", "x-2");
        // The set returned was asked about as a set, in order, before it was kept.
        assertThat(asked.subList(asked.size() - 2, asked.size())).containsExactly("x [x-3] {}", "x [x-2] {qx=2}");
    }

    @Test
    void aBudgetThatRefusesLeavesNothingEvicted() {
        scenario3();
        PendingGang h = preemptor("h", 1000, 1, 1, 8);
        ClusterSnapshot snapshot = state.snapshot();
        Map<String, ResourceVector> before = CoreFixtures.requestedByNode(snapshot);
        VictimBudget onlyL1 = (victim, pods, taken) -> victim.gang().key().equals(key("l1"));

        Optional<Preemption> preemption = search(snapshot).find(h, running, onlyL1);

        assertThat(preemption).hasValueSatisfying(p -> assertThat(p.victims()).singleElement()
                .satisfies(v -> assertThat(v.key()).isEqualTo(key("l1"))));
        ClusterSnapshot fresh = state.snapshot();
        assertThat(search(fresh).find(h, running, (victim, pods, taken) -> false)).isEmpty();
        assertThat(CoreFixtures.requestedByNode(fresh)).isEqualTo(before);
    }

    @Test
    void aSetThatCannotMakeRoomEvictsNothingAndLeavesTheSnapshotAsItWas() {
        scenario3();
        // 9 GPUs in one pod fit no node of 8, whatever is evicted.
        PendingGang tooBig = preemptor("h", 1000, 1, 1, 9);
        ClusterSnapshot snapshot = state.snapshot();
        Map<String, ResourceVector> before = CoreFixtures.requestedByNode(snapshot);
        GangTrial trial = new GangTrial(snapshot);

        assertThat(new VictimSearch(trial).find(tooBig, running, VictimBudget.UNLIMITED)).isEmpty();

        assertThat(CoreFixtures.requestedByNode(snapshot)).isEqualTo(before);
        // The trial runner's indexes and layout are as before too: a gang that fits nothing still fits nothing,
        // and evicting for a fitting one finds the same as on a fresh snapshot.
        assertThat(trial.attempt(preemptor("x", 0, 1, 1, 1)).placed()).isFalse();
        assertThat(new VictimSearch(trial).find(preemptor("h", 1000, 1, 1, 8), running, VictimBudget.UNLIMITED)
                .orElseThrow().victims()).extracting(Preemption.Victim::key).containsExactly(key("l4"));
    }

    @Test
    void aGangTakenInTheSameCycleIsNotTakenAgain() {
        scenario3();
        ClusterSnapshot snapshot = state.snapshot();
        GangTrial trial = new GangTrial(snapshot);
        VictimSearch search = new VictimSearch(trial);

        Preemption first = search.find(preemptor("h1", 1000, 1, 1, 8), running, VictimBudget.UNLIMITED).orElseThrow();
        Preemption second = search.find(preemptor("h2", 1000, 1, 1, 8), running, VictimBudget.UNLIMITED).orElseThrow();

        assertThat(first.victims()).extracting(Preemption.Victim::key).containsExactly(key("l4"));
        // l4 is gone and l3's surplus alone makes no whole node: l3 (priority 100, newest of the 100s) goes whole.
        assertThat(second.victims()).extracting(Preemption.Victim::key).containsExactly(key("l3"));
        assertThat(second.placement().placements()).extracting(PodPlacement::nodeName).containsExactly("n3");
    }

    @Test
    void taskMinimumsBoundTheSurplus() {
        node("n1");
        // 8 pods on n1: 6 workers (minimum 5) and 2 ps (minimum 2), minMember 4: only 1 worker is surplus.
        GangInfo gang = runningGang("t", 0, 4, Map.of("worker", 5, "ps", 2));
        List<PodInfo> pods = new ArrayList<>();
        for (int i = 0; i < 6; i++) {
            pods.add(pod(gang, "t-worker-" + i, "worker", 1, i));
        }
        pods.add(pod(gang, "t-ps-0", "ps", 1, 10));
        pods.add(pod(gang, "t-ps-1", "ps", 1, 11));
        pods.forEach(p -> state.occupy("n1", p));

        Optional<Preemption> one = search(state.snapshot())
                .find(preemptor("h", 1000, 1, 1, 1), running, VictimBudget.UNLIMITED);
        Optional<Preemption> two = search(state.snapshot())
                .find(preemptor("h", 1000, 2, 2, 1), running, VictimBudget.UNLIMITED);

        assertThat(one).hasValueSatisfying(p -> {
            assertThat(p.victims().get(0).whole()).isFalse();
            assertThat(p.evictedPods()).extracting(e -> e.pod().name()).containsExactly("t-worker-5");
        });
        // Two pods would take a ps or a second worker below its minimum: the gang goes whole.
        assertThat(two).hasValueSatisfying(p -> {
            assertThat(p.victims().get(0).whole()).isTrue();
            assertThat(p.evictedPods()).hasSize(8);
        });
    }

    @Test
    void victimsArePreferredByPriorityThenEvictionsThenNewest() {
        for (int n = 1; n <= 5; n++) {
            node("n" + n);
        }
        run("older", 10, 8, Map.of(), "n1", 8, 1);
        run("newer", 10, 8, Map.of(), "n2", 8, 1);
        run("evicted-before", 10, 8, Map.of(), "n3", 8, 1);
        running.put(key("evicted-before"), new RunningGang(running.get(key("evicted-before")).gang(), T0, 2));
        run("high", 20, 8, Map.of(), "n4", 8, 1);
        run("low", 5, 8, Map.of(), "n5", 8, 1);

        List<GroupKey> order = new ArrayList<>();
        ClusterSnapshot snapshot = state.snapshot();
        VictimSearch search = new VictimSearch(new GangTrial(snapshot));
        for (int i = 0; i < 5; i++) {
            search.find(preemptor("h" + i, 1000, 1, 1, 8), running, VictimBudget.UNLIMITED)
                    .ifPresent(p -> order.add(p.victims().get(0).key()));
        }

        assertThat(order).containsExactly(key("low"), key("newer"), key("older"), key("evicted-before"), key("high"));
    }

    @Test
    void oneGangIsBrokenRatherThanTwoOfALowerPriority() {
        node("n1");
        node("n2");
        run("a", 0, 4, Map.of(), "n1", 4, 1);
        run("b", 0, 4, Map.of(), "n1", 4, 1);
        run("c", 5, 8, Map.of(), "n2", 8, 1);

        Preemption preemption = search(state.snapshot()).find(preemptor("h", 1000, 1, 1, 8), running,
                VictimBudget.UNLIMITED).orElseThrow();

        // a and b come first by priority and make room together; c alone makes room too, breaking one gang.
        assertThat(preemption.victims()).extracting(Preemption.Victim::key).containsExactly(key("c"));
        assertThat(preemption.placement().placements()).extracting(PodPlacement::nodeName).containsExactly("n2");
    }

    @Test
    void surplusIsTakenBeforeAnyGangIsBroken() {
        node("n1");
        node("n2");
        // A low-priority gang whole on n1, a high-priority one with 4 surplus pods on n2.
        run("low", 0, 8, Map.of(), "n1", 8, 1);
        run("high", 500, 4, Map.of(), "n2", 8, 1);

        Preemption preemption = search(state.snapshot()).find(preemptor("h", 1000, 4, 4, 1), running,
                VictimBudget.UNLIMITED).orElseThrow();

        assertThat(preemption.victims()).singleElement().satisfies(v -> {
            assertThat(v.key()).isEqualTo(key("high"));
            assertThat(v.whole()).isFalse();
        });
    }

    @Test
    void aPreemptorThatFitsAlreadyNeedsNoVictims() {
        node("n1");
        run("low", 0, 4, Map.of(), "n1", 4, 1);

        assertThat(search(state.snapshot()).find(preemptor("h", 1000, 4, 4, 1), running, VictimBudget.UNLIMITED))
                .isEmpty();
    }

    @Test
    void aGangWaitingForAdmissionIsAdmittedOnTheFreedRoom() {
        scenario3();
        GangInfo gang = new GangInfo(key("h"), 2, Map.of(), 1000, T0);
        List<PodInfo> expected = List.of(pod(gang, "h-0", "", 4, 0), pod(gang, "h-1", "", 4, 0));
        PendingGang waiting = new PendingGang(gang, List.of(), 0, Map.of(), null, expected);

        Preemption preemption = search(state.snapshot()).find(waiting, running, VictimBudget.UNLIMITED).orElseThrow();

        assertThat(preemption.placement().outcome()).isEqualTo(GangPlacement.Outcome.ADMITTED);
        assertThat(preemption.victims()).extracting(Preemption.Victim::key).containsExactly(key("l4"));
        assertThat(preemption.message()).endsWith("to admit podgroup ns/h");
    }

    @Test
    void wholeGangsAreBrokenOnlyForTheQuorum() {
        node("n1");
        node("n2");
        run("half", 0, 4, Map.of(), "n1", 4, 1);
        run("low", 0, 8, Map.of(), "n2", 8, 1);
        // h places 4 of its 8 pods, its quorum, on n1 as things are; the other 4 would need low broken.
        PendingGang h = preemptor("h", 1000, 8, 4, 1);

        assertThat(search(state.snapshot()).find(h, running, VictimBudget.UNLIMITED)).isEmpty();
    }

    @Test
    void podsPlacedEarlierInTheCycleAreNotTaken() {
        node("n1");
        node("n2");
        run("r", 0, 4, Map.of(), "n1", 4, 1);
        run("low", 0, 8, Map.of(), "n2", 8, 1);
        ClusterSnapshot snapshot = state.snapshot();
        GangTrial trial = new GangTrial(snapshot);
        GangInfo r = running.get(key("r")).gang();
        List<PodInfo> more = List.of(pod(r, "r-new-0", "", 2, 100), pod(r, "r-new-1", "", 2, 101));
        assertThat(trial.attempt(new PendingGang(r, more, 4, Map.of())).placements()).hasSize(2);

        Preemption preemption = new VictimSearch(trial).find(preemptor("h", 1000, 1, 1, 8), running,
                VictimBudget.UNLIMITED).orElseThrow();

        // r's two pods placed in this cycle are not r's members: r is not a victim that frees n1.
        assertThat(preemption.victims()).extracting(Preemption.Victim::key).containsExactly(key("low"));
        assertThat(preemption.evictedPods()).noneMatch(p -> p.pod().name().startsWith("r-new"));
    }

    @Test
    void aDefaultGangLocalityPinsThePreemptorsTrialAndIsUndoneWithIt() {
        for (int n = 1; n <= 4; n++) {
            node("n" + n, Map.of("zone", n <= 2 ? "a" : "b"));
        }
        run("l1", 100, 8, Map.of(), "n1", 8, 1);
        run("l2", 100, 8, Map.of(), "n2", 8, 1);
        run("l3", 100, 4, Map.of(), "n3", 8, 1);
        run("l4", 50, 8, Map.of(), "n4", 8, 1);
        ClusterSnapshot snapshot = state.snapshot();
        Map<String, ResourceVector> before = CoreFixtures.requestedByNode(snapshot);
        VictimSearch search = new VictimSearch(new GangTrial(snapshot, NodeScoring.MOST_ALLOCATED, "zone"));

        assertThat(search.find(preemptor("big", 1000, 1, 1, 9), running, VictimBudget.UNLIMITED)).isEmpty();
        assertThat(CoreFixtures.requestedByNode(snapshot)).isEqualTo(before);

        Preemption preemption = search.find(preemptor("h", 1000, 2, 2, 4), running, VictimBudget.UNLIMITED)
                .orElseThrow();
        // Two 4-GPU pods: l3's surplus frees room for one only; l4 whole holds both.
        assertThat(preemption.victims()).extracting(Preemption.Victim::key).containsExactly(key("l4"));
        assertThat(preemption.placement().placements()).extracting(PodPlacement::nodeName).containsOnly("n4");
    }

    /** 4 nodes each full with one 8×1 gang: l1, l2 (priority 100, min 8), l3 (priority 100, min 4), l4 (50, min 8). */
    private void scenario3() {
        for (int n = 1; n <= 4; n++) {
            node("n" + n);
        }
        run("l1", 100, 8, Map.of(), "n1", 8, 1);
        run("l2", 100, 8, Map.of(), "n2", 8, 1);
        run("l3", 100, 4, Map.of(), "n3", 8, 1);
        run("l4", 50, 8, Map.of(), "n4", 8, 1);
    }

    private void node(String name) {
        node(name, Map.of());
    }

    private void node(String name, Map<String, String> labels) {
        state.putNode(new NodeInfo(name, labels, ResourceVector.builder().cpuMillis(64_000)
                .memoryBytes(256 * CoreFixtures.GI).pods(110).set(GPU, 8).build(), true, false));
    }

    /**
     * A running gang, created after the ones before it; per node (name, pod count, GPUs per pod) its pods,
     * created one second apart.
     */
    private void run(String name, int priority, int minMember, Map<String, Integer> minTaskMember, Object... layout) {
        GangInfo gang = runningGang(name, priority, minMember, minTaskMember);
        int created = 0;
        for (int i = 0; i < layout.length; i += 3) {
            for (int p = 0; p < (int) layout[i + 1]; p++) {
                state.occupy((String) layout[i], pod(gang, name + "-" + created, "", (int) layout[i + 2], created));
                created++;
            }
        }
    }

    private GangInfo runningGang(String name, int priority, int minMember, Map<String, Integer> minTaskMember) {
        GangInfo gang = new GangInfo(key(name), minMember, minTaskMember, priority, T0.plusSeconds(running.size()));
        running.put(gang.key(), new RunningGang(gang, T0, 0));
        return gang;
    }

    private static PendingGang preemptor(String name, int priority, int pods, int minMember, int gpus) {
        GangInfo gang = new GangInfo(key(name), minMember, Map.of(), priority, T0);
        List<PodInfo> pending = new ArrayList<>();
        for (int i = 0; i < pods; i++) {
            pending.add(pod(gang, name + "-" + i, "", gpus, 0));
        }
        return CoreFixtures.pending(gang, pending);
    }

    private static PodInfo pod(GangInfo gang, String name, String task, int gpus, int createdSecond) {
        return new PodInfo("ns", name, gang.key(), task, gang.priority(), ResourceVector.builder().cpuMillis(1000)
                .set(GPU, gpus).build(), PlacementConstraints.NONE, Map.of(), InterPodTerms.NONE, null,
                T0.plusSeconds(createdSecond));
    }

    private static VictimSearch search(ClusterSnapshot snapshot) {
        return new VictimSearch(new GangTrial(snapshot, NodeScoring.MOST_ALLOCATED, null));
    }

    private static GroupKey key(String name) {
        return GroupKey.podGroup("ns", name);
    }

    private static long gpus(ResourceVector taken) {
        return taken == null ? 0 : taken.get(GPU);
    }
}
