package dev.muster.scheduler.core.placement;

import dev.muster.scheduler.core.cluster.NodeState;
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

/**
 * A gang's pending pods divided into the sub-groups of its {@link SubGroupRule}s (a pod goes to the first rule
 * that puts it in one), with what each sub-group has bound already: the pods, and the nodes they are on, to
 * which a sub-group's topology holds the rest of it. Built once per trial of a gang that has rules.
 */
final class SubGroups {
    /**
     * One sub-group.
     *
     * @param rule       its rule
     * @param key        its match label values, for messages
     * @param members    its pending pods, as indexes into the gang's pending pods
     * @param bound      its pods bound already
     * @param boundNodes the nodes of those, as snapshot indexes
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
    /** Per rule, its sub-groups complete with bound pods alone. */
    private final Map<SubGroupRule, Integer> completeBound;

    private SubGroups(int[] groupOf, List<Group> groups, Map<SubGroupRule, Integer> completeBound) {
        this.groupOf = groupOf;
        this.groups = groups;
        this.completeBound = completeBound;
    }

    /** The gang's sub-groups; {@code null} when it has no rules. */
    static SubGroups of(PendingGang work, NodeState[] nodes) {
        List<SubGroupRule> rules = work.gang().subGroups();
        if (rules.isEmpty()) {
            return null;
        }
        Map<String, Integer> boundCount = new HashMap<>();
        Map<String, List<Integer>> boundNodes = new HashMap<>();
        if (work.bound() > 0) {
            for (NodeState node : nodes) {
                for (PodInfo pod : node.snapshotPods()) {
                    if (pod.group().equals(work.gang().key())) {
                        String id = idOf(rules, pod);
                        if (id != null) {
                            boundCount.merge(id, 1, Integer::sum);
                            boundNodes.computeIfAbsent(id, k -> new ArrayList<>()).add(node.index());
                        }
                    }
                }
            }
        }
        int[] groupOf = new int[work.pending().size()];
        Map<String, Integer> indexOf = new LinkedHashMap<>();
        List<List<Integer>> members = new ArrayList<>();
        List<SubGroupRule> ruleOf = new ArrayList<>();
        List<String> keyOf = new ArrayList<>();
        for (int i = 0; i < groupOf.length; i++) {
            PodInfo pod = work.pending().get(i);
            SubGroupRule rule = ruleOf(rules, pod);
            if (rule == null) {
                groupOf[i] = -1;
                continue;
            }
            String key = rule.subGroupOf(pod);
            String id = rules.indexOf(rule) + ":" + key;
            int g = indexOf.computeIfAbsent(id, k -> {
                members.add(new ArrayList<>());
                ruleOf.add(rule);
                keyOf.add(key);
                return members.size() - 1;
            });
            members.get(g).add(i);
            groupOf[i] = g;
        }
        List<Group> groups = new ArrayList<>(members.size());
        for (Map.Entry<String, Integer> entry : indexOf.entrySet()) {
            int g = entry.getValue();
            groups.add(new Group(ruleOf.get(g), keyOf.get(g), List.copyOf(members.get(g)),
                    boundCount.getOrDefault(entry.getKey(), 0), boundNodes.getOrDefault(entry.getKey(), List.of())));
        }
        Map<SubGroupRule, Integer> completeBound = new HashMap<>();
        boundCount.forEach((id, count) -> {
            SubGroupRule rule = rules.get(Integer.parseInt(id.substring(0, id.indexOf(':'))));
            if (!indexOf.containsKey(id) && count >= rule.size()) {
                completeBound.merge(rule, 1, Integer::sum);
            }
        });
        return new SubGroups(groupOf, groups, completeBound);
    }

    /**
     * The quorum's pods and the expected pods that complete the sub-groups it has pods of: a quorum that is
     * not a whole number of sub-groups is admitted with the rest of its last ones, as they will be placed.
     */
    static List<PodInfo> completing(List<PodInfo> quorum, List<PodInfo> expected, List<SubGroupRule> rules) {
        if (rules.isEmpty()) {
            return quorum;
        }
        Set<String> started = new HashSet<>();
        Set<PodInfo> in = Collections.newSetFromMap(new IdentityHashMap<>());
        for (PodInfo pod : quorum) {
            String id = idOf(rules, pod);
            if (id != null) {
                started.add(id);
            }
            in.add(pod);
        }
        List<PodInfo> completed = new ArrayList<>(quorum);
        for (PodInfo pod : expected) {
            if (!in.contains(pod) && started.contains(idOf(rules, pod))) {
                completed.add(pod);
            }
        }
        return completed;
    }

    private static SubGroupRule ruleOf(List<SubGroupRule> rules, PodInfo pod) {
        for (SubGroupRule rule : rules) {
            if (rule.subGroupOf(pod) != null) {
                return rule;
            }
        }
        return null;
    }

    /** The pod's sub-group as {@code ruleIndex:key}; {@code null} if in none. */
    private static String idOf(List<SubGroupRule> rules, PodInfo pod) {
        SubGroupRule rule = ruleOf(rules, pod);
        return rule == null ? null : rules.indexOf(rule) + ":" + rule.subGroupOf(pod);
    }

    /** The sub-group of the gang's pending pod {@code i}; {@code null} if it is in none. */
    Group of(int i) {
        return groupOf[i] < 0 ? null : groups.get(groupOf[i]);
    }

    /** The sub-groups with pending pods, in the order of their first pod. */
    List<Group> groups() {
        return groups;
    }

    /** How many of the rule's sub-groups are complete with bound pods alone, none of theirs pending. */
    int completeBound(SubGroupRule rule) {
        return completeBound.getOrDefault(rule, 0);
    }
}
