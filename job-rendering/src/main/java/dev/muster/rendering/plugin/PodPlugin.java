package dev.muster.rendering.plugin;

import dev.muster.api.batch.v1alpha1.Job;
import dev.muster.api.batch.v1alpha1.TaskSpec;
import dev.muster.api.batch.v1alpha1.validation.FieldError;
import io.fabric8.kubernetes.api.model.Pod;

import java.util.List;
import java.util.Set;

/**
 * A job plugin as the pods see it, named as in {@code spec.plugins}: its arguments, the plugins it implies,
 * what is wrong with its arguments, and what it adds to each pod. Every method is a pure function of the
 * job and the plugin's arguments, so that the Job controller (which creates the pods) and the gang scheduler
 * (which admits a gang from the pods before they exist) see the same pods. The objects a plugin wants beside
 * the pods (Services, ConfigMaps, Secrets) are the Job controller's concern. Registered in {@link PodPlugins}.
 */
public interface PodPlugin {
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

    /**
     * Adds to {@code pod}, pod {@code index} of {@code task} as just built from the template, what this
     * plugin gives it. A field or variable the template already sets is left as the user set it.
     */
    default void onPodCreate(Job job, PluginArgs args, TaskSpec task, int index, Pod pod) {
    }
}
