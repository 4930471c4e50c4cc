package dev.muster.api.scheduling.v1alpha1;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import io.fabric8.kubernetes.api.model.Quantity;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/** Observed state of a {@link Queue}; written only by the scheduler. */
@JsonInclude(JsonInclude.Include.NON_NULL)
public class QueueStatus {
    private Map<String, Quantity> allocated;
    private Map<String, Quantity> fairShare;
    private Map<String, Quantity> demand;
    private Integer pending;
    private Integer running;
    private List<QueueCondition> conditions = new ArrayList<>();

    /** Resources requested by the queue's bound pods (the subtree's, for a parent queue). */
    @JsonPropertyDescription("Resources requested by the queue's bound pods (the subtree's, for a parent queue).")
    public Map<String, Quantity> getAllocated() { return allocated; }
    public void setAllocated(Map<String, Quantity> allocated) { this.allocated = allocated; }

    /** The queue's entitlement, per resource, from the last scheduling cycle's water-filling. */
    @JsonPropertyDescription("The queue's entitlement, per resource, from the last scheduling cycle.")
    public Map<String, Quantity> getFairShare() { return fairShare; }
    public void setFairShare(Map<String, Quantity> fairShare) { this.fairShare = fairShare; }

    /** Resources the queue's gangs ask for, running and waiting. */
    @JsonPropertyDescription("Resources the queue's gangs ask for, running and waiting.")
    public Map<String, Quantity> getDemand() { return demand; }
    public void setDemand(Map<String, Quantity> demand) { this.demand = demand; }

    /** Gangs of the queue waiting to start. */
    @JsonPropertyDescription("Gangs of the queue waiting to start.")
    public Integer getPending() { return pending; }
    public void setPending(Integer pending) { this.pending = pending; }

    /** Gangs of the queue running. */
    @JsonPropertyDescription("Gangs of the queue running.")
    public Integer getRunning() { return running; }
    public void setRunning(Integer running) { this.running = running; }

    /** At most one condition per type; {@link QueueCondition#VALID} at least. */
    @JsonPropertyDescription("At most one condition per type; Valid at least.")
    public List<QueueCondition> getConditions() { return conditions; }
    public void setConditions(List<QueueCondition> conditions) { this.conditions = conditions; }
}
