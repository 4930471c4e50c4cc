package dev.muster.manager.scale;

import dev.muster.manager.MusterApplication;

import java.io.IOException;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The production manager in a JVM of its own, pointed at a local cluster's URL, so that its heap is measured apart
 * from the emulator's. Its settings are the production defaults (leader election included) but for the port.
 */
final class ManagerProcess implements AutoCloseable {
    private static final Pattern HEAP_USED = Pattern.compile("heap\\s+total\\s+(\\d+)K,\\s+used\\s+(\\d+)K");
    /** One measurement of /actuator/metrics/NAME, its two fields in either order. */
    private static final String MEASUREMENT = "\\{\\s*(?:\"statistic\"\\s*:\\s*\"%1$s\"\\s*,\\s*\"value\"\\s*:\\s*([0-9.E+-]+)"
            + "|\"value\"\\s*:\\s*([0-9.E+-]+)\\s*,\\s*\"statistic\"\\s*:\\s*\"%1$s\")";
    private static final Pattern COUNT = Pattern.compile(MEASUREMENT.formatted("COUNT"));
    private static final Pattern VALUE = Pattern.compile(MEASUREMENT.formatted("VALUE"));

    private final Process process;
    private final int port;
    private final String token;
    private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();
    /** When the process was started, as {@link System#nanoTime()}. */
    final long startedNanos;

    private ManagerProcess(Process process, int port, String token, long startedNanos) {
        this.process = process;
        this.port = port;
        this.token = token;
        this.startedNanos = startedNanos;
    }

    /**
     * Starts {@link MusterApplication} in a child JVM on this JVM's class path.
     *
     * @param token       a bearer token of the cluster's, for the Actuator endpoints that are not open (metrics)
     * @param javaOptions e.g. {@code -Xmx2g}; {@code SCALE_MANAGER_JFR=file} adds a flight recording to it
     */
    static ManagerProcess start(String clusterUrl, String token, List<String> javaOptions, Path logFile) throws IOException {
        int port;
        try (ServerSocket free = new ServerSocket(0)) {
            port = free.getLocalPort();
        }
        List<String> command = new ArrayList<>();
        command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        command.addAll(javaOptions);
        String jfr = System.getenv("SCALE_MANAGER_JFR");
        if (jfr != null && !jfr.isBlank()) {
            command.add("-XX:StartFlightRecording=filename=" + jfr + ",settings=profile");
        }
        command.addAll(List.of("-cp", System.getProperty("java.class.path"), MusterApplication.class.getName(),
                "--muster.kubernetes.master-url=" + clusterUrl,
                "--server.port=" + port, "--server.address=127.0.0.1",
                "--logging.file.name=" + logFile.toAbsolutePath(), "--logging.threshold.console=OFF",
                "--spring.main.banner-mode=off"));
        long started = System.nanoTime();
        Process process = new ProcessBuilder(command).redirectErrorStream(true)
                .redirectOutput(logFile.resolveSibling(logFile.getFileName() + ".out").toFile()).start();
        return new ManagerProcess(process, port, token, started);
    }

    /** The CPU time the manager's process has used so far, all threads, the JIT and the collector included. */
    Duration cpu() {
        return process.info().totalCpuDuration().orElseThrow();
    }

    long pid() {
        return process.pid();
    }

    boolean alive() {
        return process.isAlive();
    }

    /** Whether the component's health (e.g. {@code informers}, {@code leadership}) answers UP; false while unreachable. */
    boolean healthUp(String component) {
        String body = get("/actuator/health/" + component);
        return body != null && body.contains("\"status\":\"UP\"");
    }

    /** A meter's COUNT (timers, counters) or VALUE (gauges); -1 while the manager does not answer or has no such meter. */
    double metric(String name) {
        String body = get("/actuator/metrics/" + name);
        if (body == null) {
            return -1;
        }
        for (Pattern statistic : List.of(COUNT, VALUE)) {
            Matcher m = statistic.matcher(body);
            if (m.find()) {
                return Double.parseDouble(m.group(1) != null ? m.group(1) : m.group(2));
            }
        }
        return -1;
    }

    private String get(String path) {
        try {
            HttpResponse<String> response = http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + path))
                    .header("Authorization", "Bearer " + token).timeout(Duration.ofSeconds(5)).build(), HttpResponse.BodyHandlers.ofString());
            return response.statusCode() < 500 || response.statusCode() == 503 ? response.body() : null;
        } catch (IOException e) {
            return null;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return null;
        }
    }

    /**
     * The heap in use now, in bytes, without a collection, as the Actuator's {@code jvm.memory.used} of the heap
     * pools says; -1 while the manager does not answer. Sampled every few seconds, so not through {@code jcmd}:
     * starting a JVM for each sample took a third of a core of this 2-core machine from the run it measured.
     */
    long heapUsed() {
        return (long) metric("jvm.memory.used?tag=area:heap");
    }

    /** The heap in use right after a full collection ({@code jcmd GC.run}, then {@code GC.heap_info}), in bytes. */
    long heapAfterGc() {
        jcmd("GC.run");
        return parseHeap(jcmd("GC.heap_info"))[1];
    }

    private static long[] parseHeap(String heapInfo) {
        Matcher m = HEAP_USED.matcher(heapInfo);
        if (!m.find()) {
            throw new IllegalStateException("no heap line in jcmd GC.heap_info: " + heapInfo);
        }
        return new long[] {Long.parseLong(m.group(1)) * 1024, Long.parseLong(m.group(2)) * 1024};
    }

    private String jcmd(String command) {
        try {
            Process jcmd = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "jcmd").toString(),
                    Long.toString(process.pid()), command).redirectErrorStream(true).start();
            String out = new String(jcmd.getInputStream().readAllBytes());
            if (jcmd.waitFor() != 0) {
                throw new IllegalStateException("jcmd " + command + " failed: " + out);
            }
            return out;
        } catch (IOException e) {
            throw new IllegalStateException("jcmd " + command, e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted", e);
        }
    }

    /** Stops the manager as Kubernetes stops a pod (SIGTERM: it releases its Lease), and waits for it to exit. */
    @Override
    public void close() throws InterruptedException {
        process.destroy();
        if (!process.waitFor(60, java.util.concurrent.TimeUnit.SECONDS)) {
            process.destroyForcibly().waitFor();
        }
    }
}
