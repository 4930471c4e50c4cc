package dev.muster.rendering.plugin;

import dev.muster.api.batch.v1alpha1.Job;
import dev.muster.api.batch.v1alpha1.validation.FieldError;

import java.util.List;

/** Checks an argument that names one of the job's tasks, e.g. pytorch's {@code --master}. */
final class TaskArgument {
    private TaskArgument() {
    }

    /**
     * Adds an error if the task the argument names does not exist. A task named by default only (the
     * argument not given) must exist only if {@code required}: e.g. pytorch needs a master, but a
     * TensorFlow job need not have every role.
     */
    static void check(Job job, String plugin, PluginArgs args, String argument, String fallback, boolean required,
                      List<FieldError> errors) {
        String task = args.value(argument, fallback);
        if (JobHosts.task(job, task).isPresent() || (!required && args.value(argument).isEmpty())) {
            return;
        }
        String how = args.value(argument).isPresent() ? "" : " (the default)";
        errors.add(new FieldError("spec.plugins." + plugin, "argument --" + argument + " names task '" + task + "'"
                + how + ", which the job does not have; its tasks are "
                + String.join(", ", job.getSpec().getTasks().stream().map(t -> t.getName()).toList())));
    }
}
