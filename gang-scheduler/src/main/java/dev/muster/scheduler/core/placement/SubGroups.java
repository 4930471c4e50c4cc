package dev.muster.scheduler.core.placement;

import dev.muster.scheduler.core.model.GangMember;
import dev.muster.scheduler.core.model.PendingGang;
import dev.muster.scheduler.core.model.PodInfo;
import dev.muster.scheduler.core.model.SubGroupRule;

import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.HashSet;
import java.util.IdentityHashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.ToIntFunction;

/**
 * A gang's pending pods divided into the sub-groups of its {@link SubGroupRule}s (a pod goes to the first rule
 * that puts it in one), with each sub-group's members that are bound or done ({@link PendingGang#members()}):
 * how many, and the nodes of the bound ones, to which a sub-group's topology holds the rest of it. Built once
 * per trial of a gang that has rules.
 */
final class SubGroups {
    /**
     * One sub-group.
     *
     * @param rule       its rule
     * @param key        its match label values, for messages
     * @param members    its pending pods, as indexes into the gang's pending pods
     * @param bound      its members bound or succeeded already
     * @param boundNodes the nodes of the bound ones, as snapshot indexes
     */
    record Group(SubGroupRule rule, String key, List<Integer> members, int bound, List<Integer> boundNodes) {
        /** Whether it is complete once its pending pods are placed. */
        boolean canComplete() {
            return bound + members.size() >= rule.size();
        }

        /** For messages: which sub-group and how many pods it still needs placed together. */
        String describe() {
            return "sub-group " + rule.name() + "/" + key + " (" + members.size() + " pod(s))";
        }
    }

    private final int[] groupOf;
    private final List<Group> groups;
    /** Per rule, its sub-groups complete with members bound or done alone. */
    private final Map<SubGroupRule, Integer> completeBound;

    private SubGroups(int[] groupOf, List<Group> groups, Map<SubGroupRule, Integer> completeBound) {
        this.groupOf = groupOf;
        this.groups = groups;
        this.completeBound = completeBound;
    }

    /**
     * The gang's sub-groups; {@code null} when it has no rules.
     *
     * @param nodeIndex the snapshot index of a node by name, or -1 if the snapshot has no such node
     */
    static SubGroups of(PendingGang work, ToIntFunction<String> nodeIndex) {
        List<SubGroupRule> rules = work.gang().subGroups();
        if (rules.isEmpty()) {
            return null;
        }
        Map<Id, Integer> boundCount = new HashMap<>();
        Map<Id, List<Integer>> boundNodes = new HashMap<>();
        for (GangMember member : work.members()) {
            Id id = idOf(rules, member.pod());
            int node = member.nodeName() == null ? -1 : nodeIndex.applyAsInt(member.nodeName());
            if (id == null || member.nodeName() != null && node < 0) {
                continue;
            }
            boundCount.merge(id, 1, Integer::sum);
            if (node >= 0) {
                boundNodes.computeIfAbsent(id, k -> new ArrayList<>()).add(node);
            }
        }
        int[] groupOf = new int[work.pending().size()];
        Map<Id, List<Integer>> membersOf = new LinkedHashMap<>();
        for (int i = 0; i < groupOf.length; i++) {
            Id id = idOf(rules, work.pending().get(i));
            if (id == null) {
                groupOf[i] = -1;
                continue;
            }
            List<Integer> members = membersOf.computeIfAbsent(id, k -> new ArrayList<>());
            if (members.isEmpty()) {
                groupOf[i] = membersOf.size() - 1;
            } else {
                groupOf[i] = groupOf[members.get(0)];
            }
            members.add(i);
        }
        List<Group> groups = new ArrayList<>(membersOf.size());
        membersOf.forEach((id, members) -> groups.add(new Group(id.rule(), id.key(), List.copyOf(members),
                boundCount.getOrDefault(id, 0), boundNodes.getOrDefault(id, List.of()))));
        Map<SubGroupRule, Integer> completeBound = new HashMap<>();
        boundCount.forEach((id, count) -> {
            if (!membersOf.containsKey(id) && count >= id.rule().size()) {
                completeBound.merge(id.rule(), 1, Integer::sum);
            }
        });
        return new SubGroups(groupOf, groups, completeBound);
    }

    /**
     * Why the gang waits for pods rather than room, or {@code null}: some of its sub-groups lack pods (not
     * created yet, or deleted), and without them its pods that can be placed are too few for the quorum, a
     * task's minimum or a rule's {@code minGroups}. Placing part of a sub-group would split it, so such a gang is
     * short of pods, as one with fewer pods than {@code minMember} is.
     */
    String missingPods(PendingGang work, QuorumBounds quorum) {
        List<SubGroupRule> rules = work.gang().subGroups();
        Group lacking = null;
        for (Group group : groups) {
            if (!group.canComplete()) {
                lacking = group;
                break;
            }
        }
        if (lacking == null) {
            return null;
        }
        int placeable = 0;
        Map<String, Integer> placeableByTask = new HashMap<>();
        for (int i = 0; i < groupOf.length; i++) {
            if (groupOf[i] < 0 || groups.get(groupOf[i]).canComplete()) {
                placeable++;
                placeableByTask.merge(work.pending().get(i).task(), 1, Integer::sum);
            }
        }
        boolean tooFew = placeable < quorum.needed();
        for (QuorumBounds.TaskNeed need : quorum.tasks()) {
            tooFew |= placeableByTask.getOrDefault(need.task(), 0) < need.needed();
        }
        for (SubGroupRule rule : rules) {
            long completable = groups.stream().filter(g -> g.rule() == rule && g.canComplete()).count();
            tooFew |= completeBound(rule) + completable < rule.minGroups();
        }
        return tooFew ? "Waiting for pods: " + lacking.describe() + " and its " + lacking.bound()
                + " member(s) bound or done are fewer than its " + lacking.rule().size() + "." : null;
    }

    /**
     * The quorum's pods and the expected pods that complete the sub-groups it has pods of, then whole expected
     * sub-groups, in the order the workload creates them, until each rule has its {@code minGroups}: a quorum that
     * is not a whole number of sub-groups, or has fewer than a rule needs, is admitted as it will be placed.
     */
    static List<PodInfo> completing(List<PodInfo> quorum, PendingGang work) {
        List<SubGroupRule> rules = work.gang().subGroups();
        if (rules.isEmpty()) {
            return quorum;
        }
        Set<Id> started = new HashSet<>();
        Set<PodInfo> in = Collections.newSetFromMap(new IdentityHashMap<>());
        for (PodInfo pod : quorum) {
            Id id = idOf(rules, pod);
            if (id != null) {
                started.add(id);
            }
            in.add(pod);
        }
        for (GangMember member : work.members()) {
            Id id = idOf(rules, member.pod());
            if (id != null) {
                started.add(id);
            }
        }
        for (SubGroupRule rule : rules) {
            long count = started.stream().filter(id -> id.rule() == rule).count();
            for (PodInfo pod : work.expected()) {
                if (count >= rule.minGroups()) {
                    break;
                }
                Id id = idOf(rules, pod);
                if (id != null && id.rule() == rule && started.add(id)) {
                    count++;
                }
            }
        }
        List<PodInfo> completed = new ArrayList<>(quorum);
        for (PodInfo pod : work.expected()) {
            if (!in.contains(pod) && started.contains(idOf(rules, pod))) {
                completed.add(pod);
            }
        }
        return completed;
    }

    /** A sub-group: its rule, and the values of the rule's match labels. */
    private record Id(SubGroupRule rule, String key) {
    }

    /** The pod's sub-group under the first rule that puts it in one; {@code null} if none does. */
    private static Id idOf(List<SubGroupRule> rules, PodInfo pod) {
        for (SubGroupRule rule : rules) {
            String key = rule.subGroupOf(pod);
            if (key != null) {
                return new Id(rule, key);
            }
        }
        return null;
    }

    /** The sub-group of the gang's pending pod {@code i}; {@code null} if it is in none. */
    Group of(int i) {
        return groupOf[i] < 0 ? null : groups.get(groupOf[i]);
    }

    /** The sub-groups with pending pods, in the order of their first pod. */
    List<Group> groups() {
        return groups;
    }

    /** How many of the rule's sub-groups are complete with members bound or done alone, none pending. */
    int completeBound(SubGroupRule rule) {
        return completeBound.getOrDefault(rule, 0);
    }
}
