package dev.muster.cli;

import dev.muster.api.scheduling.v1alpha1.Queue;
import dev.muster.api.scheduling.v1alpha1.QueueDefaults;
import dev.muster.api.scheduling.v1alpha1.QueueSpec;
import dev.muster.api.scheduling.v1alpha1.QueueStatus;
import io.fabric8.kubernetes.api.model.KubernetesList;
import io.fabric8.kubernetes.client.KubernetesClient;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.ParentCommand;
import picocli.CommandLine.Spec;

import java.util.Comparator;
import java.util.List;
import java.util.concurrent.Callable;

/**
 * {@code muster queues} ({@code q}): the cluster's Queues with their spec and what the scheduler last wrote in
 * their status, by name. Queues are cluster-scoped, so {@code -n} is refused rather than ignored.
 */
@Command(name = "queues", aliases = "q", description = "Lists Queues: weight, state, guarantee, limit, allocation, "
        + "fair share and gang counts.")
final class QueuesCommand implements Callable<Integer> {
    static final List<String> COLUMNS = List.of("NAME", "PARENT", "WEIGHT", "STATE", "GUARANTEE", "LIMIT", "ALLOCATED",
            "FAIR SHARE", "PENDING", "RUNNING");

    @ParentCommand
    MusterCli cli;
    @Spec
    CommandSpec spec;
    @Mixin
    ClusterOptions cluster;
    @Option(names = {"-o", "--output"}, paramLabel = "FORMAT", defaultValue = "table",
            description = "table, json or yaml (default: ${DEFAULT-VALUE}).")
    OutputFormat output;

    @Override
    public Integer call() {
        if (cluster.namespace != null) {
            throw new ParameterException(spec.commandLine(), "queues are cluster-scoped: -n/--namespace does not apply");
        }
        try (KubernetesClient client = cluster.connect()) {
            List<Queue> queues = client.resources(Queue.class).list().getItems().stream()
                    .sorted(Comparator.comparing(q -> q.getMetadata().getName())).toList();
            if (output != OutputFormat.table) {
                KubernetesList list = new KubernetesList();
                list.setItems(List.copyOf(queues));
                output.write(cli.out, client.getKubernetesSerialization(), list);
            } else if (queues.isEmpty()) {
                cli.err.println("No resources found.");
            } else {
                Table table = new Table(COLUMNS);
                queues.forEach(queue -> table.row(cells(queue)));
                table.print(cli.out, "");
            }
            return 0;
        }
    }

    private static List<String> cells(Queue queue) {
        QueueSpec spec = queue.getSpec();
        QueueStatus status = queue.getStatus() == null ? new QueueStatus() : queue.getStatus();
        return List.of(queue.getMetadata().getName(), parent(spec), String.valueOf(QueueDefaults.weight(spec)),
                QueueDefaults.state(spec), Quantities.format(QueueDefaults.guarantee(spec)), Quantities.format(QueueDefaults.limit(spec)),
                Quantities.format(status.getAllocated()), Quantities.format(status.getFairShare()),
                count(status.getPending()), count(status.getRunning()));
    }

    /** The queue's parent, {@value JobsCommand#NONE} for a queue at the top of the tree. */
    static String parent(QueueSpec spec) {
        String parent = QueueDefaults.parent(spec);
        return parent == null ? JobsCommand.NONE : parent;
    }

    /** A gang count of the status, {@value JobsCommand#NONE} before the scheduler has written one. */
    static String count(Integer count) {
        return count == null ? JobsCommand.NONE : String.valueOf(count);
    }
}
