package dev.muster.job;

import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.stream.Collectors;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@code docs/job-lifecycle.md} shows {@link JobLifecycle#TRANSITIONS} as a table between two markers; this
 * test fails when the two drift apart. To regenerate the table after changing the lifecycle:
 * {@code ./mvnw -o -q -pl job-controller test -Dtest=JobLifecycleDocTest -Dmuster.docs.write=true}.
 */
class JobLifecycleDocTest {
    private static final Path DOC = Path.of("..", "docs", "job-lifecycle.md");
    private static final String BEGIN = "<!-- BEGIN TRANSITIONS: generated from JobLifecycle.TRANSITIONS by JobLifecycleDocTest -->";
    private static final String END = "<!-- END TRANSITIONS -->";

    static String table() {
        return "| from | action | when | effect | to |\n|---|---|---|---|---|\n" + JobLifecycle.TRANSITIONS.stream()
                .map(row -> "| " + row.from() + " | " + row.action() + " | " + row.when() + " | "
                        + (row.effect() == Effect.NONE ? "" : row.effect().description()) + " | " + row.to() + " |")
                .collect(Collectors.joining("\n")) + "\n";
    }

    @Test
    void theDocumentedTableIsTheStateMachineDefinition() throws IOException {
        String doc = Files.readString(DOC);
        int begin = doc.indexOf(BEGIN);
        int end = doc.indexOf(END);
        assertThat(begin).as("%s has the markers", DOC).isNotNegative();
        assertThat(end).isGreaterThan(begin);
        String expected = doc.substring(0, begin + BEGIN.length()) + "\n" + table() + doc.substring(end);
        if (Boolean.getBoolean("muster.docs.write")) {
            Files.writeString(DOC, expected);
            return;
        }
        assertThat(doc).as("regenerate with -Dmuster.docs.write=true").isEqualTo(expected);
    }
}
