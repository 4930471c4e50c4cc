package dev.muster.scheduler.core.model;

import java.time.Instant;
import java.util.Objects;

/**
 * A gang with pods bound, as preemption and backfill see it. Which of its pods run where comes from the
 * snapshot's nodes ({@code NodeState}'s pods name their group); this says what the pods do not.
 *
 * @param gang      its requirements, queue and {@code maxRuntime} included
 * @param startedAt when its quorum was first bound; with {@link GangInfo#maxRuntime()}, when it ends at
 *                  the latest
 * @param evictions how many times the gang was preempted whole so far; fewer is evicted first
 */
public record RunningGang(GangInfo gang, Instant startedAt, int evictions) {

    public RunningGang {
        Objects.requireNonNull(gang, "gang");
        Objects.requireNonNull(startedAt, "startedAt");
        if (evictions < 0) {
            throw new IllegalArgumentException("evictions must not be negative, got " + evictions);
        }
    }

    /** The latest time it ends, or {@code null} when it has no {@code maxRuntime}. */
    public Instant endsBy() {
        return gang.maxRuntime() == null ? null : startedAt.plus(gang.maxRuntime());
    }
}
