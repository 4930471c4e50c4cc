package dev.muster.api.batch.v1alpha1;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import io.fabric8.generator.annotation.Pattern;
import io.fabric8.generator.annotation.Size;

import java.util.List;

/** Tasks that must be available before a task's pods are created. */
@JsonInclude(JsonInclude.Include.NON_NULL)
public class DependsOn {
    // Bounded so that admission can compare names within its CEL cost budget.
    @Size(max = JobDefaults.MAX_TASKS)
    private List<@Size(max = 63) String> name;
    @Pattern("^(any|all)$")
    private String iteration;

    /** Names of the tasks depended on. */
    @JsonPropertyDescription("Names of the tasks depended on.")
    public List<String> getName() { return name; }
    public void setName(List<String> name) { this.name = name; }

    /** {@code all} (default): every named task must be up; {@code any}: one is enough. */
    @JsonPropertyDescription("all (the default): every named task must be up; any: one is enough.")
    public String getIteration() { return iteration; }
    public void setIteration(String iteration) { this.iteration = iteration; }
}
