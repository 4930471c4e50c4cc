package dev.muster.simulator;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/** The report's tables and its Markdown form, from the results of one run's policies. */
final class Report {
    private final SimInput input;
    private final List<SimResult> results;

    Report(SimInput input, List<SimResult> results) {
        this.input = input;
        this.results = List.copyOf(results);
    }

    List<SimResult> results() {
        return results;
    }

    SimInput input() {
        return input;
    }

    /** One line saying what was replayed on what. */
    String subject() {
        long gpus = input.cluster().totalGpus();
        String partial = results.stream().anyMatch(SimResult::stopped)
                ? " PARTIAL: stopped before every job finished; each policy's makespan is the virtual time it reached."
                : "";
        return String.format(Locale.ROOT, "%,d jobs submitted %s to %s, on %d nodes with %,d GPUs, in pods of %d GPU(s).%s",
                input.jobs().size(), input.jobs().get(0).submit(), input.jobs().get(input.jobs().size() - 1).submit(),
                input.cluster().nodes().size(), gpus, input.gpusPerPod(), partial);
    }

    /**
     * Per policy: completion times, waits, makespan, utilisation, GPU time held by partial gangs, and the
     * evictions with the GPU time of the runs they threw away.
     */
    Table summary() {
        List<List<String>> rows = new ArrayList<>();
        for (SimResult result : results) {
            Stats jct = Stats.of(result.jcts());
            Stats wait = Stats.of(result.waits());
            rows.add(List.of(result.policy(), count(result.finished().size()) + "/" + count(input.jobs().size()),
                    seconds(jct.average()), seconds(jct.p50()), seconds(jct.p95()), seconds(jct.p99()),
                    seconds(wait.average()), seconds(wait.p50()), seconds(wait.p95()), seconds(wait.p99()),
                    days(result.makespanSeconds()), percent(result.utilisation()),
                    String.format(Locale.ROOT, "%,.0f", result.partialGpuMs() / 3_600_000.0),
                    count(result.evictions()), String.format(Locale.ROOT, "%,.0f", result.lostGpuMs() / 3_600_000.0)));
        }
        return new Table(List.of("Policy", "Jobs done", "JCT avg (s)", "JCT p50", "JCT p95", "JCT p99",
                "Wait avg (s)", "Wait p50", "Wait p95", "Wait p99", "Makespan (d)", "GPU util", "Partial GPU-h",
                "Evictions", "Lost GPU-h"), rows);
    }

    /**
     * Per virtual cluster: its share of the nodes, and per policy its jobs' average completion time and wait
     * and its GPU share.
     */
    Table perVc() {
        List<String> header = new ArrayList<>(List.of("VC", "Jobs", "Node share"));
        for (SimResult result : results) {
            header.add("JCT avg (s), " + result.policy());
            header.add("Wait avg (s), " + result.policy());
            header.add("GPU share, " + result.policy());
        }
        long nodes = input.cluster().vcNodes().values().stream().mapToLong(Integer::longValue).sum();
        List<List<String>> rows = new ArrayList<>();
        for (String vc : input.vcs()) {
            List<String> row = new ArrayList<>();
            row.add(vc.isEmpty() ? "(none)" : vc);
            row.add(count(input.jobs().stream().filter(job -> job.vc().equals(vc)).count()));
            Integer vcNodes = input.cluster().vcNodes().get(vc);
            row.add(vcNodes == null || nodes == 0 ? "-" : percent(vcNodes / (double) nodes));
            for (SimResult result : results) {
                row.add(seconds(result.averageJct(vc)));
                row.add(seconds(result.averageWait(vc)));
                row.add(percent(result.gpuShare(vc)));
            }
            rows.add(row);
        }
        return new Table(header, rows);
    }

    /** The whole report as Markdown. */
    String markdown() {
        return "Simulated " + subject() + "\n\n" + summary().markdown() + "\nPer virtual cluster:\n\n" + perVc().markdown();
    }

    static String seconds(double value) {
        return Double.isNaN(value) ? "-" : String.format(Locale.ROOT, "%,.0f", value);
    }

    private static String days(double seconds) {
        return String.format(Locale.ROOT, "%.1f", seconds / 86_400);
    }

    private static String percent(double fraction) {
        return String.format(Locale.ROOT, "%.1f%%", fraction * 100);
    }

    private static String count(long n) {
        return String.format(Locale.ROOT, "%,d", n);
    }
}
