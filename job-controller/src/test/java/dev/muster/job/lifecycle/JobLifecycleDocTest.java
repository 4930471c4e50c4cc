package dev.muster.job.lifecycle;

import dev.muster.support.docs.GeneratedDocSection;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.file.Path;
import java.util.stream.Collectors;

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
        GeneratedDocSection.check(DOC, BEGIN, END, table());
    }
}
