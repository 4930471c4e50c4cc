package dev.muster.manager.scale;

import dev.muster.api.batch.v1alpha1.Job;
import dev.muster.api.scheduling.v1alpha1.PodGroup;
import dev.muster.local.server.ApiRequests;
import dev.muster.local.server.ClusterAccess;
import dev.muster.local.LocalCluster;
import dev.muster.local.LocalClusterConfig;
import io.fabric8.kubernetes.client.KubernetesClient;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.BooleanSupplier;

import static org.awaitility.Awaitility.await;

/**
 * Muster at scale, end to end, for {@code docs/benchmarks.md} ("At scale, end to end"). Not a test: no build runs
 * it; {@code manager/scale-bench.sh} does. The local cluster runs in this JVM and the production manager in a child
 * JVM ({@link ManagerProcess}), so the manager's heap is its own. Each row prints one Markdown table row, with the
 * load averages beside it (a loaded machine makes every time an upper bound).
 *
 * <pre>
 *   gangs NODES PODS                        Jobs of 8-256 pods (seeded mix) on NODES nodes of 32 cpu: pods bound per
 *                                           second, the manager's heap after a collection, its bytes per pod
 *   restart NODES RUNNING PENDING FREED     NODES nodes of 10 cpu filled with RUNNING pods, PENDING more waiting;
 *                                           stop the manager, delete running Jobs of about FREED pods, start it:
 *                                           time to synced informers, first binding, first scheduling cycle
 *   onepod JOBS                             one-pod Jobs of 1 s on 50 nodes of 32 cpu: time per job, heap
 * </pre>
 * {@code SCALE_MANAGER_OPTS} are the manager JVM's options (default {@code -Xmx2g}; {@code -Xmx1g} for onepod),
 * {@code SCALE_SEED} the seed of the gang mix (default 28).
 */
public final class ScaleBench {
    private static final long FOREVER = 1_000_000;
    private static final Duration LONG_WAIT = Duration.ofHours(2);
    private static final String CYCLE = "muster.scheduler.cycle";
    private static final Path OUT = Path.of("manager", "target", "scale");

    private ScaleBench() {
    }

    public static void main(String[] args) throws Exception {
        Files.createDirectories(OUT);
        int[] n = Arrays.stream(args).skip(1).mapToInt(Integer::parseInt).toArray();
        switch (args.length == 0 ? "" : args[0]) {
            case "gangs" -> gangs(n[0], n[1]);
            case "restart" -> restart(n[0], n[1], n[2], n[3]);
            case "onepod" -> onePod(n[0]);
            default -> {
                System.err.println("usage: ScaleBench gangs NODES PODS | restart NODES RUNNING PENDING FREED | onepod JOBS");
                System.exit(2);
            }
        }
        // The emulator's and the clients' non-daemon threads are closed; nothing else should keep the JVM.
        System.exit(0);
    }

    private static void gangs(int nodes, int pods) throws Exception {
        LocalClusterConfig config = LocalClusterConfig.defaults().withNodes(nodes).withNodeCpu("32").withNodeMemory("128Gi");
        try (LocalCluster cluster = LocalCluster.start(config);
             ClusterWatch watch = new ClusterWatch(cluster.client());
             ManagerProcess manager = startManager(cluster, "-Xmx2g", "gangs")) {
            awaitUntil("the manager's informers synced", () -> manager.healthUp("informers"));
            long baseHeap = manager.heapAfterGc();
            List<Integer> sizes = GangMix.sizes(pods, seed());
            List<Job> jobs = new ArrayList<>();
            for (int i = 0; i < sizes.size(); i++) {
                jobs.add(GangMix.job(cluster.client(), "gang-" + i, sizes.get(i), FOREVER));
            }
            long start = System.nanoTime();
            GangMix.create(cluster.client(), jobs);
            long applied = System.nanoTime();
            awaitProgress("pods bound", watch::bound, pods, manager);
            double seconds = (watch.lastBinding.get() - start) / 1e9;
            long heap = manager.heapAfterGc();
            System.out.println("| nodes | pods | jobs | applied in (s) | first applied to last bound (s) | pods bound/s "
                    + "| manager heap before, after GC (MiB) | bytes per pod | load (1, 5 min) |");
            System.out.printf("| %,d | %,d | %,d | %.1f | %.1f | %.0f | %d, %d | %,d | %s |%n", nodes, pods, jobs.size(),
                    (applied - start) / 1e9, seconds, pods / seconds, mib(baseHeap), mib(heap), (heap - baseHeap) / pods, load());
        }
    }

    private static void restart(int nodes, int running, int pending, int freed) throws Exception {
        LocalClusterConfig config = LocalClusterConfig.defaults().withNodes(nodes).withNodeCpu("10").withNodeMemory("64Gi");
        try (LocalCluster cluster = LocalCluster.start(config);
             ClusterWatch watch = new ClusterWatch(cluster.client())) {
            KubernetesClient client = cluster.client();
            List<Job> runs = new ArrayList<>();
            List<Integer> runSizes = GangMix.sizes(running, seed());
            for (int i = 0; i < runSizes.size(); i++) {
                runs.add(GangMix.job(client, "run-" + i, runSizes.get(i), FOREVER));
            }
            List<Job> waits = new ArrayList<>();
            List<Integer> waitSizes = GangMix.sizes(pending, seed() + 1);
            for (int i = 0; i < waitSizes.size(); i++) {
                waits.add(GangMix.job(client, "wait-" + i, waitSizes.get(i), FOREVER));
            }
            double heapBefore;
            try (ManagerProcess first = startManager(cluster, "-Xmx2g", "restart-first")) {
                awaitUntil("the first manager's informers synced", () -> first.healthUp("informers"));
                GangMix.create(client, runs);
                awaitProgress("running pods bound", watch::bound, running, first);
                GangMix.create(client, waits);
                awaitUntil("every Job's PodGroup", () ->
                        client.resources(PodGroup.class).inNamespace("default").list().getItems().size() == runs.size() + waits.size());
                // Two whole cycles after the last group came: the scheduler has seen every waiting gang.
                double cycles = first.metric(CYCLE);
                await("two more scheduling cycles").atMost(Duration.ofMinutes(2)).pollInterval(Duration.ofMillis(200))
                        .until(() -> first.metric(CYCLE) >= cycles + 2);
                heapBefore = mib(first.heapAfterGc());
                System.err.printf("%d pods bound, %d jobs waiting; stopping the manager%n", watch.bound(), waits.size());
            }
            // Room is freed while no manager runs, so that it is there at a known instant: the new manager's start.
            int freedPods = 0;
            for (int i = 0; freedPods < freed; i++) {
                client.resource(runs.get(i)).delete();
                freedPods += runSizes.get(i);
            }
            int deleted = freedPods;
            awaitUntil("the freed pods gone", () -> watch.deletedPods.get() >= deleted);
            long start = System.nanoTime();
            watch.mark(start);
            try (ManagerProcess second = startManager(cluster, "-Xmx2g", "restart-second")) {
                long answering = 0;
                long synced = 0;
                long cycle = 0;
                long deadline = start + Duration.ofMinutes(15).toNanos();
                while ((answering == 0 || synced == 0 || cycle == 0 || watch.firstBindingAfterMark() == Long.MAX_VALUE)
                        && System.nanoTime() < deadline && second.alive()) {
                    if (answering == 0 && second.metric("jvm.threads.live") >= 0) {
                        answering = System.nanoTime();
                    }
                    if (answering != 0 && synced == 0 && second.healthUp("informers")) {
                        synced = System.nanoTime();
                    }
                    if (answering != 0 && cycle == 0 && second.metric(CYCLE) >= 1) {
                        cycle = System.nanoTime();
                    }
                    TimeUnit.MILLISECONDS.sleep(20);
                }
                long bind = watch.firstBindingAfterMark();
                System.out.println("| nodes | running pods | waiting pods (jobs) | pods freed | manager heap before stop (MiB) "
                        + "| to actuator up (s) | to informers synced (s) | to first binding (s) | to first full cycle (s) "
                        + "| load (1, 5 min) |");
                System.out.printf("| %,d | %,d | %,d (%,d) | %,d | %.0f | %s | %s | %s | %s | %s |%n", nodes, running, pending,
                        waits.size(), freedPods, heapBefore, since(start, answering), since(start, synced),
                        since(start, bind == Long.MAX_VALUE ? 0 : bind), since(start, cycle), load());
            }
        }
    }

    private static void onePod(int count) throws Exception {
        LocalClusterConfig config = LocalClusterConfig.defaults().withNodes(50).withNodeCpu("32");
        ScheduledExecutorService sampler = Executors.newSingleThreadScheduledExecutor();
        try (LocalCluster cluster = LocalCluster.start(config);
             ClusterWatch watch = new ClusterWatch(cluster.client());
             ManagerProcess manager = startManager(cluster, "-Xmx1g", "onepod")) {
            awaitUntil("the manager's informers synced", () -> manager.healthUp("informers"));
            List<Job> jobs = new ArrayList<>();
            for (int i = 0; i < count; i++) {
                jobs.add(GangMix.job(cluster.client(), "one-" + i, 1, 1));
            }
            AtomicLong peak = new AtomicLong();
            sampler.scheduleAtFixedRate(() -> peak.accumulateAndGet(manager.heapUsed(), Math::max), 1, 2, TimeUnit.SECONDS);
            Duration managerCpu = manager.cpu();
            Duration clusterCpu = clusterCpu();
            long start = System.nanoTime();
            GangMix.create(cluster.client(), jobs);
            long applied = System.nanoTime();
            awaitProgress("jobs completed", watch::completed, count, manager);
            sampler.shutdownNow();
            double managerCpuSeconds = manager.cpu().minus(managerCpu).toMillis() / 1e3;
            double clusterCpuSeconds = clusterCpu().minus(clusterCpu).toMillis() / 1e3;
            List<Long> done = new ArrayList<>(watch.completions);
            done.sort(null);
            double all = (done.get(count - 1) - start) / 1e9;
            int first = Math.min(1000, count);
            double firstThousand = (done.get(first - 1) - start) / 1e9;
            long heap = manager.heapAfterGc();
            System.out.println("| jobs | applied in (s) | first applied to last completed (s) | ms per job, all "
                    + "| first 1,000 done after (s) | ms per job, first 1,000 | ms per job, after the first 1,000 "
                    + "| manager heap peak, after GC (MiB) | CPU (s): manager, local cluster, both per second of the run "
                    + "| load (1, 5 min) |");
            System.out.printf("| %,d | %.1f | %.1f | %.1f | %.1f | %.1f | %s | %d, %d | %.0f, %.0f, %.2f | %s |%n", count,
                    (applied - start) / 1e9, all, 1000 * all / count, firstThousand, 1000 * firstThousand / first,
                    count > first ? "%.1f".formatted(1000 * (all - firstThousand) / (count - first)) : "-",
                    mib(peak.get()), mib(heap), managerCpuSeconds, clusterCpuSeconds,
                    (managerCpuSeconds + clusterCpuSeconds) / all, load());
            printManagerRequestsPerJob(cluster, count);
        } finally {
            sampler.shutdownNow();
        }
    }

    /**
     * The CPU time this JVM (the local cluster, its simulated kubelet and the harness) has used, all threads,
     * the JIT and the collector included.
     */
    private static Duration clusterCpu() {
        return ProcessHandle.current().info().totalCpuDuration().orElseThrow();
    }

    /** The manager's requests as the emulator answered them, per job, by verb and resource (informer lists and watches included). */
    private static void printManagerRequestsPerJob(LocalCluster cluster, int jobs) {
        ApiRequests requests = cluster.apiRequests();
        System.out.println("| manager requests per job | |");
        System.out.println("|---|---:|");
        requests.snapshot().forEach((kind, n) -> {
            if (kind.client().equals(ApiRequests.COMPONENTS)) {
                System.out.printf("| %s | %.2f |%n", kind, (double) n / jobs);
            }
        });
        System.out.printf("| **all** | **%.1f** |%n", (double) requests.total(ApiRequests.COMPONENTS) / jobs);
    }

    private static ManagerProcess startManager(LocalCluster cluster, String defaultHeap, String name) throws Exception {
        String options = System.getenv().getOrDefault("SCALE_MANAGER_OPTS", defaultHeap);
        String token = cluster.access().mintToken(new ClusterAccess.User("scale-bench", List.of("system:masters")));
        return ManagerProcess.start(cluster.url(), token, List.of(options.trim().split("\\s+")), OUT.resolve("manager-" + name + ".log"));
    }

    private static void awaitUntil(String what, BooleanSupplier condition) {
        await(what).atMost(LONG_WAIT).pollInterval(Duration.ofMillis(200)).until(condition::getAsBoolean);
    }

    /** Waits for {@code target}, printing the count every 10 s on standard error; fails if the manager exits. */
    private static void awaitProgress(String what, java.util.function.IntSupplier count, int target, ManagerProcess manager) {
        long[] lastPrint = {System.nanoTime()};
        awaitUntil(what, () -> {
            if (!manager.alive()) {
                throw new IllegalStateException("the manager exited; see " + OUT);
            }
            int now = count.getAsInt();
            if (System.nanoTime() - lastPrint[0] > 10e9) {
                lastPrint[0] = System.nanoTime();
                System.err.printf("%,d %s of %,d (load %s)%n", now, what, target, load());
            }
            return now >= target;
        });
    }

    private static long seed() {
        return Long.parseLong(System.getenv().getOrDefault("SCALE_SEED", "28"));
    }

    private static long mib(long bytes) {
        return bytes / (1024 * 1024);
    }

    private static String since(long start, long at) {
        return at == 0 ? "not reached" : "%.1f".formatted((at - start) / 1e9);
    }

    private static String load() {
        try {
            String[] avg = Files.readString(Path.of("/proc/loadavg")).split(" ");
            return avg[0] + ", " + avg[1];
        } catch (java.io.IOException e) {
            return "?";
        }
    }
}
