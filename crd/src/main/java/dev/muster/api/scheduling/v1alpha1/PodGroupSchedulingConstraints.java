package dev.muster.api.scheduling.v1alpha1;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import io.fabric8.generator.annotation.Pattern;

import java.util.List;

/**
 * Where a PodGroup's gang lands, in the shape of Kubernetes v1.36's {@code scheduling.k8s.io/v1alpha2}
 * PodGroup {@code spec.schedulingConstraints}: {@code topology} lists node labels whose domains the
 * gang's quorum must fit in one of. Kubernetes takes a single entry and requires it; Muster takes an
 * ordered list, tried tightest first (e.g. a rack label, then a zone label), and {@code topologyPolicy}
 * {@code Preferred} lets the gang be placed across domains when none holds it.
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public class PodGroupSchedulingConstraints {
    /** The policy under which the gang waits for one domain to hold its quorum. */
    public static final String REQUIRED = "Required";
    /** The policy under which the gang is placed across domains when none holds its quorum. */
    public static final String PREFERRED = "Preferred";

    private List<TopologyConstraint> topology;
    @Pattern("^(Required|Preferred)$")
    private String topologyPolicy;

    /** The levels, tightest first; the quorum goes into one domain of the first level that holds it. */
    @JsonPropertyDescription("The levels, tightest first; the quorum goes into one domain of the first "
            + "level that holds it.")
    public List<TopologyConstraint> getTopology() { return topology; }
    public void setTopology(List<TopologyConstraint> topology) { this.topology = topology; }

    /** {@code Required} (the default, as in Kubernetes) or {@code Preferred}. */
    @JsonPropertyDescription("Required (the default, as in Kubernetes) or Preferred.")
    public String getTopologyPolicy() { return topologyPolicy; }
    public void setTopologyPolicy(String topologyPolicy) { this.topologyPolicy = topologyPolicy; }
}
