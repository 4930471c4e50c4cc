package dev.muster.podgroup;

import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.stream.Collectors;

import static org.assertj.core.api.Assertions.assertThat;

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
