package dev.muster.cli.local;

import dev.muster.api.batch.v1alpha1.GoDuration;
import dev.muster.api.batch.v1alpha1.Job;
import dev.muster.local.autoscaler.AutoscalerConfig;
import dev.muster.local.server.ClusterAccess;
import dev.muster.local.dra.GpuApi;
import dev.muster.local.LocalCluster;
import dev.muster.local.LocalClusterConfig;
import dev.muster.local.autoscaler.NodeGroup;
import dev.muster.local.manifest.Manifest;
import dev.muster.local.manifest.ManifestException;
import dev.muster.local.manifest.ManifestLoader;
import dev.muster.manager.MusterApplication;
import dev.muster.manager.config.MusterProperties;
import dev.muster.manager.dashboard.DashboardPages;
import dev.muster.support.informer.SharedInformers;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.Quantity;
import io.micrometer.core.instrument.MeterRegistry;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.context.ConfigurableApplicationContext;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

import java.io.PrintStream;
import java.math.BigDecimal;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

/**
 * {@code ./muster local [options] FILE...}: runs the whole of Muster in this JVM against an embedded API
 * emulator with simulated nodes, applies the files, and prints progress as it changes.
 */
@Command(name = "muster local", mixinStandardHelpOptions = true, sortOptions = false,
        description = "Runs Muster on an embedded local cluster with simulated nodes and applies the files "
                + "(any mix of Job, PodGroup, Pod and Node).")
public final class LocalCommand implements java.util.concurrent.Callable<Integer> {
    /** Exit code when a file cannot be applied. */
    public static final int EXIT_BAD_INPUT = 2;
    /**
     * Who {@code ./muster local}'s user is to the local cluster: an administrator, whose token the kubeconfig
     * and the printed dashboard URL carry.
     */
    static final ClusterAccess.User LOCAL_ADMIN =
            new ClusterAccess.User("muster-local-admin", List.of("system:masters", "system:authenticated"));
    /** Creations in flight at once while applying the files. */
    static final int APPLY_CONCURRENCY = 16;

    @Option(names = "--nodes", description = "Simulated nodes in the uniform pool (default: ${DEFAULT-VALUE}).")
    int nodes = 4;
    @Option(names = "--node-cpu", description = "Allocatable cpu of each pool node (default: ${DEFAULT-VALUE}).")
    String nodeCpu = "16";
    @Option(names = "--node-memory", description = "Allocatable memory of each pool node (default: ${DEFAULT-VALUE}).")
    String nodeMemory = "64Gi";
    @Option(names = "--node-gpus", description = "GPUs of each pool node, offered as --gpu-api says (default: ${DEFAULT-VALUE}).")
    int nodeGpus = 0;
    @Option(names = "--gpu-api", description = "How nodes offer their GPUs: extended (nvidia.com/gpu), dra (ResourceSlices "
            + "of driver gpu.example.com) or both (default: both).")
    GpuApi gpuApi = GpuApi.BOTH;
    @Option(names = "--gpu-clique-size", description = "GPU nodes per NVLink clique, the DRA devices' clique attribute "
            + "(default: ${DEFAULT-VALUE}).")
    int gpuCliqueSize = LocalClusterConfig.DEFAULT_GPU_CLIQUE_SIZE;
    @Option(names = "--node-pods", description = "Pod slots of each pool node (default: ${DEFAULT-VALUE}).")
    int nodePods = 110;
    @Option(names = "--node-ephemeral-storage", converter = QuantityFlag.class,
            description = "ephemeral-storage capacity and allocatable of each node (default: ${DEFAULT-VALUE}).")
    String nodeEphemeralStorage = LocalClusterConfig.DEFAULT_EPHEMERAL_STORAGE;
    @Option(names = "--node-hugepages-1gi", converter = QuantityFlag.class,
            description = "hugepages-1Gi of each node, e.g. 4Gi (default: ${DEFAULT-VALUE}).")
    String nodeHugepages1Gi = "0";
    @Option(names = "--node-hugepages-2mi", converter = QuantityFlag.class,
            description = "hugepages-2Mi of each node, e.g. 512Mi (default: ${DEFAULT-VALUE}).")
    String nodeHugepages2Mi = "0";
    @Option(names = "--node-instance-type",
            description = "node.kubernetes.io/instance-type label of each pool node, e.g. m5.xlarge (default: none). "
                    + "Every node is labelled kubernetes.io/os=linux, kubernetes.io/arch=amd64 and "
                    + "kubernetes.io/hostname=<name>, as a kubelet labels its node.")
    String nodeInstanceType;
    @Option(names = "--node-group", paramLabel = "SPEC", converter = NodeGroupFlag.class,
            description = "A node group of the simulated cluster autoscaler, repeatable: "
                    + "name=min..max:cpu=..,memory=..[,nvidia.com/gpu=..][,delay=10s][,label.KEY=VALUE][,fail=true], "
                    + "e.g. gpu=0..8:cpu=32,memory=256Gi,nvidia.com/gpu=8,delay=10s. With any, the cluster serves "
                    + "ProvisioningRequests and scales for them and for unschedulable pods.")
    List<NodeGroup> nodeGroups = new ArrayList<>();
    @Option(names = "--scale-down-delay",
            description = "How long a node group's node stays empty before the autoscaler removes it (default: 10m).")
    Duration scaleDownDelay = AutoscalerConfig.NONE.scaleDownDelay();
    @Option(names = "--until-done", description = "Exit once every submitted Job has finished: 0 if all Completed, 1 otherwise.")
    boolean untilDone;
    @Option(names = "--timeout", description = "With --until-done, give up after this long, e.g. 10m (exit 1).")
    Duration timeout;
    @Option(names = "--port", description = "Port of the manager's Actuator endpoints (default: a free port).")
    int port = 0;
    @Option(names = "--state-dir", description = "Where the kubeconfig and the manager log go (default: ${DEFAULT-VALUE}).")
    Path stateDir = Path.of(".muster", "local");
    @Parameters(paramLabel = "FILE", arity = "0..*", description = "YAML files to apply (none: an empty cluster, "
            + "until Ctrl-C).")
    List<Path> files = new ArrayList<>();

    private final PrintStream out;
    private final PrintStream err;

    LocalCommand(PrintStream out, PrintStream err) {
        this.out = out;
        this.err = err;
    }

    /** Parses the arguments and runs; returns the process exit code. */
    public static int run(String[] args, PrintStream out, PrintStream err) {
        CommandLine cli = new CommandLine(new LocalCommand(out, err));
        cli.setOut(new java.io.PrintWriter(out, true));
        cli.setErr(new java.io.PrintWriter(err, true));
        cli.registerConverter(Duration.class, LocalCommand::parseDuration);
        cli.registerConverter(GpuApi.class, GpuApi::parse);
        return cli.execute(args);
    }

    @Override
    public Integer call() throws Exception {
        if (files.isEmpty() && untilDone) {
            err.println("error: --until-done needs at least one FILE: with nothing submitted there is nothing to wait "
                    + "for (without --until-done, ./muster local starts an empty cluster)");
            return EXIT_BAD_INPUT;
        }
        List<Manifest> manifests;
        try {
            manifests = ManifestLoader.load(files);
        } catch (ManifestException e) {
            e.problems().forEach(p -> err.println("error: " + p));
            err.println("nothing was applied");
            return EXIT_BAD_INPUT;
        }
        quietConsoleUntilSpringConfiguresLogging();
        LocalClusterConfig config = LocalClusterConfig.defaults().withNodes(nodes).withNodeCpu(nodeCpu)
                .withNodeMemory(nodeMemory).withNodeGpus(nodeGpus).withNodePods(nodePods)
                .withNodeEphemeralStorage(nodeEphemeralStorage).withNodeHugepages(nodeHugepages1Gi, nodeHugepages2Mi)
                .withNodeInstanceType(nodeInstanceType).withGpuApi(gpuApi).withGpuCliqueSize(gpuCliqueSize)
                .withAutoscaler(AutoscalerConfig.NONE.withNodeGroups(nodeGroups).withScaleDownDelay(scaleDownDelay));
        Files.createDirectories(stateDir);
        Path kubeconfig = stateDir.resolve("kubeconfig").toAbsolutePath();
        Path log = stateDir.resolve("manager.log").toAbsolutePath();
        try (LocalCluster cluster = LocalCluster.start(config)) {
            // The manager's dashboard and data endpoints want a token the cluster knows; everything else does not.
            String token = cluster.access().mintToken(LOCAL_ADMIN);
            cluster.writeKubeconfig(kubeconfig, token);
            out.println("local cluster: " + cluster.url() + " with " + nodes + " simulated nodes (" + nodeCpu + " cpu, "
                    + nodeMemory + " memory, " + nodeGpus + " gpus each)");
            for (NodeGroup group : nodeGroups) {
                out.println("autoscaled node group " + group.name() + ": " + group.min() + ".." + group.max()
                        + " nodes of " + group.capacity() + ", added " + group.delay().toSeconds() + "s after a scale-up");
            }
            out.println("kubeconfig: " + kubeconfig);
            out.println("  try: kubectl --kubeconfig " + kubeconfig + " get pods,mjob,pg");
            out.println("manager log: " + log);
            try (ConfigurableApplicationContext context = MusterApplication.start(managerProperties(cluster, log),
                    MANAGER_DEFAULTS)) {
                out.println("actuator: http://127.0.0.1:" + context.getEnvironment().getProperty("local.server.port")
                        + "/actuator/health");
                // In the fragment, which the browser never sends: the page keeps it for this tab and drops it from the URL.
                out.println("dashboard: http://127.0.0.1:" + context.getEnvironment().getProperty("local.server.port")
                        + DashboardPages.PATH + "#token=" + token);
                ApiRequestSummary.registerMetrics(cluster.apiRequests(), context.getBean(MeterRegistry.class));
                Set<String> jobs = new LinkedHashSet<>();
                Set<String> pods = new LinkedHashSet<>();
                long applyStart = System.nanoTime();
                apply(cluster, manifests, jobs, pods);
                long applied = System.nanoTime();
                if (files.isEmpty()) {
                    out.println("no files given: the cluster is empty; create objects with kubectl and the kubeconfig above");
                }
                try (ProgressPrinter progress = new ProgressPrinter(context.getBean(SharedInformers.class), out, jobs, pods)) {
                    int exit = untilDone ? awaitDone(progress) : awaitInterrupt();
                    out.printf("applied %d objects in %.1f s; done %.1f s after the last was applied%n", manifests.size(),
                            (applied - applyStart) / 1e9, (System.nanoTime() - applied) / 1e9);
                    ApiRequestSummary.of(cluster.apiRequests(), jobs.size(),
                            context.getBean(MusterProperties.class).kubernetes()).forEach(out::println);
                    return exit;
                }
            }
        }
    }

    /**
     * The emulator starts before Spring Boot configures logging (to the manager log file); until then
     * logback's default would print INFO lines into the progress output.
     */
    private static void quietConsoleUntilSpringConfiguresLogging() {
        if (LoggerFactory.getLogger(Logger.ROOT_LOGGER_NAME) instanceof ch.qos.logback.classic.Logger root) {
            root.setLevel(ch.qos.logback.classic.Level.WARN);
        }
    }

    /**
     * Creates the objects in {@link #applyOrder} stages; within a stage, on {@value #APPLY_CONCURRENCY} threads,
     * so that a file of a thousand Jobs is applied faster than the controllers take them in.
     */
    private void apply(LocalCluster cluster, List<Manifest> manifests, Set<String> jobs, Set<String> pods)
            throws InterruptedException {
        Map<Integer, List<Manifest>> stages = new TreeMap<>();
        manifests.forEach(m -> stages.computeIfAbsent(applyOrder(m.object()), k -> new ArrayList<>()).add(m));
        ExecutorService appliers = Executors.newFixedThreadPool(APPLY_CONCURRENCY, r -> {
            Thread t = new Thread(r, "muster-local-apply");
            t.setDaemon(true);
            return t;
        });
        try {
            for (List<Manifest> stage : stages.values()) {
                List<Future<HasMetadata>> created = new ArrayList<>();
                for (Manifest m : stage) {
                    created.add(appliers.submit(() -> create(cluster, m)));
                }
                for (Future<HasMetadata> f : created) {
                    try {
                        track(f.get(), jobs, pods);
                    } catch (ExecutionException e) {
                        throw e.getCause() instanceof RuntimeException r ? r : new IllegalStateException(e.getCause());
                    }
                }
            }
        } finally {
            appliers.shutdownNow();
        }
    }

    /** Follows a created Job or Pod by the name it got (the API server's, for a {@code generateName}). */
    private static void track(HasMetadata object, Set<String> jobs, Set<String> pods) {
        String key = object.getMetadata().getNamespace() + "/" + object.getMetadata().getName();
        if (object instanceof Job) {
            jobs.add(key);
        } else if (object instanceof Pod) {
            pods.add(key);
        }
    }

    private HasMetadata create(LocalCluster cluster, Manifest m) {
        if (m.object() instanceof Node node) {
            cluster.addSimulatedNode(node);
            out.println("applied " + m.describe() + " from " + m.file());
            return node;
        }
        HasMetadata created = cluster.client().resource(m.object()).create();
        out.println("applied " + new Manifest(m.file(), m.document(), created).describe() + " from " + m.file());
        return created;
    }

    /**
     * Namespaces, nodes and queues first, groups and DRA claims before the pods that use them, Jobs last: a Job
     * applied before the queue it names would wait for it (QueueNotFound) until the queue came.
     */
    private static int applyOrder(HasMetadata object) {
        return switch (object.getKind()) {
            case "Namespace" -> 0;
            case "Node", "PriorityClass", "Queue", "DeviceClass" -> 1;
            case "ConfigMap", "Secret", "Service", "ResourceClaim", "ResourceClaimTemplate" -> 2;
            case "PodGroup" -> 3;
            case "Pod" -> 4;
            default -> 5;
        };
    }

    private int awaitDone(ProgressPrinter progress) throws InterruptedException {
        if (timeout == null) {
            progress.awaitAllDone();
        } else if (!progress.awaitAllDone(timeout)) {
            err.println("error: not finished after " + timeout + "; giving up");
            return 1;
        }
        boolean ok = progress.allSucceeded();
        out.println(ok ? "all submitted work completed" : "some submitted work did not complete");
        return ok ? 0 : 1;
    }

    private int awaitInterrupt() throws InterruptedException {
        out.println("running; press Ctrl-C to stop");
        CountDownLatch stop = new CountDownLatch(1);
        Runtime.getRuntime().addShutdownHook(new Thread(stop::countDown, "muster-local-stop"));
        stop.await();
        return 0;
    }

    /**
     * The manager's settings that differ from a deployment's, beneath the user's environment: no client-side rate
     * limit. The limit keeps a controller from flooding a shared kube-apiserver; here the API server is in this
     * process, serves this manager alone, and answers one request at a time, which paces the manager by itself,
     * while the chart's 500 requests a second would hold one-pod Jobs to about 38 a second on any machine. {@code
     * MUSTER_KUBERNETES_QPS=500} brings the deployment's limit back.
     */
    private static final Map<String, Object> MANAGER_DEFAULTS = Map.of("muster.kubernetes.qps", 0);

    private Map<String, Object> managerProperties(LocalCluster cluster, Path log) {
        Map<String, Object> props = new LinkedHashMap<>();
        props.put("muster.kubernetes.master-url", cluster.url());
        props.put("server.port", port);
        props.put("server.address", "127.0.0.1");
        props.put("logging.file.name", log.toString());
        props.put("logging.threshold.console", "OFF");
        props.put("spring.main.banner-mode", "off");
        // One process and nothing to elect. With a Lease, a laptop that sleeps past the renew deadline would
        // wake to a manager that lost its lease and exits.
        props.put("muster.leader-election.enabled", false);
        return props;
    }

    /** A resource amount flag, refused at parse time (exit 2, naming the flag) unless it is a quantity ≥ 0. */
    static final class QuantityFlag implements CommandLine.ITypeConverter<String> {
        @Override
        public String convert(String value) {
            BigDecimal amount;
            try {
                amount = Quantity.getAmountInBytes(new Quantity(value));
            } catch (RuntimeException e) {
                throw new CommandLine.TypeConversionException("'" + value + "' is not a quantity such as 100Gi or 512Mi");
            }
            if (amount.signum() < 0) {
                throw new CommandLine.TypeConversionException("'" + value + "' is negative");
            }
            return value;
        }
    }

    /** A {@code --node-group} value, refused at parse time (exit 2, naming the flag and what is wrong). */
    static final class NodeGroupFlag implements CommandLine.ITypeConverter<NodeGroup> {
        @Override
        public NodeGroup convert(String value) {
            try {
                return NodeGroup.parse(value);
            } catch (IllegalArgumentException e) {
                throw new CommandLine.TypeConversionException(e.getMessage());
            }
        }
    }

    /** Accepts Go-style durations ({@code 90s}, {@code 10m}, {@code 1h30m}) as well as ISO-8601. */
    static Duration parseDuration(String text) {
        String t = text.trim();
        return t.startsWith("P") || t.startsWith("p") ? Duration.parse(t) : GoDuration.parse(t);
    }
}
