package dev.muster.api.batch.v1alpha1;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;

import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;

/** Pod counts of one task by pod phase ({@code Pending}, {@code Running}, {@code Succeeded}, {@code Failed}, ...). */
@JsonInclude(JsonInclude.Include.NON_NULL)
public class TaskState {
    private Map<String, Integer> phase = new TreeMap<>();

    public TaskState() {
    }

    public TaskState(Map<String, Integer> phase) {
        this.phase = new TreeMap<>(phase);
    }

    @JsonPropertyDescription("Pod counts of the task by pod phase (Pending, Running, Succeeded, Failed, ...).")
    public Map<String, Integer> getPhase() { return phase; }
    public void setPhase(Map<String, Integer> phase) { this.phase = phase; }

    /** Equal counts: lets the job controller tell an unchanged observation without serialising it. */
    @Override
    public boolean equals(Object other) {
        return other instanceof TaskState that && Objects.equals(phase, that.phase);
    }

    @Override
    public int hashCode() {
        return Objects.hashCode(phase);
    }
}
