package dev.muster.job.plugin;

import dev.muster.api.MusterLabels;
import dev.muster.api.batch.v1alpha1.Job;
import dev.muster.api.batch.v1alpha1.TaskSpec;
import dev.muster.api.batch.v1alpha1.validation.FieldError;
import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.api.model.ResourceRequirements;
import io.fabric8.kubernetes.api.model.VolumeProjectionBuilder;

import java.math.BigDecimal;
import java.math.RoundingMode;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * {@code mpi}: an MPI launcher on the master reaches the workers over ssh (implies svc and ssh). The master's
 * containers get {@code MPI_HOST}, the workers' hosts comma-separated, and {@code /etc/muster/hostfile}
 * (from ConfigMap {@code <job>-mpi}): one worker per line with {@code slots=} its GPUs, else its whole cpus.
 * Workers declare the ssh port.
 */
public final class MpiPlugin implements JobPlugin {
    /** Plugin name in {@code spec.plugins}. */
    public static final String NAME = "mpi";
    static final String DEFAULT_PORT = "22";
    static final String HOSTFILE = "hostfile";
    static final String GPU = "nvidia.com/gpu";

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
        return List.of(SvcPlugin.NAME, SshPlugin.NAME);
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
    public List<PluginObject> onJobCreate(Job job, PluginArgs args) {
        return List.of(new PluginObject(ConfigMap.class, configMapName(job), () -> new ConfigMapBuilder()
                .withNewMetadata().withName(configMapName(job))
                .withLabels(Map.of(MusterLabels.JOB_NAME, job.getMetadata().getName())).endMetadata()
                .withData(Map.of(HOSTFILE, hostfile(job, args)))
                .build(), true));
    }

    /** One line per worker pod: {@code <host> slots=<n>}. */
    static String hostfile(Job job, PluginArgs args) {
        List<String> lines = new ArrayList<>();
        JobHosts.task(job, MasterWorker.of(args, DEFAULT_PORT).worker()).ifPresent(worker -> {
            int slots = slots(worker);
            JobHosts.hosts(job, worker).forEach(host -> lines.add(host + " slots=" + slots));
        });
        return lines.isEmpty() ? "" : String.join("\n", lines) + "\n";
    }

    /** Processes a worker runs: its GPUs if it asks for any, else its cpus rounded down, at least 1. */
    static int slots(TaskSpec worker) {
        BigDecimal gpus = BigDecimal.ZERO;
        BigDecimal cpus = BigDecimal.ZERO;
        if (worker.getTemplate() != null && worker.getTemplate().getSpec() != null
                && worker.getTemplate().getSpec().getContainers() != null) {
            for (Container container : worker.getTemplate().getSpec().getContainers()) {
                gpus = gpus.add(amount(container.getResources(), GPU));
                cpus = cpus.add(amount(container.getResources(), "cpu"));
            }
        }
        BigDecimal slots = gpus.signum() > 0 ? gpus : cpus;
        return Math.max(1, slots.setScale(0, RoundingMode.FLOOR).intValueExact());
    }

    /** The request of {@code resource}, or its limit if only that is set (as the API server defaults it). */
    private static BigDecimal amount(ResourceRequirements resources, String resource) {
        if (resources == null) {
            return BigDecimal.ZERO;
        }
        Quantity quantity = resources.getRequests() != null && resources.getRequests().containsKey(resource)
                ? resources.getRequests().get(resource)
                : resources.getLimits() == null ? null : resources.getLimits().get(resource);
        return quantity == null ? BigDecimal.ZERO : quantity.getNumericalAmount();
    }

    @Override
    public void onPodCreate(Job job, PluginArgs args, TaskSpec task, int index, Pod pod) {
        MasterWorker roles = MasterWorker.of(args, DEFAULT_PORT);
        if (task.getName().equals(roles.master())) {
            String workers = JobHosts.task(job, roles.worker()).map(w -> String.join(",", JobHosts.hosts(job, w))).orElse("");
            PodEdits.env(pod, "MPI_HOST", workers);
            // svc acts first and always runs with mpi, so its projected volume is there to add the hostfile to.
            PodEdits.findVolume(pod, SvcPlugin.VOLUME).ifPresent(volume -> volume.getProjected().getSources().add(
                    new VolumeProjectionBuilder().withNewConfigMap().withName(configMapName(job)).endConfigMap().build()));
        } else if (task.getName().equals(roles.worker())) {
            PodEdits.port(pod, "mpijob-port", roles.port());
        }
    }
}
