package dev.muster.scheduler.core.cycle;

import dev.muster.scheduler.core.cluster.ClusterSnapshot;
import dev.muster.scheduler.core.model.GroupKey;
import dev.muster.scheduler.core.model.PendingGang;
import dev.muster.scheduler.core.model.QueueInfo;
import dev.muster.scheduler.core.placement.GangPlacement;

import java.time.Instant;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Set;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Cycles of the production planner, {@link QueuePlanner}, on a cluster with no Queue objects and nothing
 * running: every gang in the default queue, as the scheduler cache hands them over. The coscheduling
 * semantics (backoff, reservation, admission) are tested through it, so that what they assert is what
 * production does, queues' order, backfill and the preemption round included.
 */
final class DefaultQueueCycles {
    private static final List<QueueInfo> DEFAULT_ONLY = List.of(QueueInfo.of(QueueInfo.DEFAULT, 1));

    private final QueuePlanner planner;

    DefaultQueueCycles(CoschedulingArgs args) {
        this.planner = new QueuePlanner(args);
    }

    /**
     * One cycle's results. With nothing running there is nothing to evict and the default queue holds
     * nothing back, so every gang is in the results; that is checked, not assumed.
     */
    List<GangPlacement> plan(ClusterSnapshot snapshot, Collection<PendingGang> gangs, Instant now) {
        CyclePlan plan = planner.plan(snapshot, gangs, Map.of(), DEFAULT_ONLY, now);
        assertThat(plan.holds()).as("gangs held by the default queue").isEmpty();
        assertThat(plan.evictions()).as("evictions with nothing running").isEmpty();
        return plan.placements();
    }

    GroupKey reservationHolder() {
        return planner.reservationHolder();
    }

    Set<GroupKey> admitted() {
        return planner.admitted();
    }
}
