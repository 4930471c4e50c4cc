package dev.muster.job.plugin;

import dev.muster.api.batch.v1alpha1.Job;
import dev.muster.api.batch.v1alpha1.TaskSpec;
import dev.muster.api.batch.v1alpha1.validation.FieldError;
import io.fabric8.kubernetes.api.model.Pod;

import java.util.List;
import java.util.Set;

/**
 * A job plugin, named as in {@code spec.plugins}: what it adds to a job's pods and which objects it wants
 * beside them. Every method is a pure function of the job and the plugin's arguments; the job controller
 * does the Kubernetes I/O. Registered by name in {@link JobPlugins}.
 */
public interface JobPlugin {
    /** The key in {@code spec.plugins}, e.g. {@code pytorch}. */
    String name();

    /** Arguments given alone, e.g. {@code --publish-not-ready-addresses}; names without dashes. */
    default Set<String> switches() {
        return Set.of();
    }

    /** Arguments that take a value, e.g. {@code --port=29500}; names without dashes. */
    default Set<String> valuedArguments() {
        return Set.of();
    }

    /** Plugins this one needs, which run with their defaults unless the job lists them itself. */
    default List<String> implies() {
        return List.of();
    }

    /** Adds to {@code errors} what is wrong with the arguments against the job, e.g. a task that does not exist. */
    default void validate(Job job, PluginArgs args, List<FieldError> errors) {
    }

    /** The objects the job needs before its first pod: created if absent, owned by the job. */
    default List<PluginObject> onJobCreate(Job job, PluginArgs args) {
        return List.of();
    }

    /**
     * Adds to {@code pod}, pod {@code index} of {@code task} as just built from the template, what this
     * plugin gives it. A variable the template already sets is left as the user set it.
     */
    default void onPodCreate(Job job, PluginArgs args, TaskSpec task, int index, Pod pod) {
    }
}
