package dev.muster.simulator;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

import static org.assertj.core.api.Assertions.assertThat;

/** The whole command on a week of the bundled Philly trace. */
class SimulateCommandTest {
    @TempDir
    Path dir;

    @BeforeAll
    static void headless() {
        System.setProperty("java.awt.headless", "true");
    }

    @Test
    void twoRunsOfTheSameInputWriteTheSameReport() throws IOException {
        Path first = dir.resolve("first");
        Path second = dir.resolve("second");

        assertThat(simulate(first)).isZero();
        assertThat(simulate(second)).isZero();

        String report = Files.readString(first.resolve("report.md"));
        assertThat(report).isEqualTo(Files.readString(second.resolve("report.md")));
        assertThat(report).contains("| fifo | ", "| muster | ", "| greedy | ", "| 6214e9 | ");
        assertThat(Files.readString(first.resolve("report.html")))
                .isEqualTo(Files.readString(second.resolve("report.html")))
                .contains("<img alt=\"GPU utilisation", "src=\"data:image/png;base64,")
                .doesNotContain("http://", "https://");
        assertThat(first.resolve("utilisation.png")).isNotEmptyFile();
        assertThat(first.resolve("queue.png")).isNotEmptyFile();
        assertThat(first.resolve("jct-cdf.png")).isNotEmptyFile();
        assertThat(first.resolve("vc-share-muster.png")).isNotEmptyFile();
    }

    @Test
    void aBadTraceIsReportedWithItsPlace() throws IOException {
        Path trace = dir.resolve("bad.csv");
        Files.writeString(trace, "timestamp,duration,num_gpus\n100,1,x\n");
        java.io.StringWriter err = new java.io.StringWriter();
        CommandLine command = SimulateCommand.commandLine();
        command.setErr(new java.io.PrintWriter(err));

        int exit = command.execute("--trace", trace.toString(), "--out", dir.resolve("out").toString(), "--quiet");

        assertThat(exit).isEqualTo(2);
        assertThat(err.toString()).isEqualTo("muster simulate: " + trace + ":2:3: num_gpus 'x': not a number"
                + System.lineSeparator());
    }

    private int simulate(Path out) {
        return SimulateCommand.commandLine().execute("--trace", "philly", "--from", "2017-10-01",
                "--until", "2017-10-04", "--out", out.toString(), "--quiet");
    }
}
