package dev.muster.scheduler.core.placement;

/**
 * A score plugin whose scores depend on the pods around a node (kube-scheduler's PreScore, Score and
 * NormalizeScore), prepared for one pod against the layout as it is now; only pods it concerns get one,
 * so the rest keep the shape index's fast path.
 */
interface PodScore {
    /**
     * Adds each candidate's weighted, normalised score: the candidates are the nodes that pass every
     * filter for the pod, the set kube-scheduler normalises over.
     *
     * @param candidates node indexes, {@code count} of them
     * @param total      the score of {@code candidates[i]} at {@code i}, added to
     */
    void addTo(int[] candidates, int count, long[] total);
}
