package dev.muster.api.batch.v1alpha1;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import io.fabric8.generator.annotation.Min;
import io.fabric8.generator.annotation.Size;
import io.fabric8.generator.annotation.ValidationRule;

/**
 * Volcano's {@code networkTopology} of a Job (and of a task's {@code partitionPolicy}): how far up the
 * cluster's network tiers the gang may spread. Tier 1 is the tightest (the switch nearest the nodes); a gang
 * limited to tier N must fit in one domain of tier N. Muster maps the tiers onto node labels configured per
 * cluster ({@code muster.scheduler.network-topology-tiers}) and so onto the gang topology of
 * {@code schedulingConstraints}; see docs/scheduling.md.
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
@ValidationRule(value = CelRules.ONE_TIER_LIMIT, message = CelRules.ONE_TIER_LIMIT_MESSAGE)
public class NetworkTopologySpec {
    /** The gang waits for one domain of the highest tier allowed to hold it. */
    public static final String HARD = "hard";
    /** The gang prefers one domain, and is placed across domains when none holds it. */
    public static final String SOFT = "soft";

    @ValidationRule(value = CelRules.TOPOLOGY_MODE, message = CelRules.TOPOLOGY_MODE_MESSAGE)
    private String mode;
    @Min(0)
    private Integer highestTierAllowed;
    @Size(max = 253)
    private String highestTierName;

    /** {@code hard} (the default, as in Volcano) or {@code soft}. */
    @JsonPropertyDescription("hard (the default, as in Volcano) or soft.")
    public String getMode() { return mode; }
    public void setMode(String mode) { this.mode = mode; }

    /** The highest tier, counted from 1 (the tightest), whose one domain the gang must fit in. */
    @JsonPropertyDescription("The highest tier, counted from 1 (the tightest), whose one domain the gang "
            + "must fit in.")
    public Integer getHighestTierAllowed() { return highestTierAllowed; }
    public void setHighestTierAllowed(Integer highestTierAllowed) { this.highestTierAllowed = highestTierAllowed; }

    /** The highest tier by name (in Muster, its node label key); not together with {@code highestTierAllowed}. */
    @JsonPropertyDescription("The highest tier by name (in Muster, its node label key); not together "
            + "with highestTierAllowed.")
    public String getHighestTierName() { return highestTierName; }
    public void setHighestTierName(String highestTierName) { this.highestTierName = highestTierName; }
}
