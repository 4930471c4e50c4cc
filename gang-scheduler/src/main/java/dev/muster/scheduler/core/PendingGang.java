package dev.muster.scheduler.core;

import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * A gang as one cycle sees it: its requirements, the pods still to place, and how many of its pods are
 * already bound (and not terminated), which count toward the quorum.
 *
 * @param gang        requirements
 * @param pending     pods to place, in the order they should be tried
 * @param bound       pods of the gang already bound or being bound
 * @param boundByTask the same per task name
 */
public record PendingGang(GangInfo gang, List<PodInfo> pending, int bound, Map<String, Integer> boundByTask) {

    public PendingGang {
        Objects.requireNonNull(gang, "gang");
        pending = List.copyOf(pending);
        boundByTask = boundByTask == null ? Map.of() : Map.copyOf(boundByTask);
    }

    /** Bound pods of one task. */
    public int boundOf(String task) {
        return boundByTask.getOrDefault(task, 0);
    }
}
