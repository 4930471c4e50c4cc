package dev.muster.api.scheduling.v1alpha1;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import io.fabric8.generator.annotation.Default;
import io.fabric8.generator.annotation.Min;
import io.fabric8.generator.annotation.Pattern;
import io.fabric8.kubernetes.api.model.LabelSelector;
import io.fabric8.kubernetes.api.model.Quantity;

import java.util.Map;

/** Desired share of a {@link Queue}; {@link QueueDefaults} gives the effective value of each optional field. */
@JsonInclude(JsonInclude.Include.NON_NULL)
public class QueueSpec {
    /** {@code state}: the queue admits new jobs. */
    public static final String OPEN = "Open";
    /** {@code state}: running jobs go on, jobs that have not started wait. */
    public static final String CLOSED = "Closed";

    private String parent;
    @Min(1)
    @Default("1")
    private Integer weight;
    private Map<String, Quantity> guarantee;
    private Map<String, Quantity> limit;
    private QueuePreemptionSpec preemption;
    @Pattern("^(" + OPEN + "|" + CLOSED + ")$")
    @Default(OPEN)
    private String state;
    private LabelSelector namespaceSelector;

    /** The parent queue; unset, the queue is a child of the cluster. Only leaf queues take jobs. */
    @JsonPropertyDescription("The parent queue; unset, the queue is a child of the cluster. Only leaf "
            + "queues take jobs.")
    public String getParent() { return parent; }
    public void setParent(String parent) { this.parent = parent; }

    /** Share of the parent's entitlement against the siblings' weights; at least 1, defaults to 1. */
    @JsonPropertyDescription("Share of the parent's entitlement against the siblings' weights; at least "
            + "1, defaults to 1.")
    public Integer getWeight() { return weight; }
    public void setWeight(Integer weight) { this.weight = weight; }

    /** Resources the queue always gets when it asks for them, lent to other queues while it does not. */
    @JsonPropertyDescription("Resources the queue always gets when it asks for them, lent to other "
            + "queues while it does not.")
    public Map<String, Quantity> getGuarantee() { return guarantee; }
    public void setGuarantee(Map<String, Quantity> guarantee) { this.guarantee = guarantee; }

    /** Hard cap on what the queue's subtree is allocated, per resource; unset resources are not capped. */
    @JsonPropertyDescription("Hard cap on what the queue's subtree is allocated, per resource; unset "
            + "resources are not capped.")
    public Map<String, Quantity> getLimit() { return limit; }
    public void setLimit(Map<String, Quantity> limit) { this.limit = limit; }

    /** How the queue's gangs may take room from others. */
    @JsonPropertyDescription("How the queue's gangs may take room from others.")
    public QueuePreemptionSpec getPreemption() { return preemption; }
    public void setPreemption(QueuePreemptionSpec preemption) { this.preemption = preemption; }

    /** {@code Open} (the default) or {@code Closed}. */
    @JsonPropertyDescription("Open (the default): the queue admits new jobs; Closed: running jobs go on, "
            + "jobs that have not started wait.")
    public String getState() { return state; }
    public void setState(String state) { this.state = state; }

    /**
     * The namespaces whose Jobs and PodGroups may use the queue, by their labels (as Kueue's ClusterQueue);
     * unset, every namespace may. An empty selector selects every namespace. Ignored for the {@code default}
     * queue, which every namespace may use. See {@link QueueAccess}.
     */
    @JsonPropertyDescription("The namespaces whose Jobs and PodGroups may use the queue, by their "
            + "labels; unset, every namespace may, and an empty selector selects every namespace. Ignored for the "
            + "default queue.")
    public LabelSelector getNamespaceSelector() { return namespaceSelector; }
    public void setNamespaceSelector(LabelSelector namespaceSelector) { this.namespaceSelector = namespaceSelector; }
}
