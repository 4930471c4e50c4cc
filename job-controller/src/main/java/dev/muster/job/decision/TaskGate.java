package dev.muster.job.decision;

import dev.muster.api.batch.v1alpha1.DependsOn;
import dev.muster.api.batch.v1alpha1.JobDefaults;
import dev.muster.api.batch.v1alpha1.JobSpec;
import dev.muster.api.batch.v1alpha1.TaskSpec;

import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Predicate;
import java.util.stream.Collectors;

/**
 * Which tasks may have pods now ({@code dependsOn}): a task whose dependencies have at least their
 * {@code minAvailable} pods Running or Succeeded ({@code iteration: all}, the default, needs every one;
 * {@code any} needs one), or that has pods already. A pure function of the spec and the pod counts.
 */
final class TaskGate {
    private TaskGate() {
    }

    /** Names of the tasks whose pods may be created now, in spec order. */
    static Set<String> open(JobSpec spec, PodCounts counts) {
        List<TaskSpec> tasks = JobDefaults.tasksOf(spec);
        Map<String, TaskSpec> byName = tasks.stream().collect(Collectors.toMap(TaskSpec::getName, t -> t, (a, b) -> a));
        Predicate<String> up = name -> byName.containsKey(name)
                && counts.up(name) >= JobDefaults.minAvailable(byName.get(name));
        Set<String> open = new LinkedHashSet<>();
        for (TaskSpec task : tasks) {
            DependsOn dependsOn = task.getDependsOn();
            // A task that already has pods keeps them in the gang even if what it depends on went down.
            if (counts.byTask().containsKey(task.getName()) || dependsOn == null || dependsOn.getName() == null || dependsOn.getName().isEmpty()
                    || (JobDefaults.dependsOnAll(dependsOn) ? dependsOn.getName().stream().allMatch(up)
                    : dependsOn.getName().stream().anyMatch(up))) {
                open.add(task.getName());
            }
        }
        return open;
    }
}
