package dev.muster.api.scheduling.v1alpha1;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import io.fabric8.generator.annotation.Required;

/** One level of a PodGroup's topology: a node label whose values name its domains. */
@JsonInclude(JsonInclude.Include.NON_NULL)
public class TopologyConstraint {
    @Required
    private String key;

    public TopologyConstraint() {
    }

    public TopologyConstraint(String key) {
        this.key = key;
    }

    /** The node label, e.g. {@code topology.kubernetes.io/zone}. */
    @JsonPropertyDescription("The node label whose values name the level's domains, e.g. "
            + "topology.kubernetes.io/zone.")
    public String getKey() { return key; }
    public void setKey(String key) { this.key = key; }
}
