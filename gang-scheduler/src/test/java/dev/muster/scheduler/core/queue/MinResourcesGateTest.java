package dev.muster.scheduler.core.queue;

import dev.muster.scheduler.core.CoreFixtures;
import dev.muster.scheduler.core.QueueFixtures;
import dev.muster.scheduler.core.cycle.CoschedulingArgs;
import dev.muster.scheduler.core.cycle.CyclePlan;
import dev.muster.scheduler.core.cycle.QueuePlanner;
import dev.muster.scheduler.core.model.GangInfo;
import dev.muster.scheduler.core.model.PendingGang;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;

import static dev.muster.scheduler.core.QueueFixtures.T0;
import static dev.muster.scheduler.core.QueueFixtures.gang;
import static dev.muster.scheduler.core.QueueFixtures.gpuCluster;
import static dev.muster.scheduler.core.QueueFixtures.gpuPods;
import static dev.muster.scheduler.core.QueueFixtures.gpus;
import static dev.muster.scheduler.core.QueueFixtures.queue;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * A PodGroup's {@code minResources}, as Volcano's enqueue action checks it (its {@code overcommit} plugin: the
 * group's minResources against the cluster's idle room; its {@code proportion} plugin: against the queue's
 * capability): a group whose workload has made only its first pod (a Spark driver) waits until what it names
 * is free, instead of starting a driver whose executors cannot run.
 */
class MinResourcesGateTest {

    /** A gang of one 1-GPU pod (the driver) whose PodGroup names {@code minGpus} GPUs, the executors' included. */
    private static PendingGang driver(String name, String queue, long minGpus, int priority, int bound) {
        GangInfo plain = gang(name, queue, 1, priority, 0, null);
        GangInfo info = new GangInfo(plain.key(), 1, Map.of(), priority, plain.createdAt(), null, null, queue, null,
                gpus(minGpus));
        return new PendingGang(info, gpuPods(info, 1, 1), bound, Map.of());
    }

    /** A gang of {@code count} 8-GPU pods, tried first (higher priority). */
    private static PendingGang wholeNodes(String name, int count) {
        GangInfo info = gang(name, "a", count, 10, 0, null);
        return CoreFixtures.pending(info, gpuPods(info, count, 8));
    }

    private static CyclePlan plan(Long limitGpus, PendingGang... gangs) {
        return new QueuePlanner(CoschedulingArgs.defaults()).plan(gpuCluster(2).snapshot(), List.of(gangs), Map.of(),
                List.of(queue("a", null, 1, 0, limitGpus)), T0);
    }

    @Test
    void aGroupWaitsWhileLessThanItsMinResourcesIsFreeCountingWhatTheCycleTookBeforeIt() {
        CyclePlan plan = plan(null, wholeNodes("first", 1), driver("spark", "a", 12, 0, 0));

        assertThat(plan.holds()).singleElement().satisfies(hold -> {
            assertThat(hold.gang().key().name()).isEqualTo("spark");
            assertThat(hold.reason()).isEqualTo(QueueHold.Reason.MIN_RESOURCES);
            assertThat(hold.reason().reason()).isEqualTo("NotEnoughResources");
            assertThat(hold.message()).isEqualTo("The PodGroup's minResources asks for 12 nvidia.com/gpu and the "
                    + "schedulable nodes have 8 free in all; none of its pods is placed until they have "
                    + "(Volcano's enqueue check).");
        });
        assertThat(plan.placements()).singleElement().satisfies(r -> {
            assertThat(r.gang().key().name()).isEqualTo("first");
            assertThat(r.placed()).isTrue();
        });
    }

    @Test
    void aGroupStartsOnceItsMinResourcesAreFree() {
        CyclePlan plan = plan(null, driver("spark", "a", 12, 0, 0));

        assertThat(plan.holds()).isEmpty();
        assertThat(plan.placements()).singleElement().satisfies(r -> assertThat(r.placed()).isTrue());
    }

    @Test
    void theQueueLimitCountsTheMinResourcesNotOnlyTheDriver() {
        CyclePlan plan = plan(8L, driver("spark", "a", 12, 0, 0));

        assertThat(plan.holds()).singleElement().satisfies(hold -> {
            assertThat(hold.reason()).isEqualTo(QueueHold.Reason.QUEUE_LIMIT);
            assertThat(hold.message()).isEqualTo(
                    "Queue a holds 0 nvidia.com/gpu of its limit of 8; the gang requests 12 more"
                    + ", more than the whole limit: it cannot run in this queue unless the limit is raised.");
        });
        assertThat(plan.placements()).isEmpty();
    }

    @Test
    void aGroupThatHasStartedIsNotHeldBackAgain() {
        CyclePlan plan = plan(null, wholeNodes("first", 1), driver("spark", "a", 12, 0, 1));

        assertThat(plan.holds()).isEmpty();
        assertThat(plan.placements()).filteredOn(r -> r.gang().key().name().equals("spark"))
                .singleElement().satisfies(r -> assertThat(r.placed()).isTrue());
    }
}
