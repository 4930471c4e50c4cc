package dev.muster.job.plugin;

import dev.muster.api.batch.v1alpha1.Job;
import dev.muster.rendering.plugin.PluginArgs;
import dev.muster.rendering.plugin.PodPlugin;

import java.util.List;

/**
 * The objects a job plugin wants beside the job's pods (Services, ConfigMaps, Secrets, claims), for the
 * plugin of the same {@link #name} in {@link dev.muster.rendering.plugin.PodPlugins}, which owns the plugin's
 * arguments and what it adds to the pods. Every method is a pure function of the job and the plugin's
 * arguments; the job controller does the Kubernetes I/O. Registered in {@link JobPlugins}.
 */
public interface JobPlugin {
    /** The key in {@code spec.plugins}, the {@link PodPlugin#name} of the same plugin. */
    String name();

    /** The objects the job needs before its first pod: created if absent, owned by the job. */
    default List<PluginObject> onJobCreate(Job job, PluginArgs args) {
        return List.of();
    }
}
