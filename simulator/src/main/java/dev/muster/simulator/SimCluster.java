package dev.muster.simulator;

import dev.muster.scheduler.NodeObjects;
import dev.muster.scheduler.core.model.NodeInfo;
import io.fabric8.kubernetes.api.model.KubernetesList;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The simulated nodes, and how many of them each virtual cluster contributed (its weight, for reports).
 *
 * @param nodes       the nodes, in the scheduler's records
 * @param vcNodes     nodes per virtual cluster, in the order given; empty if the cluster names none
 * @param gpusPerNode the most GPUs a node has: a job is split into pods of at most this many GPUs
 */
public record SimCluster(List<NodeInfo> nodes, Map<String, Integer> vcNodes, int gpusPerNode) {
    /** Node label naming the virtual cluster a node came from; informational, nothing selects on it. */
    public static final String VC_LABEL = "simulator.muster.dev/virtual-cluster";
    /** GPUs per node when a virtual-cluster CSV does not say. */
    public static final int DEFAULT_GPUS_PER_NODE = 8;
    private static final Pattern GRID = Pattern.compile("(\\d+)x(\\d+)");

    public SimCluster {
        nodes = List.copyOf(nodes);
        vcNodes = Collections.unmodifiableMap(new LinkedHashMap<>(vcNodes));
        if (nodes.isEmpty()) {
            throw new IllegalArgumentException("the cluster has no nodes");
        }
    }

    /** GPUs of all nodes together. */
    public long totalGpus() {
        return nodes.stream().mapToLong(node -> node.allocatable().get(CoreRecords.GPU)).sum();
    }

    /**
     * A cluster from its spec: {@code philly} (the bundled {@code philly_vc.csv}), {@code NxG} (N nodes of G
     * GPUs), a virtual-cluster CSV (columns {@code vc}, {@code node num}, optionally {@code gpus}, per node,
     * default 8), or a YAML file of Node objects ({@code .yaml}/{@code .yml}: several documents or a List).
     */
    public static SimCluster load(String spec) {
        Matcher grid = GRID.matcher(spec);
        if (grid.matches()) {
            return grid(Integer.parseInt(grid.group(1)), Integer.parseInt(grid.group(2)));
        }
        if (spec.equals("philly")) {
            return fromVcCsv("philly_vc.csv", Bundled.open("philly_vc.csv"));
        }
        Path path = Path.of(spec);
        try {
            if (spec.endsWith(".yaml") || spec.endsWith(".yml")) {
                return fromNodeYaml(spec, Files.readString(path));
            }
            return fromVcCsv(spec, Files.newBufferedReader(path, StandardCharsets.UTF_8));
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read cluster " + spec + ": " + CsvTable.describe(e), e);
        }
    }

    /** {@code count} nodes of {@code gpus} GPUs, in no virtual cluster. */
    public static SimCluster grid(int count, int gpus) {
        List<NodeInfo> nodes = new ArrayList<>(count);
        for (int i = 0; i < count; i++) {
            nodes.add(CoreRecords.node(String.format("node-%04d", i), Map.of(), gpus));
        }
        return new SimCluster(nodes, Map.of(), gpus);
    }

    static SimCluster fromVcCsv(String file, BufferedReader reader) {
        CsvTable table = CsvTable.read(file, reader);
        int vc = table.requiredColumn("vc");
        int count = table.requiredColumn("node num");
        int gpus = table.column("gpus");
        List<NodeInfo> nodes = new ArrayList<>();
        Map<String, Integer> vcNodes = new LinkedHashMap<>();
        int most = 0;
        for (CsvTable.Row row : table.rows()) {
            String name = row.field(vc);
            long n = table.whole(row, count);
            if (n < 0 || n > 100_000) {
                throw table.error(row, count, "must be 0 to 100000");
            }
            long g = gpus < 0 ? DEFAULT_GPUS_PER_NODE : table.whole(row, gpus);
            if (g < 1 || g > 1024) {
                throw table.error(row, gpus, "must be 1 to 1024");
            }
            if (vcNodes.putIfAbsent(name, (int) n) != null) {
                throw table.error(row, vc, "named twice");
            }
            for (int i = 0; i < n; i++) {
                nodes.add(CoreRecords.node(String.format("%s-%03d", name, i), Map.of(VC_LABEL, name), (int) g));
            }
            most = Math.max(most, (int) g);
        }
        return new SimCluster(nodes, vcNodes, most);
    }

    static SimCluster fromNodeYaml(String file, String yaml) {
        List<Node> found = new ArrayList<>();
        collectNodes(file, new KubernetesSerialization().unmarshal(yaml), found);
        return fromNodes(file, found);
    }

    /**
     * The given Node objects, as the live scheduler reads them.
     *
     * @param source how errors name where the nodes came from
     */
    public static SimCluster fromNodes(String source, List<Node> found) {
        List<NodeInfo> nodes = found.stream().map(NodeObjects::nodeInfo).toList();
        long most = nodes.stream().mapToLong(node -> node.allocatable().get(CoreRecords.GPU)).max().orElse(0);
        if (most < 1) {
            throw new TraceFormatException(source, "no node has allocatable " + CoreRecords.GPU);
        }
        return new SimCluster(nodes, Map.of(), (int) most);
    }

    private static void collectNodes(String file, Object parsed, List<Node> into) {
        if (parsed instanceof Node node) {
            into.add(node);
        } else if (parsed instanceof KubernetesList list) {
            list.getItems().forEach(item -> collectNodes(file, item, into));
        } else if (parsed instanceof List<?> documents) {
            documents.forEach(item -> collectNodes(file, item, into));
        } else if (parsed != null) {
            throw new TraceFormatException(file, "expected Node objects, found " + parsed.getClass().getSimpleName());
        }
    }

    /** The trace and cluster files bundled in the simulator's jar. */
    static final class Bundled {
        private Bundled() {
        }

        static BufferedReader open(String name) {
            InputStream in = SimCluster.class.getResourceAsStream("/traces/" + name);
            if (in == null) {
                throw new IllegalStateException("bundled file traces/" + name + " is missing from the classpath");
            }
            return new BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8));
        }
    }
}
