package dev.muster.scheduler.core.queue;

import dev.muster.scheduler.core.cycle.CoschedulingArgs;
import dev.muster.scheduler.core.cycle.CyclePlan;
import dev.muster.scheduler.core.cycle.QueuePlanner;
import dev.muster.scheduler.core.model.GangInfo;
import dev.muster.scheduler.core.model.GroupKey;
import dev.muster.scheduler.core.model.NamespaceQuota;
import dev.muster.scheduler.core.model.PendingGang;
import dev.muster.scheduler.core.model.PodInfo;
import dev.muster.scheduler.core.model.QuotaFacts;
import dev.muster.scheduler.core.model.QuotaScope;
import dev.muster.scheduler.core.model.ResourceVector;
import dev.muster.scheduler.core.placement.GangPlacement;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import static dev.muster.scheduler.core.QueueFixtures.T0;
import static dev.muster.scheduler.core.QueueFixtures.gpuCluster;
import static dev.muster.scheduler.core.QueueFixtures.gpus;
import static dev.muster.scheduler.core.QueueFixtures.queue;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * A Job's gang is not admitted while the pods of its quorum would take its namespace above a ResourceQuota, which
 * would refuse them at creation, as Volcano's {@code resourcequota} plugin holds a job at enqueue; what the cycle
 * admits counts for the gangs after it.
 */
class NamespaceQuotaGateTest {
    private static final String GPU = "nvidia.com/gpu";

    /** A Job's gang waiting for admission: its {@code count} pods of {@code gpusEach} GPUs do not exist yet. */
    private static PendingGang waitingJob(String namespace, String name, int minMember, int count, long gpusEach,
                                          int priority) {
        GangInfo info = new GangInfo(GroupKey.podGroup(namespace, name), minMember, Map.of(), priority, T0, null, null,
                "a", null);
        List<PodInfo> expected = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            expected.add(new PodInfo(namespace, name + "-worker-" + i, info.key(), "worker", priority, gpus(gpusEach), Map.of()));
        }
        return new PendingGang(info, List.of(), 0, Map.of(), null, expected);
    }

    private static NamespaceQuota gpuQuota(String namespace, long hard, long used) {
        return new NamespaceQuota(namespace, "compute", Map.of(GPU, hard, ResourceVector.PODS, 10L),
                Map.of(GPU, used, ResourceVector.PODS, used == 0 ? 0L : 1L), List.of());
    }

    private static CyclePlan plan(Map<String, List<NamespaceQuota>> quotas, PendingGang... gangs) {
        return plan(quotas, Map.of(), gangs);
    }

    private static CyclePlan plan(Map<String, List<NamespaceQuota>> quotas, Map<String, QuotaFacts> podFacts,
                                  PendingGang... gangs) {
        return new QueuePlanner(CoschedulingArgs.defaults()).plan(gpuCluster(4).snapshot()
                        .withNamespaceQuotas(quotas, podFacts), List.of(gangs), Map.of(),
                List.of(queue("a", null, 1, 0, null)), T0);
    }

    private static List<String> admitted(CyclePlan plan) {
        return plan.placements().stream().filter(p -> p.outcome() == GangPlacement.Outcome.ADMITTED)
                .map(p -> p.gang().key().name()).toList();
    }

    @Test
    void aGangWhosePodsWouldExceedItsNamespacesQuotaWaitsInTheApiServersWords() {
        CyclePlan plan = plan(Map.of("team-a", List.of(gpuQuota("team-a", 8, 6))), waitingJob("team-a", "train", 1, 1, 4, 0));

        assertThat(admitted(plan)).isEmpty();
        assertThat(plan.holds()).singleElement().satisfies(hold -> {
            assertThat(hold.reason()).isEqualTo(QueueHold.Reason.NAMESPACE_QUOTA);
            assertThat(hold.reason().reason()).isEqualTo("NamespaceQuotaExceeded");
            assertThat(hold.message()).isEqualTo("the pods of its quorum would exceed its namespace's quota, and the "
                    + "API server would refuse them (exceeded quota: compute, requested: requests.nvidia.com/gpu=4, "
                    + "used: requests.nvidia.com/gpu=6, limited: requests.nvidia.com/gpu=8); it is admitted once the "
                    + "namespace's pods leave room");
        });
    }

    @Test
    void whatTheCycleAdmitsCountsForTheGangsAfterItInTheSameNamespaceOnly() {
        CyclePlan plan = plan(Map.of("team-a", List.of(gpuQuota("team-a", 8, 0))),
                waitingJob("team-a", "first", 1, 1, 8, 2), waitingJob("team-a", "second", 1, 1, 8, 1),
                waitingJob("team-b", "elsewhere", 1, 1, 8, 0));

        assertThat(admitted(plan)).containsExactlyInAnyOrder("first", "elsewhere");
        assertThat(plan.holds()).singleElement().satisfies(hold -> {
            assertThat(hold.gang().key().name()).isEqualTo("second");
            assertThat(hold.message()).contains("used: requests.nvidia.com/gpu=8, limited: requests.nvidia.com/gpu=8");
        });
    }

    @Test
    void finishedPodsStillCountForTheObjectCountOfPodsButNotForPods() {
        NamespaceQuota counts = new NamespaceQuota("team-a", "counts", Map.of(ResourceVector.PODS, 2L,
                NamespaceQuota.OBJECT_COUNT_PODS, 3L), Map.of(ResourceVector.PODS, 1L, NamespaceQuota.OBJECT_COUNT_PODS, 3L),
                List.of());

        CyclePlan plan = plan(Map.of("team-a", List.of(counts)), waitingJob("team-a", "next", 1, 1, 1, 0));

        assertThat(plan.holds()).singleElement().extracting(QueueHold::message).asString()
                .contains("(exceeded quota: counts, requested: count/pods=1, used: count/pods=3, limited: count/pods=3)");
    }

    @Test
    void onlyTheQuorumCountsSoAnElasticJobIsAdmittedForWhatFits() {
        CyclePlan plan = plan(Map.of("team-a", List.of(gpuQuota("team-a", 8, 4))), waitingJob("team-a", "elastic", 1, 3, 4, 0));

        assertThat(admitted(plan)).containsExactly("elastic");
        assertThat(plan.holds()).isEmpty();
    }

    @Test
    void eachTasksMinimumIsInTheQuorumBeforeTheOthers() {
        GangInfo info = new GangInfo(GroupKey.podGroup("team-a", "ps"), 1, Map.of("worker", 1), 0, T0, null, null, "a", null);
        List<PodInfo> expected = List.of(
                new PodInfo("team-a", "ps-ps-0", info.key(), "ps", 0, ResourceVector.builder().cpuMillis(1000).build(), Map.of()),
                new PodInfo("team-a", "ps-worker-0", info.key(), "worker", 0, gpus(4), Map.of()));
        PendingGang gang = new PendingGang(info, List.of(), 0, Map.of(), null, expected);

        assertThat(demand(gang)).containsEntry(GPU, 4L).containsEntry(ResourceVector.PODS, 1L)
                .doesNotContainKey(ResourceVector.CPU);
        assertThat(plan(Map.of("team-a", List.of(gpuQuota("team-a", 8, 6))), gang).holds())
                .extracting(QueueHold::reason).containsExactly(QueueHold.Reason.NAMESPACE_QUOTA);
    }

    @Test
    void aGangWhosePodsExistPassedTheQuotaAtTheirCreationAndIsNeverHeld() {
        GangInfo info = new GangInfo(GroupKey.podGroup("team-a", "plain"), 1, Map.of(), 0, T0, null, null, "a", null);
        PendingGang created = new PendingGang(info, List.of(new PodInfo("team-a", "plain-0", info.key(), "", 0, gpus(4),
                Map.of())), 0, Map.of());

        CyclePlan plan = plan(Map.of("team-a", List.of(gpuQuota("team-a", 8, 8))), created);

        assertThat(plan.holds()).isEmpty();
        assertThat(plan.placements()).extracting(GangPlacement::outcome).containsExactly(GangPlacement.Outcome.PLACED);
    }

    @Test
    void theQuorumPodsAGangAdmittedBeforeHasYetToCreateCountAgainstItsNamespace() {
        // Admitted in an earlier cycle: 2 of its 4 quorum pods created (and counted in the quota's used), 2 to come.
        GangInfo info = new GangInfo(GroupKey.podGroup("team-a", "big"), 4, Map.of(), 5, T0, null, null, "a", null);
        List<PodInfo> created = List.of(
                new PodInfo("team-a", "big-worker-0", info.key(), "worker", 5, gpus(2), Map.of()),
                new PodInfo("team-a", "big-worker-1", info.key(), "worker", 5, gpus(2), Map.of()));
        List<PodInfo> toCome = List.of(
                new PodInfo("team-a", "big-worker-2", info.key(), "worker", 5, gpus(2), Map.of()),
                new PodInfo("team-a", "big-worker-3", info.key(), "worker", 5, gpus(2), Map.of()));
        PendingGang creating = new PendingGang(info, created, 0, Map.of(), null, toCome);

        CyclePlan plan = plan(Map.of("team-a", List.of(gpuQuota("team-a", 8, 4))), creating,
                waitingJob("team-a", "later", 1, 1, 4, 0));

        assertThat(demand(creating)).containsEntry(GPU, 4L).containsEntry(ResourceVector.PODS, 2L);
        assertThat(admitted(plan)).doesNotContain("later");
        assertThat(plan.holds()).singleElement().satisfies(hold -> {
            assertThat(hold.gang().key().name()).isEqualTo("later");
            assertThat(hold.message()).contains("requested: requests.nvidia.com/gpu=4, used: requests.nvidia.com/gpu=8");
        });
    }

    @Test
    void theLimitsOfTheQuorumsPodsCountAgainstAQuotaOnLimits() {
        NamespaceQuota limits = new NamespaceQuota("team-a", "limits", Map.of("limits.cpu", 8_000L,
                "limits.memory", 64L << 30), Map.of("limits.cpu", 5_000L, "limits.memory", 0L), List.of());
        PendingGang train = waitingJob("team-a", "train", 2, 2, 1, 0);
        // Each worker will be created with a 2-cpu limit: its requests say nothing of it.
        QuotaFacts twoCpus = new QuotaFacts(Map.of("limits.cpu", 2_000L), "", false, false, false);
        Map<String, QuotaFacts> podLimits = Map.of("team-a/train-worker-0", twoCpus, "team-a/train-worker-1", twoCpus);

        CyclePlan plan = plan(Map.of("team-a", List.of(limits)), podLimits, train);

        assertThat(admitted(plan)).isEmpty();
        assertThat(plan.holds()).singleElement().extracting(QueueHold::message).asString()
                .contains("(exceeded quota: limits, requested: limits.cpu=4, used: limits.cpu=5, limited: limits.cpu=8)");
        assertThat(admitted(plan(Map.of("team-a", List.of(limits)), Map.of(), waitingJob("team-a", "train", 2, 2, 1, 0))))
                .as("without the pods' limits the same gang is admitted").containsExactly("train");
    }

    @Test
    void aScopedQuotaCountsOnlyThePodsItsScopesSelect() {
        NamespaceQuota highOnly = new NamespaceQuota("team-a", "high-gpus", Map.of(GPU, 4L), Map.of(GPU, 4L),
                List.of(new QuotaScope("PriorityClass", "In", List.of("high"))));
        PendingGang high = waitingJob("team-a", "urgent", 1, 1, 4, 0);
        PendingGang low = waitingJob("team-a", "sweep", 1, 1, 4, 0);
        Map<String, QuotaFacts> facts = Map.of(
                "team-a/urgent-worker-0", new QuotaFacts(Map.of(), "high", false, false, false),
                "team-a/sweep-worker-0", new QuotaFacts(Map.of(), "low", false, false, false));

        CyclePlan plan = plan(Map.of("team-a", List.of(highOnly)), facts, high, low);

        assertThat(admitted(plan)).containsExactly("sweep");
        assertThat(plan.holds()).singleElement().satisfies(hold -> {
            assertThat(hold.gang().key().name()).isEqualTo("urgent");
            assertThat(hold.message()).contains("(exceeded quota: high-gpus, requested: requests.nvidia.com/gpu=4,");
        });
    }

    /** What the gang's quorum asks of a quota without scopes. */
    private static Map<String, Long> demand(PendingGang gang) {
        NamespaceQuota any = new NamespaceQuota(gang.gang().key().namespace(), "any", Map.of(), Map.of(), List.of());
        return NamespaceQuotaGate.demand(NamespaceQuotaGate.quorum(gang), any, Map.of());
    }
}
