package dev.muster.scheduler.core.model;

import java.util.List;
import java.util.Objects;

/**
 * Sub-gangs within a gang (a PodGroup's {@code subGroupPolicy}, Volcano's, which a Job's task
 * {@code partitionPolicy} becomes): the gang's pods the selector selects, divided by the values of their
 * {@code matchLabelKeys} labels. Each sub-group is placed whole, the pods of it still pending together or none
 * of them, and within one domain of its topology; a gang is placed only with at least {@code minGroups}
 * sub-groups complete.
 *
 * @param name           the policy's name, for messages
 * @param size           pods in a complete sub-group
 * @param minGroups      complete sub-groups the gang needs
 * @param selector       the pods it divides, as label requirements that must all hold; empty for all
 * @param matchLabelKeys the labels whose values name a pod's sub-group; a pod lacking one is in none
 * @param topology       where each sub-group lands; {@code null} for anywhere
 */
public record SubGroupRule(String name, int size, int minGroups, List<NodeSelectorRequirement> selector,
                           List<String> matchLabelKeys, GangTopology topology) {

    public SubGroupRule {
        Objects.requireNonNull(name, "name");
        if (size < 1 || minGroups < 0) {
            throw new IllegalArgumentException("a sub-group has at least 1 pod and a gang needs 0 or more, got size "
                    + size + ", minGroups " + minGroups);
        }
        selector = List.copyOf(selector);
        matchLabelKeys = List.copyOf(matchLabelKeys);
    }

    /** The pod's sub-group under this rule, as the values of its match labels joined; {@code null} if in none. */
    public String subGroupOf(PodInfo pod) {
        if (!NodeSelectorRequirement.selects(selector, pod.labels())) {
            return null;
        }
        StringBuilder key = new StringBuilder();
        for (String label : matchLabelKeys) {
            String value = pod.labels().get(label);
            if (value == null || value.isEmpty()) {
                return null;
            }
            key.append(key.isEmpty() ? "" : "/").append(value);
        }
        return key.toString();
    }
}
