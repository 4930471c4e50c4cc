package dev.muster.manager.dashboard;

import dev.muster.manager.local.LocalCommand;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.assertj.core.api.Assertions.assertThat;

/** {@code ./muster local} tells the user where the dashboard is: on the manager's port, beside Actuator. */
class LocalDashboardUrlTest {
    @TempDir
    Path dir;

    @Test
    void localModePrintsTheDashboardUrlOnTheActuatorPort() {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        int code = LocalCommand.run(new String[]{"--until-done", "--timeout", "120s", "--state-dir",
                dir.toString(), "../examples/quickstart.yaml"}, new PrintStream(out, true, StandardCharsets.UTF_8),
                new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8));

        String printed = out.toString(StandardCharsets.UTF_8);
        assertThat(code).as(printed).isZero();
        Matcher actuator = Pattern.compile("(?m)^actuator: http://127\\.0\\.0\\.1:(\\d+)/actuator/health$").matcher(printed);
        assertThat(actuator.find()).as(printed).isTrue();
        assertThat(printed).containsPattern("(?m)^dashboard: http://127\\.0\\.0\\.1:" + actuator.group(1) + "/dashboard/$");
    }
}
