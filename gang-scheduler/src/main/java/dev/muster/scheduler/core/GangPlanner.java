package dev.muster.scheduler.core;

import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.List;

/** Plans one scheduling cycle: tries each gang in {@link GangOrder} against one snapshot. */
public final class GangPlanner {
    private GangPlanner() {
    }

    /**
     * Tries the gangs in order; each placed gang's placements stay on the snapshot, so later gangs see
     * the capacity as taken.
     *
     * @return one result per gang, in the order tried
     */
    public static List<GangPlacement> plan(ClusterSnapshot snapshot, Collection<PendingGang> gangs) {
        List<PendingGang> ordered = new ArrayList<>(gangs);
        ordered.sort(Comparator.comparing(PendingGang::gang, GangOrder.PRIORITY_THEN_AGE));
        GangTrial trial = new GangTrial(snapshot);
        List<GangPlacement> results = new ArrayList<>(ordered.size());
        for (PendingGang gang : ordered) {
            results.add(trial.attempt(gang));
        }
        return results;
    }
}
