package dev.muster.job.plugin;

import dev.muster.api.MusterLabels;
import dev.muster.api.batch.v1alpha1.Job;
import dev.muster.api.batch.v1alpha1.TaskSpec;
import dev.muster.rendering.plugin.JobHosts;
import dev.muster.rendering.plugin.MasterWorker;
import dev.muster.rendering.plugin.MpiPodPlugin;
import dev.muster.rendering.plugin.PluginArgs;
import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.api.model.ResourceRequirements;

import java.math.BigDecimal;
import java.math.RoundingMode;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * {@code mpi}'s object: the ConfigMap {@code <job>-mpi} holding the hostfile, one worker per line with
 * {@code slots=} its GPUs, else its whole cpus. What the pods get ({@code MPI_HOST}, the hostfile mounted, the
 * workers' port) is {@link MpiPodPlugin}'s.
 */
public final class MpiPlugin implements JobPlugin {
    static final String HOSTFILE = "hostfile";
    static final String GPU = "nvidia.com/gpu";

    @Override
    public String name() {
        return MpiPodPlugin.NAME;
    }

    @Override
    public List<PluginObject> onJobCreate(Job job, PluginArgs args) {
        return List.of(new PluginObject(ConfigMap.class, MpiPodPlugin.configMapName(job), () -> new ConfigMapBuilder()
                .withNewMetadata().withName(MpiPodPlugin.configMapName(job))
                .withLabels(Map.of(MusterLabels.JOB_NAME, job.getMetadata().getName())).endMetadata()
                .withData(Map.of(HOSTFILE, hostfile(job, args)))
                .build(), true));
    }

    /** One line per worker pod: {@code <host> slots=<n>}. */
    static String hostfile(Job job, PluginArgs args) {
        List<String> lines = new ArrayList<>();
        JobHosts.task(job, MasterWorker.of(args, MpiPodPlugin.DEFAULT_PORT).worker()).ifPresent(worker -> {
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
}
