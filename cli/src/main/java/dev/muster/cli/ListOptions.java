package dev.muster.cli;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.KubernetesList;
import io.fabric8.kubernetes.client.KubernetesClient;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.function.Function;

/** The options of the listing commands ({@code -A}, {@code -o} and the cluster's) and their printing. */
final class ListOptions {
    @Mixin
    ClusterOptions cluster;
    @Option(names = {"-A", "--all-namespaces"}, description = "List across all namespaces.")
    boolean allNamespaces;
    @Option(names = {"-o", "--output"}, paramLabel = "FORMAT", defaultValue = "table",
            description = "table, json or yaml (default: ${DEFAULT-VALUE}).")
    OutputFormat output;

    /** The objects of {@code type} in the namespace, or in all, by namespace and name. */
    <T extends HasMetadata> List<T> list(KubernetesClient client, Class<T> type) {
        var resources = client.resources(type);
        var list = allNamespaces ? resources.inAnyNamespace().list() : resources.inNamespace(cluster.namespace(client)).list();
        return list.getItems().stream().sorted(Comparator.comparing((T o) -> o.getMetadata().getNamespace())
                .thenComparing(o -> o.getMetadata().getName())).toList();
    }

    /**
     * Prints the objects as a table of {@code columns} (NAMESPACE first across all namespaces, as kubectl puts
     * it), or as a {@code List} object for {@code -o json|yaml}.
     */
    <T extends HasMetadata> void print(MusterCli cli, KubernetesClient client, List<T> items, List<String> columns,
                                       Function<T, List<String>> cells) {
        if (output != OutputFormat.table) {
            // Not KubernetesListBuilder: it needs a builder per item, which custom resources have none of.
            KubernetesList list = new KubernetesList();
            list.setItems(List.copyOf(items));
            output.write(cli.out, client.getKubernetesSerialization(), list);
            return;
        }
        if (items.isEmpty()) {
            cli.err.println(allNamespaces ? "No resources found." : "No resources found in " + cluster.namespace(client)
                    + " namespace.");
            return;
        }
        List<String> headers = new ArrayList<>();
        if (allNamespaces) {
            headers.add("NAMESPACE");
        }
        headers.addAll(columns);
        Table table = new Table(headers);
        for (T item : items) {
            List<String> row = new ArrayList<>();
            if (allNamespaces) {
                row.add(item.getMetadata().getNamespace());
            }
            row.addAll(cells.apply(item));
            table.row(row);
        }
        table.print(cli.out, "");
    }
}
