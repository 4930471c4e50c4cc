package dev.muster.scheduler.core.placement;

import dev.muster.scheduler.core.cluster.ClusterSnapshot;
import dev.muster.scheduler.core.cycle.QueuePlanner;
import dev.muster.scheduler.core.model.PendingGang;
import dev.muster.scheduler.core.queue.GangOrder;

import java.util.ArrayList;
import java.util.Collection;
import java.util.List;

/**
 * Plans one scheduling cycle without the queue's state (no backoff, reservation or admission): tries
 * each gang in {@link GangOrder#QUEUE} order against one snapshot. For tests of ordering and trials; the
 * scheduler, the simulator and the placement benchmark plan through {@link QueuePlanner}.
 */
final class GangPlanner {
    private GangPlanner() {
    }

    /**
     * Tries the gangs in order; each placed gang's placements stay on the snapshot, so later gangs see
     * the capacity as taken.
     *
     * @return one result per gang, in the order tried
     */
    static List<GangPlacement> plan(ClusterSnapshot snapshot, Collection<PendingGang> gangs) {
        List<PendingGang> ordered = new ArrayList<>(gangs);
        ordered.sort(GangOrder.QUEUE);
        GangTrial trial = new GangTrial(snapshot);
        List<GangPlacement> results = new ArrayList<>(ordered.size());
        for (PendingGang gang : ordered) {
            results.add(trial.attempt(gang));
        }
        return results;
    }
}
