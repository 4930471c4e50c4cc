package dev.muster.support.jvm;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * On a 2-CPU machine, fabric8's JDK transport starts a thread per request unless the common pool has two
 * threads; each case runs {@link CommonPoolProbe} in a JVM told it has two CPUs.
 */
class CommonPoolParallelismTest {
    private static final Pattern RESULT = Pattern.compile("threads started (\\d+), common pool parallelism (\\d+)");

    @TempDir
    Path dir;

    @Test
    void withTheDefaultPoolEveryRequestStartsAThreadAndRaisedToTwoNoneDoes() throws Exception {
        Matcher plain = probe(List.of());
        assertThat(Integer.parseInt(plain.group(2))).isEqualTo(1);
        assertThat(Long.parseLong(plain.group(1))).as("threads started for %d requests", CommonPoolProbe.REQUESTS)
                .isGreaterThanOrEqualTo(CommonPoolProbe.REQUESTS);

        Matcher raised = probe(List.of("raise"));
        assertThat(Integer.parseInt(raised.group(2))).isEqualTo(2);
        assertThat(Long.parseLong(raised.group(1))).as("threads started for %d requests", CommonPoolProbe.REQUESTS)
                .isLessThan(10);
    }

    @Test
    void aParallelismTheUserSetIsKept() throws Exception {
        Matcher kept = probe(List.of("-D" + CommonPoolParallelism.PROPERTY + "=1"), "raise");
        assertThat(Integer.parseInt(kept.group(2))).isEqualTo(1);
    }

    private Matcher probe(List<String> args) throws IOException, InterruptedException {
        return probe(List.of(), args.toArray(String[]::new));
    }

    private Matcher probe(List<String> jvmOptions, String... args) throws IOException, InterruptedException {
        List<String> command = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-XX:ActiveProcessorCount=2"));
        command.addAll(jvmOptions);
        command.addAll(List.of("-cp", System.getProperty("java.class.path"), CommonPoolProbe.class.getName()));
        command.addAll(List.of(args));
        Path out = dir.resolve("out-" + System.nanoTime());
        Process process = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(out.toFile()).start();
        boolean ended = process.waitFor(2, TimeUnit.MINUTES);
        String output = Files.readString(out, StandardCharsets.UTF_8);
        if (!ended) {
            process.destroyForcibly();
        }
        assertThat(ended).as("the probe ended; it printed: %s", output).isTrue();
        assertThat(process.exitValue()).as(output).isZero();
        Matcher result = RESULT.matcher(output);
        assertThat(result.find()).as(output).isTrue();
        return result;
    }
}
