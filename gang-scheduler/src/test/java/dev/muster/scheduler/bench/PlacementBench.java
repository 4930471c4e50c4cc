package dev.muster.scheduler.bench;

import dev.muster.scheduler.core.cluster.ClusterSnapshot;
import dev.muster.scheduler.core.cluster.ClusterState;
import dev.muster.scheduler.core.cycle.CoschedulingArgs;
import dev.muster.scheduler.core.cycle.CyclePlan;
import dev.muster.scheduler.core.cycle.QueuePlanner;
import dev.muster.scheduler.core.dra.DeviceClaim;
import dev.muster.scheduler.core.dra.DeviceInventory;
import dev.muster.scheduler.core.dra.DeviceLedger;
import dev.muster.scheduler.core.model.GangInfo;
import dev.muster.scheduler.core.model.GroupKey;
import dev.muster.scheduler.core.model.PendingGang;
import dev.muster.scheduler.core.model.QueueInfo;
import dev.muster.scheduler.core.model.QueuePreemption;
import dev.muster.scheduler.core.model.ResourceVector;
import dev.muster.scheduler.core.model.RunningGang;
import dev.muster.scheduler.core.placement.GangPlacement;

import java.lang.management.ManagementFactory;
import java.lang.ref.Reference;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Benchmarks the placement core alone (no API server, no informers): one scheduling cycle's planning
 * on synthetic clusters, timed after JIT warm-up, median of several runs. Every row is a cycle of
 * {@link QueuePlanner}, the production cycle (queues' order, fair share, backfill, the preemption round);
 * a row without queues has every gang in the default queue, as a cluster without Queue objects has.
 * Prints Markdown tables; see {@code docs/benchmarks.md} for the command and the numbers of record.
 *
 * <p>Not a test: speed depends on the machine and whatever else runs on it, so no build fails on it.
 */
public final class PlacementBench {
    private static final int WARMUP = 3;
    private static final int RUNS = 5;
    /**
     * The queue rows compare two paths of different size: the queue path's code is reached by the JIT later,
     * so a few warm-up cycles measured it half-compiled, at up to twice its steady cost.
     */
    private static final int QUEUE_WARMUP = 20;
    private static final int QUEUE_RUNS = 15;
    private static final int TOTAL_PODS = 50_000;
    /** The queues of a cluster without Queue objects: the default queue only. */
    private static final List<QueueInfo> DEFAULT_ONLY = List.of(QueueInfo.of(QueueInfo.DEFAULT, 1));

    private PlacementBench() {
    }

    public static void main(String[] args) {
        System.out.printf("Placement core, %d cpu(s), Java %s, max heap %d MiB; median of %d runs after %d warm-up%n%n",
                Runtime.getRuntime().availableProcessors(), System.getProperty("java.version"),
                Runtime.getRuntime().maxMemory() >> 20, RUNS, WARMUP);
        warmUp();
        if (args.length > 0 && args[0].equals("queues")) {
            queues();
            return;
        }
        if (args.length > 0 && args[0].equals("dra")) {
            fixedCase();
            draFixedCase();
            return;
        }
        mixedWorkload();
        productionQueue();
        queues();
        admission();
        fixedCase();
        draFixedCase();
        podSpecRows();
        heapFootprint();
    }

    /** Runs every code path measured below until the JIT has compiled it, so that no table row pays for it. */
    private static void warmUp() {
        ClusterState state = SyntheticCluster.gpuNodes(2_000);
        List<PendingGang> gangs = SyntheticCluster.mixedGangs(TOTAL_PODS, 7);
        PendingGang infeasible = SyntheticCluster.infeasibleGang();
        for (int i = 0; i < 5; i++) {
            for (int j = 0; j < 50; j++) {
                cycle(state.snapshot(), List.of(infeasible));
            }
            cycle(state.snapshot(), gangs);
            cycle(SyntheticCluster.plainNodes(1_000).snapshot(), SyntheticCluster.uniformGangs(500));
        }
    }

    /** 50,000 pods in mixed gangs of 8..256 on 1,000 / 5,000 / 10,000 GPU nodes. */
    private static void mixedWorkload() {
        List<PendingGang> gangs = SyntheticCluster.mixedGangs(TOTAL_PODS, 42);
        System.out.printf("## Mixed workload: %d pods in %d gangs of 8..256 (cpu-only and GPU)%n%n", TOTAL_PODS,
                gangs.size());
        System.out.println("| nodes | gangs placed / rejected | pods placed | cycle (ms) | pods placed/s "
                + "| µs per gang | µs per gang per 1k nodes | infeasible 1,000-pod gang alone: empty / loaded (ms) |");
        System.out.println("|---:|---:|---:|---:|---:|---:|---:|---:|");
        for (int nodes : new int[]{1_000, 5_000, 10_000}) {
            ClusterState state = SyntheticCluster.gpuNodes(nodes);
            Timed timed = planTimed(state, gangs);
            List<GangPlacement> results = timed.results();
            double cycle = timed.millis();
            int placedGangs = 0;
            int placedPods = 0;
            for (GangPlacement result : results) {
                if (result.placed()) {
                    placedGangs++;
                    placedPods += result.placements().size();
                }
            }
            double perGang = cycle * 1000 / gangs.size();
            System.out.printf("| %,d | %d / %d | %,d | %.1f | %,.0f | %.1f | %.2f | %.2f / %.2f |%n", nodes,
                    placedGangs, gangs.size() - placedGangs, placedPods, cycle, placedPods / (cycle / 1000), perGang,
                    perGang / (nodes / 1000.0), infeasibleCold(state), infeasibleOnLoaded(state, results));
        }
        System.out.println();
    }

    /**
     * The mixed workload at 5,000 nodes through the production cycle with default coscheduling arguments
     * (so the head gang may reserve), without and with gang locality.
     */
    private static void productionQueue() {
        List<PendingGang> gangs = SyntheticCluster.mixedGangs(TOTAL_PODS, 42);
        ClusterState state = SyntheticCluster.gpuNodes(5_000);
        System.out.println("## Mixed workload through the scheduler's cycle (QueuePlanner, default queue), 5,000 nodes");
        System.out.println();
        System.out.println("| gang locality | gangs placed | pods placed | cycle (ms) | pods placed/s |");
        System.out.println("|---|---:|---:|---:|---:|");
        for (String topologyKey : new String[]{null, SyntheticCluster.ZONE, SyntheticCluster.RACK}) {
            CoschedulingArgs args = CoschedulingArgs.defaults().withLocalityTopologyKey(topologyKey);
            List<GangPlacement> results = null;
            double[] millis = new double[RUNS];
            for (int run = -WARMUP; run < RUNS; run++) {
                ClusterSnapshot snapshot = state.snapshot();
                QueuePlanner planner = new QueuePlanner(args);
                long start = System.nanoTime();
                results = planner.plan(snapshot, gangs, Map.of(), DEFAULT_ONLY, Instant.EPOCH).placements();
                if (run >= 0) {
                    millis[run] = (System.nanoTime() - start) / 1e6;
                }
            }
            double cycle = median(millis);
            long placed = results.stream().filter(GangPlacement::placed).count();
            long pods = results.stream().filter(GangPlacement::placed).mapToLong(r -> r.placements().size()).sum();
            System.out.printf("| %s | %d | %,d | %.1f | %,.0f |%n", topologyKey == null ? "off" : topologyKey, placed,
                    pods, cycle, pods / (cycle / 1000));
        }
        System.out.println();
    }

    /**
     * The mixed workload at 5,000 nodes in 20 queues through {@link QueuePlanner} (fair shares, the queues'
     * order and limits, the preemption round and backfill), against the same cycle with every gang in the
     * default queue, as without Queue objects. Gangs go to the queues round robin; weights 1 to 4, every fifth queue with a
     * guarantee of 200 GPUs, every seventh with a limit of 2,000 GPUs.
     */
    private static void queues() {
        List<PendingGang> gangs = SyntheticCluster.mixedGangs(TOTAL_PODS, 42);
        List<QueueInfo> queues = new ArrayList<>();
        for (int q = 0; q < 20; q++) {
            ResourceVector guarantee = q % 5 == 0
                    ? ResourceVector.builder().set(SyntheticCluster.GPU, 200).build() : ResourceVector.ZERO;
            ResourceVector limit = q % 7 == 0 ? ResourceVector.builder().set(SyntheticCluster.GPU, 2_000).build() : null;
            queues.add(new QueueInfo("q" + q, null, 1 + q % 4, guarantee, limit, QueuePreemption.DEFAULTS, true));
        }
        List<PendingGang> queued = new ArrayList<>(gangs.size());
        for (int i = 0; i < gangs.size(); i++) {
            PendingGang gang = gangs.get(i);
            queued.add(new PendingGang(gang.gang().inQueue("q" + i % 20, null), gang.pending(), gang.bound(),
                    gang.boundByTask(), gang.lastFailedAt(), gang.expected()));
        }
        ClusterState state = SyntheticCluster.gpuNodes(5_000);
        System.out.println("## Mixed workload in 20 queues against the default queue alone (both QueuePlanner), 5,000 nodes; median of "
                + QUEUE_RUNS + " cycles after " + QUEUE_WARMUP + " warm-up");
        System.out.println();
        System.out.println("| cycle | gangs placed | pods placed | cycle (ms) | pods placed/s |");
        System.out.println("|---|---:|---:|---:|---:|");
        List<GangPlacement> without = null;
        List<GangPlacement> with = null;
        double[] withoutMillis = new double[QUEUE_RUNS];
        double[] withMillis = new double[QUEUE_RUNS];
        for (int run = -QUEUE_WARMUP; run < QUEUE_RUNS; run++) {
            ClusterSnapshot plain = state.snapshot();
            long start = System.nanoTime();
            without = cycle(plain, gangs);
            long middle = System.nanoTime();
            ClusterSnapshot snapshot = state.snapshot();
            long second = System.nanoTime();
            with = new QueuePlanner(CoschedulingArgs.defaults()).plan(snapshot, queued, Map.of(), queues, Instant.EPOCH)
                    .placements();
            long end = System.nanoTime();
            if (run >= 0) {
                withoutMillis[run] = (middle - start) / 1e6;
                withMillis[run] = (end - second) / 1e6;
            }
        }
        printQueued("empty cluster, default queue only", without, median(withoutMillis));
        printQueued("empty cluster, 20 queues (QueuePlanner)", with, median(withMillis));
        loadedQueues(state, gangs, queued, queues);
        System.out.printf("%nRatio 20 queues / default queue only, empty cluster: %.2f×%n%n",
                median(withMillis) / median(withoutMillis));
    }

    /**
     * The next cycle: what the first placed runs (each gang with a {@code maxRuntime} of 10 to 59 minutes),
     * the rest waits. Each queue's head gang reserves (running gangs released in end order on copies of
     * the snapshot), and waiting gangs of a higher priority search for victims in their own queue.
     */
    private static void loadedQueues(ClusterState state, List<PendingGang> gangs, List<PendingGang> queued,
                                     List<QueueInfo> queues) {
        ClusterState loaded = SyntheticCluster.gpuNodes(5_000);
        List<GangPlacement> first = new QueuePlanner(CoschedulingArgs.defaults()).plan(state.snapshot(), queued,
                Map.of(), queues, Instant.EPOCH).placements();
        Map<GroupKey, RunningGang> running = new HashMap<>();
        Map<GroupKey, RunningGang> runningInDefault = new HashMap<>();
        Set<GroupKey> placed = new HashSet<>();
        for (GangPlacement result : first) {
            if (result.placed()) {
                result.placements().forEach(p -> loaded.occupy(p.nodeName(), p.pod()));
                GangInfo gang = result.gang();
                Duration maxRuntime = Duration.ofMinutes(10 + running.size() % 50);
                running.put(gang.key(), new RunningGang(gang.inQueue(gang.queue(), maxRuntime), Instant.EPOCH, 0));
                runningInDefault.put(gang.key(), new RunningGang(gang.inQueue(QueueInfo.DEFAULT, maxRuntime),
                        Instant.EPOCH, 0));
                placed.add(gang.key());
            }
        }
        List<PendingGang> waiting = queued.stream().filter(g -> !placed.contains(g.gang().key())).toList();
        List<PendingGang> waitingInDefault = gangs.stream().filter(g -> !placed.contains(g.gang().key())).toList();
        CyclePlan without = null;
        CyclePlan with = null;
        double[] withoutMillis = new double[QUEUE_RUNS];
        double[] withMillis = new double[QUEUE_RUNS];
        Instant now = Instant.EPOCH.plusSeconds(60);
        for (int run = -QUEUE_WARMUP; run < QUEUE_RUNS; run++) {
            ClusterSnapshot plain = loaded.snapshot();
            long start = System.nanoTime();
            without = new QueuePlanner(CoschedulingArgs.defaults()).plan(plain, waitingInDefault, runningInDefault,
                    DEFAULT_ONLY, now);
            long middle = System.nanoTime();
            ClusterSnapshot snapshot = loaded.snapshot();
            long second = System.nanoTime();
            with = new QueuePlanner(CoschedulingArgs.defaults()).plan(snapshot, waiting, running, queues, now);
            long end = System.nanoTime();
            if (run >= 0) {
                withoutMillis[run] = (middle - start) / 1e6;
                withMillis[run] = (end - second) / 1e6;
            }
        }
        printQueued("next cycle, " + running.size() + " running, default queue only, " + without.evictions().size()
                + " evictions", without.placements(), median(withoutMillis));
        printQueued("next cycle, " + running.size() + " running, 20 queues (QueuePlanner), "
                + with.evictions().size() + " evictions", with.placements(), median(withMillis));
    }

    private static void printQueued(String cycle, List<GangPlacement> results, double millis) {
        long placed = results.stream().filter(GangPlacement::placed).count();
        long pods = results.stream().filter(GangPlacement::placed).mapToLong(r -> r.placements().size()).sum();
        System.out.printf("| %s | %d | %,d | %.1f | %,.0f |%n", cycle, placed, pods, millis, pods / (millis / 1000));
    }

    /**
     * The mixed workload at 5,000 nodes as Muster Jobs waiting for admission: no pod exists, every pod is
     * expected (from templates). The first cycle admits what fits node by node; the second re-derives the
     * promises of the admitted gangs, first, and rejects the rest against what is left, which is every
     * later cycle's cost while the jobs create their pods.
     */
    private static void admission() {
        List<PendingGang> waiting = SyntheticCluster.mixedGangs(TOTAL_PODS, 42).stream()
                .map(g -> new PendingGang(g.gang(), List.of(), 0, g.boundByTask(), null, g.pending())).toList();
        ClusterState state = SyntheticCluster.gpuNodes(5_000);
        System.out.println("## Admission of the mixed workload as Jobs without pods (QueuePlanner, default queue), 5,000 nodes");
        System.out.println();
        System.out.println("| cycle | gangs admitted / not | quorum pods promised | cycle (ms) | gangs decided/s |");
        System.out.println("|---|---:|---:|---:|---:|");
        List<GangPlacement> first = null;
        List<GangPlacement> second = null;
        double[] firstMillis = new double[RUNS];
        double[] secondMillis = new double[RUNS];
        for (int run = -WARMUP; run < RUNS; run++) {
            QueuePlanner planner = new QueuePlanner(CoschedulingArgs.defaults());
            long start = System.nanoTime();
            first = planner.plan(state.snapshot(), waiting, Map.of(), DEFAULT_ONLY, Instant.EPOCH).placements();
            long middle = System.nanoTime();
            second = planner.plan(state.snapshot(), waiting, Map.of(), DEFAULT_ONLY, Instant.EPOCH.plusSeconds(1))
                    .placements();
            long end = System.nanoTime();
            if (run >= 0) {
                firstMillis[run] = (middle - start) / 1e6;
                secondMillis[run] = (end - middle) / 1e6;
            }
        }
        printAdmission("first: admit", first, median(firstMillis));
        printAdmission("next: hold promises", second, median(secondMillis));
        System.out.println();
    }

    private static void printAdmission(String cycle, List<GangPlacement> results, double millis) {
        long admitted = results.stream().filter(r -> r.outcome() == GangPlacement.Outcome.ADMITTED).count();
        long promised = results.stream().filter(r -> r.outcome() == GangPlacement.Outcome.ADMITTED)
                .mapToLong(r -> r.placements().size()).sum();
        System.out.printf("| %s | %d / %d | %,d | %.1f | %,.0f |%n", cycle, admitted, results.size() - admitted,
                promised, millis, results.size() / (millis / 1000));
    }

    /** A production cycle of the infeasible gang alone on the empty cluster: its shape's node index is built first. */
    private static double infeasibleCold(ClusterState state) {
        PendingGang gang = SyntheticCluster.infeasibleGang();
        double[] millis = new double[RUNS];
        for (int run = -WARMUP; run < RUNS; run++) {
            ClusterSnapshot snapshot = state.snapshot();
            long start = System.nanoTime();
            requireRejected(cycle(snapshot, List.of(gang)));
            if (run >= 0) {
                millis[run] = (System.nanoTime() - start) / 1e6;
            }
        }
        return median(millis);
    }

    /**
     * A production cycle of the infeasible gang alone on the cluster the mixed workload's placed gangs run on:
     * they are the running gangs, so the preemption round searches them for victims (it finds none: they are
     * of the same queue and priority).
     */
    private static double infeasibleOnLoaded(ClusterState empty, List<GangPlacement> placedWorkload) {
        ClusterState loaded = new ClusterState();
        empty.snapshot().nodes().forEach(node -> loaded.putNode(node.info()));
        Map<GroupKey, RunningGang> running = new HashMap<>();
        for (GangPlacement result : placedWorkload) {
            if (result.placed()) {
                result.placements().forEach(p -> loaded.occupy(p.nodeName(), p.pod()));
                running.put(result.gang().key(), new RunningGang(result.gang(), Instant.EPOCH, 0));
            }
        }
        PendingGang gang = SyntheticCluster.infeasibleGang();
        double[] millis = new double[RUNS];
        for (int run = -WARMUP; run < RUNS; run++) {
            ClusterSnapshot snapshot = loaded.snapshot();
            long start = System.nanoTime();
            requireRejected(new QueuePlanner(CoschedulingArgs.defaults()).plan(snapshot, List.of(gang), running,
                    DEFAULT_ONLY, Instant.EPOCH).placements());
            if (run >= 0) {
                millis[run] = (System.nanoTime() - start) / 1e6;
            }
        }
        return median(millis);
    }

    private static void requireRejected(List<GangPlacement> results) {
        for (GangPlacement result : results) {
            if (result.placed()) {
                throw new IllegalStateException("the infeasible gang was placed: " + result.message());
            }
        }
    }

    /** 500 gangs of 16 pods (1 cpu, 1 GiB, minMember 16) on 1,000 and 5,000 nodes of 32 cpu, 256 GiB, 110 pods. */
    private static void fixedCase() {
        List<PendingGang> gangs = SyntheticCluster.uniformGangs(500);
        System.out.println("## Fixed case: 500 gangs × 16 pods (1 cpu, 1 GiB, minMember 16)");
        System.out.println();
        System.out.println("| nodes | gangs placed | cycle (ms) | pods placed/s | µs per gang |");
        System.out.println("|---:|---:|---:|---:|---:|");
        for (int nodes : new int[]{1_000, 5_000}) {
            Timed timed = planTimed(SyntheticCluster.plainNodes(nodes), gangs);
            List<GangPlacement> results = timed.results();
            double cycle = timed.millis();
            long placed = results.stream().filter(GangPlacement::placed).count();
            long pods = results.stream().mapToLong(r -> r.placements().size()).sum();
            System.out.printf("| %,d | %d | %.2f | %,.0f | %.2f |%n", nodes, placed, cycle, pods / (cycle / 1000),
                    cycle * 1000 / gangs.size());
        }
        System.out.println();
    }

    /**
     * The fixed case with every pod claiming one GPU through DRA (a claim of its own, one device of the
     * class, as a ResourceClaimTemplate makes it) on nodes with 8 GPUs each in a ResourceSlice. The cycle's
     * device ledger is built outside the timing, as the scheduler builds it when the cycle begins; the
     * inventory (and its selector verdicts) is kept from one cycle to the next, as the scheduler keeps it
     * while no slice or class changes.
     */
    private static void draFixedCase() {
        System.out.println("## DRA: the fixed case, every pod claiming one GPU (8 per node, in ResourceSlices)");
        System.out.println();
        System.out.println("| nodes | gangs placed | devices allocated | cycle (ms) | pods placed/s | µs per gang |");
        System.out.println("|---:|---:|---:|---:|---:|---:|");
        List<PendingGang> gangs = SyntheticCluster.uniformGangsClaimingGpus(500);
        for (int nodes : new int[]{1_000, 5_000}) {
            ClusterState state = SyntheticCluster.plainNodes(nodes);
            DeviceInventory inventory = SyntheticCluster.gpuSlices(state.snapshot(), 8);
            List<DeviceClaim> claims = SyntheticCluster.claimsOf(gangs);
            List<GangPlacement> results = null;
            int allocated = 0;
            double[] millis = new double[RUNS];
            for (int run = -WARMUP; run < RUNS; run++) {
                ClusterSnapshot snapshot = state.snapshot().withDevices(new DeviceLedger(inventory, claims));
                long start = System.nanoTime();
                results = cycle(snapshot, gangs);
                if (run >= 0) {
                    millis[run] = (System.nanoTime() - start) / 1e6;
                }
                allocated = snapshot.devices().devicesInUse();
            }
            double cycle = median(millis);
            long placed = results.stream().filter(GangPlacement::placed).count();
            long pods = results.stream().mapToLong(r -> r.placements().size()).sum();
            System.out.printf("| %,d | %d | %,d | %.2f | %,.0f | %.2f |%n", nodes, placed, allocated, cycle,
                    pods / (cycle / 1000), cycle * 1000 / gangs.size());
        }
        System.out.println();
    }

    /**
     * The rows with inter-pod terms: the fixed case with required hostname anti-affinity inside each gang,
     * and the mixed workload with a third of its gangs spread over zones (maxSkew 1) and a tenth required
     * in one rack, at 1,000 and 5,000 nodes; the tables above have the same workloads without them.
     */
    private static void podSpecRows() {
        System.out.println("## Inter-pod terms: anti-affinity and topology spread");
        System.out.println();
        System.out.println("| workload | nodes | gangs placed | pods placed | cycle (ms) | pods placed/s |");
        System.out.println("|---|---:|---:|---:|---:|---:|");
        for (int nodes : new int[]{1_000, 5_000}) {
            podSpecRow("fixed case, hostname anti-affinity in each gang", SyntheticCluster.plainNodes(nodes),
                    SyntheticCluster.uniformGangs(500, true), nodes);
        }
        for (int nodes : new int[]{1_000, 5_000}) {
            podSpecRow("mixed, a third zone-spread (maxSkew 1), a tenth in one rack", SyntheticCluster.gpuNodes(nodes),
                    SyntheticCluster.mixedGangs(TOTAL_PODS, 42, true), nodes);
        }
        System.out.println();
    }

    private static void podSpecRow(String workload, ClusterState state, List<PendingGang> gangs, int nodes) {
        Timed timed = planTimed(state, gangs);
        List<GangPlacement> results = timed.results();
        double cycle = timed.millis();
        long placed = results.stream().filter(GangPlacement::placed).count();
        long pods = results.stream().filter(GangPlacement::placed).mapToLong(r -> r.placements().size()).sum();
        System.out.printf("| %s | %,d | %d | %,d | %.1f | %,.0f |%n", workload, nodes, placed, pods, cycle,
                pods / (cycle / 1000));
    }

    /** Plans the gangs on fresh snapshots of the state: the last run's results and the median time. */
    private static Timed planTimed(ClusterState state, List<PendingGang> gangs) {
        List<GangPlacement> results = null;
        double[] millis = new double[RUNS];
        for (int run = -WARMUP; run < RUNS; run++) {
            ClusterSnapshot snapshot = state.snapshot();
            long start = System.nanoTime();
            results = cycle(snapshot, gangs);
            if (run >= 0) {
                millis[run] = (System.nanoTime() - start) / 1e6;
            }
        }
        return new Timed(results, median(millis));
    }

    /** One production cycle of a fresh planner, every gang in the default queue and nothing running. */
    private static List<GangPlacement> cycle(ClusterSnapshot snapshot, Collection<PendingGang> gangs) {
        return new QueuePlanner(CoschedulingArgs.defaults()).plan(snapshot, gangs, Map.of(), DEFAULT_ONLY, Instant.EPOCH)
                .placements();
    }

    /** One workload's plan: the results and the cycle's median time in ms. */
    private record Timed(List<GangPlacement> results, double millis) {
    }

    /** Heap retained per node (cluster state and one snapshot) and per pending pod, after full GCs. */
    private static void heapFootprint() {
        System.out.println("## Heap");
        System.out.println();
        System.out.println("| what | bytes |");
        System.out.println("|---|---:|");
        int nodes = 10_000;
        long before = usedHeap();
        ClusterState state = SyntheticCluster.gpuNodes(nodes);
        long withState = usedHeap();
        ClusterSnapshot snapshot = state.snapshot();
        long withSnapshot = usedHeap();
        List<PendingGang> gangs = SyntheticCluster.mixedGangs(TOTAL_PODS, 42);
        long withPods = usedHeap();
        System.out.printf("| per node, cluster state (10,000 nodes) | %,d |%n", (withState - before) / nodes);
        System.out.printf("| per node, one cycle's snapshot | %,d |%n", (withSnapshot - withState) / nodes);
        System.out.printf("| per pending pod (50,000 pods, core records) | %,d |%n", (withPods - withSnapshot) / TOTAL_PODS);
        System.out.println();
        Reference.reachabilityFence(state);
        Reference.reachabilityFence(snapshot);
        Reference.reachabilityFence(gangs);
    }

    private static long usedHeap() {
        for (int i = 0; i < 3; i++) {
            System.gc();
        }
        return ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getUsed();
    }

    private static double median(double[] values) {
        double[] sorted = values.clone();
        Arrays.sort(sorted);
        return sorted[sorted.length / 2];
    }
}
