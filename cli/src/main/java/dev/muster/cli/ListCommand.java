package dev.muster.cli;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.client.KubernetesClient;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.ParentCommand;

import java.util.List;
import java.util.concurrent.Callable;

/** A command that lists objects of one kind as a table, or as a {@code List} object for {@code -o json|yaml}. */
abstract class ListCommand<T extends HasMetadata> implements Callable<Integer> {
    @ParentCommand
    MusterCli cli;
    @Mixin
    ListOptions options;

    private final Class<T> type;
    private final List<String> columns;

    ListCommand(Class<T> type, List<String> columns) {
        this.type = type;
        this.columns = columns;
    }

    /** The table's cells of one object, one per column. */
    abstract List<String> cells(T object);

    @Override
    public Integer call() {
        try (KubernetesClient client = options.cluster.connect()) {
            options.print(cli, client, options.list(client, type), columns, this::cells);
            return 0;
        }
    }
}
