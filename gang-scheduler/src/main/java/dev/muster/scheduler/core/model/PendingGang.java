package dev.muster.scheduler.core.model;

import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * A gang as one cycle sees it: its requirements, the pods still to place, how many of its pods are
 * already bound (and not terminated), which count toward the quorum, when it last failed, and the pods
 * its workload will create once the gang is admitted.
 *
 * @param gang          requirements
 * @param pending       pods to place, in the order they should be tried
 * @param bound         pods of the gang already bound or being bound
 * @param boundByTask   the same per task name
 * @param lastFailedAt  when a trial of the gang last found too little room; {@code null} if it has not
 *                      failed since it was last placed, or was never tried
 * @param expected      pods that do not exist yet and that the gang's workload creates once the gang
 *                      is admitted (a Muster Job's pods, from its task templates), in the order it
 *                      creates them; empty for a workload that creates its pods on its own
 * @param members       the pods {@code bound} counts, with their nodes; given only for a gang with
 *                      {@linkplain GangInfo#subGroups() sub-groups}, which count them per sub-group, else empty
 */
public record PendingGang(GangInfo gang, List<PodInfo> pending, int bound, Map<String, Integer> boundByTask,
                          Instant lastFailedAt, List<PodInfo> expected, List<GangMember> members) {

    public PendingGang {
        Objects.requireNonNull(gang, "gang");
        pending = List.copyOf(pending);
        boundByTask = boundByTask == null ? Map.of() : Map.copyOf(boundByTask);
        expected = expected == null ? List.of() : List.copyOf(expected);
        members = members == null ? List.of() : List.copyOf(members);
    }

    /** A gang whose members are not listed. */
    public PendingGang(GangInfo gang, List<PodInfo> pending, int bound, Map<String, Integer> boundByTask,
                       Instant lastFailedAt, List<PodInfo> expected) {
        this(gang, pending, bound, boundByTask, lastFailedAt, expected, List.of());
    }

    /** A gang whose workload creates its pods on its own. */
    public PendingGang(GangInfo gang, List<PodInfo> pending, int bound, Map<String, Integer> boundByTask,
                       Instant lastFailedAt) {
        this(gang, pending, bound, boundByTask, lastFailedAt, List.of());
    }

    /** A gang that has not failed, whose workload creates its pods on its own. */
    public PendingGang(GangInfo gang, List<PodInfo> pending, int bound, Map<String, Integer> boundByTask) {
        this(gang, pending, bound, boundByTask, null);
    }

    /** Whether the gang has no pod yet and waits to be admitted before its workload creates them. */
    public boolean waitsForAdmission() {
        return pending.isEmpty() && !expected.isEmpty();
    }

    /** Bound pods of one task. */
    public int boundOf(String task) {
        return boundByTask.getOrDefault(task, 0);
    }

    /** This gang, marked as having failed at the given time. */
    public PendingGang failedAt(Instant time) {
        return new PendingGang(gang, pending, bound, boundByTask, time, expected, members);
    }

    /** This gang with other pods to place (a quorum, or its pods pinned to a domain), all else the same. */
    public PendingGang withPending(List<PodInfo> pods) {
        return new PendingGang(gang, pods, bound, boundByTask, lastFailedAt, expected, members);
    }
}
