package dev.muster.helm;

import com.marcnuri.helm.LintResult;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class ChartLintTest {

    @Test
    void assembledChartPassesHelmLint() {
        LintResult result = ChartRenderer.helm().lint().call();

        // Warnings and infos do not fail the build, but they are shown.
        result.getMessages().forEach(message -> System.out.println("[helm lint] " + message));
        assertThat(result.isFailed()).as("helm lint failed: %s", result.getMessages()).isFalse();
        assertThat(result.getMessages()).noneMatch(message -> message.contains("[ERROR]"));
    }
}
