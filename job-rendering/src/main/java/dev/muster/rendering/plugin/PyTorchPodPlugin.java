package dev.muster.rendering.plugin;

import dev.muster.api.batch.v1alpha1.Job;
import dev.muster.api.batch.v1alpha1.JobDefaults;
import dev.muster.api.batch.v1alpha1.TaskSpec;
import dev.muster.api.batch.v1alpha1.validation.FieldError;
import io.fabric8.kubernetes.api.model.Pod;

import java.util.List;
import java.util.Set;

/**
 * {@code pytorch}: what {@code torch.distributed} reads from the environment. Master and worker pods get
 * {@code MASTER_ADDR} (the first master pod's host), {@code MASTER_PORT}, {@code WORLD_SIZE} (all
 * replicas of both tasks) and {@code RANK} (masters first, then workers by index), and declare the port.
 */
public final class PyTorchPodPlugin implements PodPlugin {
    /** Plugin name in {@code spec.plugins}. */
    public static final String NAME = "pytorch";
    static final String DEFAULT_PORT = "23456";

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public Set<String> valuedArguments() {
        return MasterWorker.ARGUMENTS;
    }

    @Override
    public List<String> implies() {
        return List.of(SvcPodPlugin.NAME);
    }

    @Override
    public void validate(Job job, PluginArgs args, List<FieldError> errors) {
        MasterWorker.validate(job, NAME, args, false, errors);
    }

    @Override
    public void onPodCreate(Job job, PluginArgs args, TaskSpec task, int index, Pod pod) {
        MasterWorker roles = MasterWorker.of(args, DEFAULT_PORT);
        if (!task.getName().equals(roles.master()) && !task.getName().equals(roles.worker())) {
            return;
        }
        int masters = JobHosts.task(job, roles.master()).map(JobDefaults::replicas).orElse(0);
        int workers = JobHosts.task(job, roles.worker()).map(JobDefaults::replicas).orElse(0);
        int rank = task.getName().equals(roles.master()) ? index : masters + index;
        PodEdits.env(pod, "MASTER_ADDR", JobHosts.host(job, roles.master(), 0));
        PodEdits.env(pod, "MASTER_PORT", Integer.toString(roles.port()));
        PodEdits.env(pod, "WORLD_SIZE", Integer.toString(masters + workers));
        PodEdits.env(pod, "RANK", Integer.toString(rank));
        PodEdits.port(pod, "pytorchjob-port", roles.port());
    }
}
