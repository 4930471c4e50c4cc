package dev.muster.scheduler.core.model;

import java.util.Objects;

/**
 * One term of a preferred node affinity ({@code preferredDuringSchedulingIgnoredDuringExecution}): a node
 * matching it scores its weight.
 *
 * @param weight 1 to 100
 * @param term   the preference
 */
public record PreferredTerm(int weight, NodeSelectorTerm term) {
    public PreferredTerm {
        Objects.requireNonNull(term, "term");
    }
}
