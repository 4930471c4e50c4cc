package dev.muster.scheduler.core;

import java.util.ArrayList;
import java.util.Collection;
import java.util.List;

/** Plans one scheduling cycle: tries each gang in {@link GangOrder#QUEUE} order against one snapshot. */
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
        return plan(snapshot, gangs, NodeScoring.MOST_ALLOCATED);
    }

    /** As {@link #plan(ClusterSnapshot, Collection)}, scoring nodes as given. */
    public static List<GangPlacement> plan(ClusterSnapshot snapshot, Collection<PendingGang> gangs,
                                           NodeScoring scoring) {
        List<PendingGang> ordered = new ArrayList<>(gangs);
        ordered.sort(GangOrder.QUEUE);
        GangTrial trial = new GangTrial(snapshot, scoring);
        List<GangPlacement> results = new ArrayList<>(ordered.size());
        for (PendingGang gang : ordered) {
            results.add(trial.attempt(gang));
        }
        return results;
    }
}
