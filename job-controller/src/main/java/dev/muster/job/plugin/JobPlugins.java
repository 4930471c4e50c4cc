package dev.muster.job.plugin;

import dev.muster.api.batch.v1alpha1.Job;
import dev.muster.api.batch.v1alpha1.validation.FieldError;
import dev.muster.rendering.plugin.PluginArgs;
import dev.muster.rendering.plugin.PodPlugins;
import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.PersistentVolumeClaim;
import io.fabric8.kubernetes.api.model.Secret;
import io.fabric8.kubernetes.api.model.Service;
import io.fabric8.kubernetes.api.model.networking.v1.NetworkPolicy;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * The objects a job's plugins want beside its pods, together: the plugins the job runs and their arguments
 * are {@link PodPlugins}' (which also renders what they add to the pods); this adds, for those that want
 * any, their objects. Pure functions of the job.
 */
public final class JobPlugins {
    /** Every plugin Muster has that wants objects; the others only edit pods. */
    public static final JobPlugins BUILT_IN = new JobPlugins(PodPlugins.BUILT_IN,
            List.of(new SvcPlugin(), new SshPlugin(), new MpiPlugin(), new RayPlugin(), new VolumesPlugin()));

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

    private final PodPlugins plugins;
    private final Map<String, JobPlugin> byName = new LinkedHashMap<>();

    /**
     * @param plugins the plugins, their arguments and what they do to pods
     * @param objects the object parts of those of them that want objects, each under its plugin's name
     */
    public JobPlugins(PodPlugins plugins, List<JobPlugin> objects) {
        this.plugins = plugins;
        objects.forEach(p -> byName.put(p.name(), p));
    }

    /** The names {@code spec.plugins} may use, in order. */
    public Set<String> names() {
        return plugins.names();
    }

    /** What is wrong with the job's plugins' arguments ({@link PodPlugins#validate}). */
    public List<FieldError> validate(Job job) {
        return plugins.validate(job);
    }

    /** Every object the job's plugins want, in plugin order. */
    public List<PluginObject> onJobCreate(Job job) {
        List<PluginObject> objects = new ArrayList<>();
        plugins.active(job).forEach((plugin, args) -> {
            JobPlugin objectPart = byName.get(plugin.name());
            if (objectPart != null) {
                objects.addAll(objectPart.onJobCreate(job, args));
            }
        });
        return objects;
    }

    /** {@code status.controlledResources}: {@code Kind/name} of each object the plugins made, to the plugin's name. */
    public Map<String, String> controlledResources(Job job) {
        Map<String, String> resources = new TreeMap<>();
        plugins.active(job).forEach((plugin, args) -> {
            JobPlugin objects = byName.get(plugin.name());
            if (objects != null) {
                objects.onJobCreate(job, args).forEach(object -> resources.put(object.reference(), plugin.name()));
            }
        });
        return resources;
    }
}
