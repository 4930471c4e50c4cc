package dev.muster.rendering.plugin;

import dev.muster.api.batch.v1alpha1.Job;
import dev.muster.api.batch.v1alpha1.TaskSpec;
import dev.muster.api.batch.v1alpha1.validation.FieldError;
import io.fabric8.kubernetes.api.model.Pod;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The plugins by name, and what a job's plugins do to its pods together. A plugin another one implies (mpi
 * implies svc and ssh) runs with its defaults unless the job lists it with arguments of its own. Plugins act
 * in registration order, so svc's volume exists before mpi adds its hostfile to it. Pure functions of the job.
 */
public final class PodPlugins {
    /** Every plugin Muster has; a new one is one class and one entry here. */
    public static final PodPlugins BUILT_IN = new PodPlugins(List.of(new SvcPodPlugin(), new SshPodPlugin(),
            new EnvPodPlugin(), new MpiPodPlugin(), new PyTorchPodPlugin(), new TensorFlowPodPlugin(), new RayPodPlugin()),
            List.of(new VolumesPodPlugin()));

    private final Map<String, PodPlugin> byName = new LinkedHashMap<>();
    private final List<PodPlugin> always;

    /**
     * @param plugins in the order they act on a pod, each named in {@code spec.plugins} to act
     * @param always  acting on every job after those, with no arguments (e.g. {@code spec.volumes})
     */
    public PodPlugins(List<PodPlugin> plugins, List<PodPlugin> always) {
        plugins.forEach(p -> byName.put(p.name(), p));
        this.always = List.copyOf(always);
    }

    /** The names {@code spec.plugins} may use, in order. */
    public Set<String> names() {
        return byName.keySet();
    }

    /**
     * What is wrong with the job's plugins: unknown arguments, missing values, tasks that do not exist, at
     * {@code spec.plugins.<name>}. Plugin names that are not registered are left to the job's validator.
     */
    public List<FieldError> validate(Job job) {
        List<FieldError> errors = new ArrayList<>();
        Map<String, List<String>> declared = declared(job);
        for (Map.Entry<String, PodPlugin> entry : byName.entrySet()) {
            if (declared.containsKey(entry.getKey())) {
                PodPlugin plugin = entry.getValue();
                PluginArgs args = PluginArgs.parse(plugin.name(), declared.get(plugin.name()), plugin.switches(),
                        plugin.valuedArguments(), errors);
                plugin.validate(job, args, errors);
            }
        }
        return errors;
    }

    /**
     * The plugins the job runs (those it lists and those they imply, then those that always act), in order,
     * with their arguments.
     */
    public Map<PodPlugin, PluginArgs> active(Job job) {
        Map<String, List<String>> declared = declared(job);
        Set<String> wanted = new HashSet<>();
        for (String name : declared.keySet()) {
            want(name, wanted);
        }
        Map<PodPlugin, PluginArgs> active = new LinkedHashMap<>();
        for (PodPlugin plugin : byName.values()) {
            if (wanted.contains(plugin.name())) {
                // Arguments were refused by validate() already; a job with errors gets no pods.
                PluginArgs args = PluginArgs.parse(plugin.name(), declared.get(plugin.name()), plugin.switches(),
                        plugin.valuedArguments(), new ArrayList<>());
                active.put(plugin, args);
            }
        }
        always.forEach(plugin -> active.put(plugin, PluginArgs.NONE));
        return active;
    }

    /** Lets every plugin of the job add to the freshly built pod, in order. */
    public void onPodCreate(Job job, TaskSpec task, int index, Pod pod) {
        active(job).forEach((plugin, args) -> plugin.onPodCreate(job, args, task, index, pod));
    }

    private void want(String name, Set<String> wanted) {
        PodPlugin plugin = byName.get(name);
        if (plugin != null && wanted.add(name)) {
            plugin.implies().forEach(implied -> want(implied, wanted));
        }
    }

    private static Map<String, List<String>> declared(Job job) {
        return job.getSpec() == null || job.getSpec().getPlugins() == null ? Map.of() : job.getSpec().getPlugins();
    }
}
