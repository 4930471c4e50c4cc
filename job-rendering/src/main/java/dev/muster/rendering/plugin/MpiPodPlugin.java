package dev.muster.rendering.plugin;

import dev.muster.api.batch.v1alpha1.Job;
import dev.muster.api.batch.v1alpha1.TaskSpec;
import dev.muster.api.batch.v1alpha1.validation.FieldError;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.VolumeProjectionBuilder;

import java.util.List;
import java.util.Set;

/**
 * {@code mpi}, as the pods see it: an MPI launcher on the master reaches the workers over ssh (implies svc
 * and ssh). The master's containers get {@code MPI_HOST}, the workers' hosts comma-separated, and
 * {@code /etc/muster/hostfile} (from ConfigMap {@code <job>-mpi}, made by the Job controller). Workers
 * declare the ssh port.
 */
public final class MpiPodPlugin implements PodPlugin {
    /** Plugin name in {@code spec.plugins}. */
    public static final String NAME = "mpi";
    /** The port workers declare unless {@code --port} says otherwise: ssh's. */
    public static final String DEFAULT_PORT = "22";

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
        return List.of(SvcPodPlugin.NAME, SshPodPlugin.NAME);
    }

    @Override
    public void validate(Job job, PluginArgs args, List<FieldError> errors) {
        MasterWorker.validate(job, NAME, args, true, errors);
    }

    /** Name of the job's ConfigMap holding the hostfile. */
    public static String configMapName(Job job) {
        return job.getMetadata().getName() + "-mpi";
    }

    @Override
    public void onPodCreate(Job job, PluginArgs args, TaskSpec task, int index, Pod pod) {
        MasterWorker roles = MasterWorker.of(args, DEFAULT_PORT);
        if (task.getName().equals(roles.master())) {
            String workers = JobHosts.task(job, roles.worker()).map(w -> String.join(",", JobHosts.hosts(job, w))).orElse("");
            PodEdits.env(pod, "MPI_HOST", workers);
            // svc acts first and always runs with mpi, so its projected volume is there to add the hostfile to.
            PodEdits.findVolume(pod, SvcPodPlugin.VOLUME).ifPresent(volume -> volume.getProjected().getSources().add(
                    new VolumeProjectionBuilder().withNewConfigMap().withName(configMapName(job)).endConfigMap().build()));
        } else if (task.getName().equals(roles.worker())) {
            PodEdits.port(pod, "mpijob-port", roles.port());
        }
    }
}
