package dev.muster.rendering.plugin;

import dev.muster.api.batch.v1alpha1.Job;
import dev.muster.api.batch.v1alpha1.TaskSpec;
import io.fabric8.kubernetes.api.model.Pod;

/** {@code env}: every container learns its pod's index in its task, under Muster's and Volcano's names. */
public final class EnvPodPlugin implements PodPlugin {
    /** Plugin name in {@code spec.plugins}. */
    public static final String NAME = "env";

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public void onPodCreate(Job job, PluginArgs args, TaskSpec task, int index, Pod pod) {
        String value = Integer.toString(index);
        for (String variable : new String[] {"MUSTER_TASK_INDEX", "VC_TASK_INDEX", "VK_TASK_INDEX"}) {
            PodEdits.env(pod, variable, value);
        }
    }
}
