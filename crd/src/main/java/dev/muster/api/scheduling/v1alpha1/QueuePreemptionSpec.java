package dev.muster.api.scheduling.v1alpha1;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import dev.muster.api.batch.v1alpha1.GoDuration;
import io.fabric8.generator.annotation.Default;
import io.fabric8.generator.annotation.Pattern;

/** {@code spec.preemption} of a {@link Queue}: how its waiting gangs may take room. */
@JsonInclude(JsonInclude.Include.NON_NULL)
public class QueuePreemptionSpec {
    /** {@code withinQueue}: gangs of the queue never preempt one another. */
    public static final String NEVER = "Never";
    /** {@code withinQueue}: a gang may preempt gangs of the same queue of lower priority. */
    public static final String LOWER_PRIORITY = "LowerPriority";

    @Pattern("^(" + NEVER + "|" + LOWER_PRIORITY + ")$")
    @Default(LOWER_PRIORITY)
    private String withinQueue;
    @Default("true")
    private Boolean reclaim;
    @Pattern(GoDuration.PATTERN)
    @Default("30s")
    private String reclaimDelay;

    /** {@code Never} or {@code LowerPriority} (the default). */
    @JsonPropertyDescription("Never: gangs of the queue never preempt one another; LowerPriority (the "
            + "default): a gang may preempt gangs of the same queue of lower priority.")
    public String getWithinQueue() { return withinQueue; }
    public void setWithinQueue(String withinQueue) { this.withinQueue = withinQueue; }

    /** Whether the queue's waiting gangs may evict gangs of queues above their fair share; defaults to true. */
    @JsonPropertyDescription("Whether the queue's waiting gangs may evict gangs of queues above their "
            + "fair share; defaults to true.")
    public Boolean getReclaim() { return reclaim; }
    public void setReclaim(Boolean reclaim) { this.reclaim = reclaim; }

    /** How long a gang waits before it reclaims, as a Go duration ({@code 30s}, {@code 5m}); defaults to 30s. */
    @JsonPropertyDescription("How long a gang waits before it reclaims, as a Go duration (30s, 5m); defaults to 30s.")
    public String getReclaimDelay() { return reclaimDelay; }
    public void setReclaimDelay(String reclaimDelay) { this.reclaimDelay = reclaimDelay; }
}
