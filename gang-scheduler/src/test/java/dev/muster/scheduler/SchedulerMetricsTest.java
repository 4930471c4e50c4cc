package dev.muster.scheduler;

import dev.muster.scheduler.core.model.GangInfo;
import dev.muster.scheduler.core.model.GroupKey;
import dev.muster.scheduler.core.placement.GangPlacement;
import dev.muster.scheduler.core.queue.QueueHold;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.junit.jupiter.api.Test;

import java.time.Instant;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

class SchedulerMetricsTest {
    private static GangInfo gang(String name) {
        return new GangInfo(GroupKey.podGroup("ns", name), 2, Map.of(), 0, Instant.parse("2026-01-01T00:00:00Z"));
    }

    /** A gang that does not fit and one whose minResources the free room cannot meet both wait for resources. */
    @Test
    void gangsWaitingForResourcesAreCountedUnderOneGaugeWhetherAPlacementOrTheirQueueHeldThem() {
        SimpleMeterRegistry registry = new SimpleMeterRegistry();
        SchedulerMetrics metrics = new SchedulerMetrics(registry);

        metrics.recordCycle(List.of(new GangPlacement(gang("too-big"), GangPlacement.Outcome.NOT_ENOUGH_RESOURCES, List.of(),
                        List.of(), null, "0/2 nodes are available")),
                List.of(new QueueHold(gang("min-resources"), List.of(), QueueHold.Reason.MIN_RESOURCES, "not enough room"),
                        new QueueHold(gang("closed"), List.of(), QueueHold.Reason.QUEUE_CLOSED, "queue closed")));

        assertThat(registry.get(SchedulerMetrics.PENDING_GROUPS).tag("reason", "NotEnoughResources").gauge().value())
                .isEqualTo(2);
        assertThat(registry.get(SchedulerMetrics.PENDING_GROUPS).tag("reason", QueueHold.Reason.QUEUE_CLOSED.reason())
                .gauge().value()).isEqualTo(1);
        assertThat(registry.get(SchedulerMetrics.PENDING_GROUPS).tag("reason", "NotEnoughTasks").gauge().value()).isZero();
    }
}
