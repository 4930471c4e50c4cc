package dev.muster.api.scheduling.v1alpha1;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import io.fabric8.generator.annotation.Min;
import io.fabric8.generator.annotation.Required;
import io.fabric8.kubernetes.api.model.LabelSelector;

import java.util.List;

/**
 * Sub-gangs within a PodGroup, in the shape of Volcano's PodGroup {@code spec.subGroupPolicy}: the group's
 * pods that {@code labelSelector} selects are divided by the values of their {@code matchLabelKeys} labels
 * into sub-groups, each placed whole ({@code subGroupSize} pods, or what of it is still pending) and within one
 * domain of {@code schedulingConstraints}; at least {@code minSubGroups} of them must be placed for the gang
 * to be. A Job's task {@code partitionPolicy} becomes one of these, its pods labelled
 * {@code batch.muster.dev/partition-id}. Volcano's {@code networkTopology} is given here as the node labels it
 * maps onto, as for the group's own {@code schedulingConstraints}.
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public class SubGroupPolicy {
    @Required
    private String name;
    @Min(1)
    private Integer subGroupSize;
    @Min(0)
    private Integer minSubGroups;
    private LabelSelector labelSelector;
    private List<String> matchLabelKeys;
    private PodGroupSchedulingConstraints schedulingConstraints;

    /** Names the policy, e.g. the task it divides. */
    @JsonPropertyDescription("Names the policy, e.g. the task it divides.")
    public String getName() { return name; }
    public void setName(String name) { this.name = name; }

    /** Pods in each sub-group; they are placed together or not at all. Defaults to 1. */
    @JsonPropertyDescription("Pods in each sub-group; they are placed together or not at all. Defaults to 1.")
    public Integer getSubGroupSize() { return subGroupSize; }
    public void setSubGroupSize(Integer subGroupSize) { this.subGroupSize = subGroupSize; }

    /** Sub-groups that must be placed whole for the gang to be placed. Defaults to 0. */
    @JsonPropertyDescription("Sub-groups that must be placed whole for the gang to be placed. Defaults to 0.")
    public Integer getMinSubGroups() { return minSubGroups; }
    public void setMinSubGroups(Integer minSubGroups) { this.minSubGroups = minSubGroups; }

    /** The group's pods the policy divides; unset, all of them. */
    @JsonPropertyDescription("The group's pods the policy divides; unset, all of them.")
    public LabelSelector getLabelSelector() { return labelSelector; }
    public void setLabelSelector(LabelSelector labelSelector) { this.labelSelector = labelSelector; }

    /** Pod labels whose values name a pod's sub-group; a selected pod without one of them is in none. */
    @JsonPropertyDescription("Pod labels whose values name a pod's sub-group; a selected pod without one of "
            + "them is in none.")
    public List<String> getMatchLabelKeys() { return matchLabelKeys; }
    public void setMatchLabelKeys(List<String> matchLabelKeys) { this.matchLabelKeys = matchLabelKeys; }

    /** Where each sub-group lands, as the PodGroup's own {@code schedulingConstraints} say for the gang. */
    @JsonPropertyDescription("Where each sub-group lands: within one domain of the first level that holds it, "
            + "as the PodGroup's own schedulingConstraints say for the gang.")
    public PodGroupSchedulingConstraints getSchedulingConstraints() { return schedulingConstraints; }
    public void setSchedulingConstraints(PodGroupSchedulingConstraints schedulingConstraints) {
        this.schedulingConstraints = schedulingConstraints;
    }
}
