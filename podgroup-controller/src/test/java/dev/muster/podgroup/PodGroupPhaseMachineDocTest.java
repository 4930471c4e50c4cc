package dev.muster.podgroup;

import dev.muster.support.docs.GeneratedDocSection;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.file.Path;
import java.util.stream.Collectors;

/**
 * {@code docs/podgroup.md} shows {@link PodGroupPhaseMachine#TRANSITIONS} as a table between two markers;
 * this test fails when the two drift apart. To regenerate the table after changing the machine:
 * {@code ./mvnw -o -q -pl podgroup-controller test -Dtest=PodGroupPhaseMachineDocTest -Dmuster.docs.write=true}.
 */
class PodGroupPhaseMachineDocTest {
    private static final Path DOC = Path.of("..", "docs", "podgroup.md");
    private static final String BEGIN =
            "<!-- BEGIN TRANSITIONS: generated from PodGroupPhaseMachine.TRANSITIONS by PodGroupPhaseMachineDocTest -->";
    private static final String END = "<!-- END TRANSITIONS -->";

    static String table() {
        return "| from | gang event | when | to | why |\n|---|---|---|---|---|\n" + PodGroupPhaseMachine.TRANSITIONS.stream()
                .map(row -> "| " + row.from() + " | `" + row.event() + "` | " + row.event().when() + " | " + row.to()
                        + " | " + row.why() + " |")
                .collect(Collectors.joining("\n")) + "\n";
    }

    @Test
    void theDocumentedTableIsTheStateMachineDefinition() throws IOException {
        GeneratedDocSection.check(DOC, BEGIN, END, table());
    }
}
