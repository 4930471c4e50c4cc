package dev.muster.simulator;

import java.io.PrintStream;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.List;

/**
 * A progress line on the terminal, redrawn in place: a bar of all policies' jobs done together, then per
 * policy the virtual day reached and the jobs done.
 */
final class Progress {
    private static final DateTimeFormatter DAY = DateTimeFormatter.ofPattern("yyyy-MM-dd").withZone(ZoneOffset.UTC);
    private static final int WIDTH = 30;

    private final PrintStream out;
    private final List<String> policies;
    private final List<Simulation> runs;
    private final int jobs;

    Progress(PrintStream out, List<String> policies, List<Simulation> runs, int jobs) {
        this.out = out;
        this.policies = policies;
        this.runs = runs;
        this.jobs = jobs;
    }

    /** Redraws the line. */
    void draw() {
        long done = 0;
        StringBuilder detail = new StringBuilder();
        for (int i = 0; i < runs.size(); i++) {
            Simulation run = runs.get(i);
            done += run.done();
            long reached = run.reached();
            detail.append("  ").append(policies.get(i)).append(' ')
                    .append(reached == 0 ? "-" : DAY.format(Instant.ofEpochMilli(reached)))
                    .append(' ').append(run.done());
        }
        long total = (long) jobs * runs.size();
        int filled = total == 0 ? WIDTH : (int) (WIDTH * done / total);
        out.print("\r[" + "#".repeat(filled) + " ".repeat(WIDTH - filled) + "] jobs done of " + jobs + ":" + detail);
        out.flush();
    }

    /** Ends the line, so that what is printed next starts on its own. */
    void finish() {
        draw();
        out.println();
    }
}
