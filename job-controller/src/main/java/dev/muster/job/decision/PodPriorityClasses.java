package dev.muster.job.decision;

import dev.muster.api.batch.v1alpha1.Job;
import dev.muster.api.batch.v1alpha1.TaskSpec;
import dev.muster.rendering.JobPodRenderer;

import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.function.Predicate;

/**
 * The PriorityClasses a job's pods will name: a task template's own, else the job's {@code priorityClassName}, as
 * the pods are rendered. kube-apiserver's Priority admission refuses a pod whose class does not exist ({@code no
 * PriorityClass with name x was found}), so a job naming one waits for it, Pending and saying so, before it holds
 * room or makes pods that would only be refused, as it waits for a missing claim.
 */
public final class PodPriorityClasses {
    private PodPriorityClasses() {
    }

    /** The classes the job's pods name, each once. */
    public static Set<String> named(Job job) {
        Set<String> names = new LinkedHashSet<>();
        for (TaskSpec task : tasks(job)) {
            String name = JobPodRenderer.priorityClassName(job, task);
            if (name != null) {
                names.add(name);
            }
        }
        return names;
    }

    /**
     * The classes the job's pods name that do not exist, each as {@code PriorityClass <name> (<field>)}, the field
     * being the job's {@code spec.priorityClassName} or the task template's that sets it.
     */
    public static List<String> missing(Job job, Predicate<String> exists) {
        Set<String> missing = new LinkedHashSet<>();
        List<TaskSpec> tasks = tasks(job);
        for (int i = 0; i < tasks.size(); i++) {
            String name = JobPodRenderer.priorityClassName(job, tasks.get(i));
            if (name == null || exists.test(name)) {
                continue;
            }
            TaskSpec task = tasks.get(i);
            boolean own = task.getTemplate() != null && task.getTemplate().getSpec() != null
                    && name.equals(task.getTemplate().getSpec().getPriorityClassName());
            String field = own ? "spec.tasks[" + i + "].template.spec.priorityClassName" : "spec.priorityClassName";
            missing.add("PriorityClass " + name + " (" + field + ")");
        }
        return List.copyOf(missing);
    }

    private static List<TaskSpec> tasks(Job job) {
        return job.getSpec() == null || job.getSpec().getTasks() == null ? List.of() : job.getSpec().getTasks();
    }
}
