package dev.muster.job.plugin;

import dev.muster.api.batch.v1alpha1.Job;
import dev.muster.api.batch.v1alpha1.TaskSpec;
import dev.muster.api.batch.v1alpha1.validation.FieldError;
import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.PersistentVolumeClaim;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.Secret;
import io.fabric8.kubernetes.api.model.Service;
import io.fabric8.kubernetes.api.model.networking.v1.NetworkPolicy;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * The plugins by name, and what a job's plugins do together. A plugin another one implies (mpi implies svc
 * and ssh) runs with its defaults unless the job lists it with arguments of its own. Plugins act in
 * registration order, so svc's volume exists before mpi adds its hostfile to it. Pure functions of the job.
 */
public final class JobPlugins {
    /** Every plugin Muster has; a new one is one class and one entry here. */
    public static final JobPlugins BUILT_IN = new JobPlugins(List.of(new SvcPlugin(), new SshPlugin(), new EnvPlugin(),
            new MpiPlugin(), new PyTorchPlugin(), new TensorFlowPlugin()), List.of(new VolumesPlugin()));

    /**
     * The kinds of object a plugin may create that the job controller watches, selected by the job-name label,
     * to recreate one deleted while its job runs (claims whole, since a job may name one it did not make).
     */
    public static final List<Class<? extends HasMetadata>> OBJECT_TYPES =
            List.of(Service.class, ConfigMap.class, NetworkPolicy.class, PersistentVolumeClaim.class);

    /**
     * The kinds a plugin may create that the job controller never reads: Secrets (the ssh key), so that the
     * manager needs no right to read any Secret of the cluster. Such an object is created before a job's pods
     * are (a 409 AlreadyExists means it is there), never compared or updated, and deleted with its Job by the
     * garbage collector through its ownerReference.
     */
    public static final List<Class<? extends HasMetadata>> CREATED_UNREAD = List.of(Secret.class);

    private final Map<String, JobPlugin> byName = new LinkedHashMap<>();
    private final List<JobPlugin> always;

    /**
     * @param plugins in the order they act on a pod, each named in {@code spec.plugins} to act
     * @param always  acting on every job after those, with no arguments (e.g. {@code spec.volumes})
     */
    public JobPlugins(List<JobPlugin> plugins, List<JobPlugin> always) {
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
        for (Map.Entry<String, JobPlugin> entry : byName.entrySet()) {
            if (declared.containsKey(entry.getKey())) {
                JobPlugin plugin = entry.getValue();
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
    public Map<JobPlugin, PluginArgs> active(Job job) {
        Map<String, List<String>> declared = declared(job);
        Set<String> wanted = new HashSet<>();
        for (String name : declared.keySet()) {
            want(name, wanted);
        }
        Map<JobPlugin, PluginArgs> active = new LinkedHashMap<>();
        for (JobPlugin plugin : byName.values()) {
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

    /** Every object the job's plugins want, in plugin order. */
    public List<PluginObject> onJobCreate(Job job) {
        List<PluginObject> objects = new ArrayList<>();
        active(job).forEach((plugin, args) -> objects.addAll(plugin.onJobCreate(job, args)));
        return objects;
    }

    /** Lets every plugin of the job add to the freshly built pod. */
    public void onPodCreate(Job job, TaskSpec task, int index, Pod pod) {
        active(job).forEach((plugin, args) -> plugin.onPodCreate(job, args, task, index, pod));
    }

    /** {@code status.controlledResources}: {@code Kind/name} of each object the plugins made, to the plugin's name. */
    public Map<String, String> controlledResources(Job job) {
        Map<String, String> resources = new TreeMap<>();
        active(job).forEach((plugin, args) -> plugin.onJobCreate(job, args)
                .forEach(object -> resources.put(object.reference(), plugin.name())));
        return resources;
    }

    private void want(String name, Set<String> wanted) {
        JobPlugin plugin = byName.get(name);
        if (plugin != null && wanted.add(name)) {
            plugin.implies().forEach(implied -> want(implied, wanted));
        }
    }

    private static Map<String, List<String>> declared(Job job) {
        return job.getSpec() == null || job.getSpec().getPlugins() == null ? Map.of() : job.getSpec().getPlugins();
    }
}
