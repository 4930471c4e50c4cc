package dev.muster.scheduler.core;

import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * A gang as one cycle sees it: its requirements, the pods still to place, how many of its pods are
 * already bound (and not terminated), which count toward the quorum, and when it last failed.
 *
 * @param gang          requirements
 * @param pending       pods to place, in the order they should be tried
 * @param bound         pods of the gang already bound or being bound
 * @param boundByTask   the same per task name
 * @param lastFailedAt  when a trial of the gang last found too little room; {@code null} if it has not
 *                      failed since it was last placed, or was never tried
 */
public record PendingGang(GangInfo gang, List<PodInfo> pending, int bound, Map<String, Integer> boundByTask,
                          Instant lastFailedAt) {

    public PendingGang {
        Objects.requireNonNull(gang, "gang");
        pending = List.copyOf(pending);
        boundByTask = boundByTask == null ? Map.of() : Map.copyOf(boundByTask);
    }

    /** A gang that has not failed. */
    public PendingGang(GangInfo gang, List<PodInfo> pending, int bound, Map<String, Integer> boundByTask) {
        this(gang, pending, bound, boundByTask, null);
    }

    /** Bound pods of one task. */
    public int boundOf(String task) {
        return boundByTask.getOrDefault(task, 0);
    }

    /** This gang, marked as having failed at the given time. */
    public PendingGang failedAt(Instant time) {
        return new PendingGang(gang, pending, bound, boundByTask, time);
    }
}
