package dev.muster.api.batch.v1alpha1.validation;

import dev.muster.api.batch.v1alpha1.DependsOn;
import dev.muster.api.batch.v1alpha1.TaskSpec;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * Checks the tasks' {@code dependsOn}: names of existing tasks, a known iteration, and no cycle, since
 * tasks in a cycle would wait for each other for ever.
 */
final class DependencyValidator {
    private DependencyValidator() {
    }

    static void validate(List<TaskSpec> tasks, List<FieldError> errors) {
        Set<String> names = new HashSet<>();
        tasks.stream().filter(t -> t != null && t.getName() != null).forEach(t -> names.add(t.getName()));
        Map<String, List<String>> edges = new HashMap<>();
        for (int i = 0; i < tasks.size(); i++) {
            TaskSpec task = tasks.get(i);
            DependsOn dependsOn = task == null ? null : task.getDependsOn();
            if (dependsOn == null) {
                continue;
            }
            String path = "spec.tasks[" + i + "].dependsOn";
            String iteration = dependsOn.getIteration();
            if (iteration != null && !iteration.equals("any") && !iteration.equals("all")) {
                errors.add(new FieldError(path + ".iteration", "must be any or all, was '" + iteration + "'"));
            }
            List<String> on = dependsOn.getName() == null ? List.of() : dependsOn.getName();
            for (int j = 0; j < on.size(); j++) {
                if (!names.contains(on.get(j))) {
                    errors.add(new FieldError(path + ".name[" + j + "]", "unknown task '" + on.get(j) + "'"));
                }
            }
            if (task.getName() != null) {
                edges.put(task.getName(), on.stream().filter(names::contains).toList());
            }
        }
        for (int i = 0; i < tasks.size(); i++) {
            TaskSpec task = tasks.get(i);
            if (task != null && task.getName() != null) {
                int index = i;
                cycleThrough(task.getName(), edges).ifPresent(cycle -> errors.add(new FieldError(
                        "spec.tasks[" + index + "].dependsOn", "tasks depend on each other in a cycle: " + cycle)));
            }
        }
    }

    /** {@code a -> b -> a} if a path of dependencies leads from {@code start} back to it. */
    private static Optional<String> cycleThrough(String start, Map<String, List<String>> edges) {
        List<String> path = new ArrayList<>(List.of(start));
        return search(start, start, edges, path, new HashSet<>()) ? Optional.of(String.join(" -> ", path)) : Optional.empty();
    }

    private static boolean search(String start, String at, Map<String, List<String>> edges, List<String> path, Set<String> seen) {
        for (String next : edges.getOrDefault(at, List.of())) {
            path.add(next);
            if (next.equals(start) || (seen.add(next) && search(start, next, edges, path, seen))) {
                return true;
            }
            path.remove(path.size() - 1);
        }
        return false;
    }
}
