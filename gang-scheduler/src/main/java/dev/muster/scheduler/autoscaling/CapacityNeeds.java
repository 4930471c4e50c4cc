package dev.muster.scheduler.autoscaling;

import dev.muster.scheduler.core.model.GangInfo;
import dev.muster.scheduler.core.model.GroupKey;
import dev.muster.scheduler.core.model.PendingGang;
import dev.muster.scheduler.core.model.PodInfo;
import dev.muster.scheduler.core.placement.GangPlacement;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;

/**
 * Which gangs wait for capacity only, from one cycle's results. A gang does when it waits for admission (its
 * pods do not exist yet) and the cycle tried it and found too little room, or backs off after that: the
 * queues' order only tries a gang its queue would admit now, so a gang held by its queue (a limit, a closed
 * queue, preempting) has no result here and never asks for capacity.
 */
public final class CapacityNeeds {
    private CapacityNeeds() {
    }

    /**
     * @param gangs   the cycle's gangs
     * @param results the cycle's results
     * @param classOf the provisioning class of a gang's requests
     */
    public static List<CapacityNeed> of(Iterable<PendingGang> gangs, List<GangPlacement> results,
                                        Function<GangInfo, String> classOf) {
        Map<GroupKey, PendingGang> byKey = new HashMap<>();
        gangs.forEach(gang -> byKey.put(gang.gang().key(), gang));
        List<CapacityNeed> needs = new ArrayList<>();
        for (GangPlacement result : results) {
            PendingGang gang = byKey.get(result.gang().key());
            if (gang == null || gang.gang().key().standalonePod() || !gang.waitsForAdmission()) {
                continue;
            }
            boolean shortOfRoom = switch (result.outcome()) {
                case NOT_ENOUGH_RESOURCES, BACKED_OFF, RESERVED -> true;
                case PLACED, ADMITTED, NOT_ENOUGH_PODS, WITHDRAWN -> false;
            };
            Map<String, Integer> podSets = quorum(gang.gang(), gang.expected());
            if (shortOfRoom && !podSets.isEmpty()) {
                needs.add(new CapacityNeed(gang.gang().key(), classOf.apply(gang.gang()), podSets));
            }
        }
        return needs;
    }

    /** The gangs admitted this cycle whose pods are still to be created and placed. */
    public static Set<GroupKey> admitted(List<GangPlacement> results) {
        Set<GroupKey> admitted = new HashSet<>();
        results.stream().filter(result -> result.outcome() == GangPlacement.Outcome.ADMITTED)
                .forEach(result -> admitted.add(result.gang().key()));
        return admitted;
    }

    /**
     * The pods the quorum needs, per task in the order the workload creates them: each task's
     * {@code minTaskMember} first, then the first pods in creation order up to {@code minMember} (at least
     * one pod); only that much capacity is asked for, as the scheduler admits the quorum.
     */
    static Map<String, Integer> quorum(GangInfo gang, List<PodInfo> expected) {
        Map<String, Integer> counts = new LinkedHashMap<>();
        expected.forEach(pod -> counts.putIfAbsent(pod.task(), 0));
        Set<String> chosen = new HashSet<>();
        int total = 0;
        for (PodInfo pod : expected) {
            int taken = counts.get(pod.task());
            if (taken < gang.minTaskMember().getOrDefault(pod.task(), 0)) {
                counts.put(pod.task(), taken + 1);
                chosen.add(pod.name());
                total++;
            }
        }
        int wanted = Math.max(1, gang.minMember());
        for (PodInfo pod : expected) {
            if (total >= wanted) {
                break;
            }
            if (chosen.add(pod.name())) {
                counts.merge(pod.task(), 1, Integer::sum);
                total++;
            }
        }
        counts.values().removeIf(count -> count == 0);
        return counts;
    }
}
