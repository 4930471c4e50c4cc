package dev.muster.simulator;

import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * {@code muster simulate}: replays a trace through each policy and writes the report. Policies run side by
 * side on as many threads as there are processors; each run is deterministic on its own. Ctrl-C stops the
 * runs where they are and still writes the (partial) report.
 */
@Command(name = "muster simulate", mixinStandardHelpOptions = true, sortOptions = false,
        description = "Replays a GPU job trace through Muster's scheduler core in virtual time and compares policies.")
public final class SimulateCommand implements Callable<Integer> {
    /** How long Ctrl-C waits for the partial report to be written. */
    private static final long REPORT_GRACE_SECONDS = 60;

    @Option(names = "--trace", required = true, paramLabel = "FILE",
            description = "Trace CSV (timestamp,duration,num_gpus[,cluster]), or 'philly' for the bundled Philly trace.")
    String trace;

    @Option(names = "--cluster", paramLabel = "SPEC", defaultValue = "philly",
            description = "'philly' (352 nodes x 8 GPUs), NxG (e.g. 64x8), a VC CSV (vc,node num[,gpus]) or a Node YAML file. Default: ${DEFAULT-VALUE}.")
    String cluster;

    @Option(names = "--policy", paramLabel = "NAME[:KEY=VALUE,...]",
            description = "fifo, muster or greedy, with scheduler settings, e.g. muster:permitWaitingTime=30s,nodeScoring=least-allocated, "
                    + "and vcs=shared|partition|queues (muster:vcs=queues: each virtual cluster a Queue guaranteed its nodes' GPUs, lending and reclaiming them). "
                    + "Repeatable. Default: fifo, muster, greedy.")
    List<String> policies = new ArrayList<>(List.of("fifo", "muster", "greedy"));

    @Option(names = "--out", paramLabel = "DIR", defaultValue = "simulation",
            description = "Where report.md, report.html and the PNG charts go. Default: ${DEFAULT-VALUE}.")
    Path out;

    @Option(names = "--one-gpu-pods", description = "Make a job of N GPUs N pods of one GPU, instead of pods of a node's GPUs.")
    boolean oneGpuPods;

    @Option(names = "--from", paramLabel = "DATE", description = "Only jobs submitted on or after this day (UTC, yyyy-MM-dd).")
    LocalDate from;

    @Option(names = "--until", paramLabel = "DATE", description = "Only jobs submitted before this day (UTC, yyyy-MM-dd).")
    LocalDate until;

    @Option(names = "--partition-by-vc",
            description = "Let a job use only its virtual cluster's nodes (as Philly did), instead of all nodes; a policy's vcs setting overrides it.")
    boolean partitionByVc;

    @Option(names = "--cluster-vcs-only", description = "Only jobs of virtual clusters the cluster CSV names.")
    boolean clusterVcsOnly;

    @Option(names = "--load-factor", paramLabel = "F", defaultValue = "1",
            description = "Submit F times as fast: gaps between submissions divided by F, durations kept. Default: ${DEFAULT-VALUE}.")
    double loadFactor;

    @Option(names = "--quiet", description = "No progress line.")
    boolean quiet;

    /** Runs the command; the exit code is picocli's. */
    public static void main(String[] args) {
        // The charts are drawn off-screen; there may be no display at all.
        System.setProperty("java.awt.headless", "true");
        System.exit(commandLine().execute(args));
    }

    /**
     * The command, which reports bad input (a trace or cluster file, a policy, an option) by its message
     * alone, with exit code 2: the message names the place, and a stack trace would only bury it.
     */
    static CommandLine commandLine() {
        return new CommandLine(new SimulateCommand()).setExecutionExceptionHandler((error, command, parsed) -> {
            if (error instanceof TraceFormatException || error instanceof IllegalArgumentException
                    || error instanceof UncheckedIOException) {
                command.getErr().println("muster simulate: " + error.getMessage());
                command.getErr().flush();
                return 2;
            }
            throw error;
        });
    }

    @Override
    public Integer call() throws Exception {
        long wallStart = System.nanoTime();
        SimCluster nodes = SimCluster.load(cluster);
        List<TraceJob> jobs = filter(readTrace(trace), nodes);
        SimInput input = SimInput.of(jobs, nodes, oneGpuPods, partitionByVc);
        List<PolicySpec> specs = policies.stream().map(PolicySpec::parse).toList();

        Charts.warmUp();
        AtomicBoolean stop = new AtomicBoolean();
        List<Simulation> runs = specs.stream().map(spec -> new Simulation(input, spec, stop::get)).toList();
        CountDownLatch reported = new CountDownLatch(1);
        Thread hook = new Thread(() -> {
            stop.set(true);
            try {
                reported.await(REPORT_GRACE_SECONDS, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }, "simulate-stop");
        Runtime.getRuntime().addShutdownHook(hook);

        PrintStream err = System.err;
        Progress progress = new Progress(err, specs.stream().map(PolicySpec::label).toList(), runs, jobs.size());
        ScheduledExecutorService ticker = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread thread = new Thread(r, "simulate-progress");
            thread.setDaemon(true);
            return thread;
        });
        if (!quiet) {
            ticker.scheduleAtFixedRate(progress::draw, 0, 500, TimeUnit.MILLISECONDS);
        }
        ExecutorService pool = Executors.newFixedThreadPool(
                Math.min(runs.size(), Runtime.getRuntime().availableProcessors()));
        try {
            List<Future<SimResult>> futures = new ArrayList<>();
            runs.forEach(run -> futures.add(pool.submit(run::run)));
            List<SimResult> results = new ArrayList<>();
            for (Future<SimResult> future : futures) {
                results.add(result(future));
            }
            ticker.shutdownNow();
            if (!quiet) {
                progress.finish();
            }
            Report report = new Report(input, results);
            write(report);
            System.out.print(report.markdown());
            err.printf("wall time %.1f s; report in %s%n", (System.nanoTime() - wallStart) / 1e9,
                    out.resolve("report.html"));
        } finally {
            pool.shutdownNow();
            reported.countDown();
        }
        try {
            Runtime.getRuntime().removeShutdownHook(hook);
        } catch (IllegalStateException shuttingDown) {
            // Ctrl-C came: the hook is running and has just been released.
        }
        return 0;
    }

    private static SimResult result(Future<SimResult> future) throws InterruptedException {
        try {
            return future.get();
        } catch (ExecutionException e) {
            throw e.getCause() instanceof RuntimeException runtime ? runtime : new IllegalStateException(e.getCause());
        }
    }

    private static List<TraceJob> readTrace(String trace) {
        boolean bundled = trace.equals("philly");
        try (BufferedReader reader = bundled ? SimCluster.Bundled.open("philly.csv")
                : Files.newBufferedReader(Path.of(trace), StandardCharsets.UTF_8)) {
            return TraceReader.read(bundled ? "philly.csv" : trace, reader);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read trace " + trace + ": " + CsvTable.describe(e), e);
        }
    }

    private List<TraceJob> filter(List<TraceJob> jobs, SimCluster nodes) {
        Instant start = from == null ? Instant.MIN : from.atStartOfDay().toInstant(ZoneOffset.UTC);
        Instant stop = until == null ? Instant.MAX : until.atStartOfDay().toInstant(ZoneOffset.UTC);
        if (!(loadFactor > 0) || Double.isInfinite(loadFactor)) {
            throw new CommandLine.ParameterException(new CommandLine(this), "--load-factor must be positive: " + loadFactor);
        }
        List<TraceJob> kept = jobs.stream()
                .filter(job -> !job.submit().isBefore(start) && job.submit().isBefore(stop))
                .filter(job -> !clusterVcsOnly || nodes.vcNodes().containsKey(job.vc()))
                .toList();
        if (loadFactor == 1 || kept.isEmpty()) {
            return kept;
        }
        // Compressing the gaps keeps the submission order, so the jobs stay sorted.
        long first = kept.get(0).submit().getEpochSecond();
        return kept.stream().map(job -> new TraceJob(job.id(),
                Instant.ofEpochSecond(first + Math.round((job.submit().getEpochSecond() - first) / loadFactor)),
                job.duration(), job.gpus(), job.vc())).toList();
    }

    private void write(Report report) {
        try {
            Files.createDirectories(out);
            List<Charts.Chart> charts = Charts.draw(report);
            for (Charts.Chart chart : charts) {
                Files.write(out.resolve(chart.file()), chart.png());
            }
            Files.writeString(out.resolve("report.md"), report.markdown());
            Files.writeString(out.resolve("report.html"), HtmlReport.render(report, charts));
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write the report to " + out + ": " + e.getMessage(), e);
        }
    }
}
