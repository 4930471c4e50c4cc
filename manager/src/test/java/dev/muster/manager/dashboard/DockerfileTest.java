package dev.muster.manager.dashboard;

import org.junit.jupiter.api.Test;
import org.yaml.snakeyaml.Yaml;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The repository's Dockerfile builds the image the Helm chart expects: no Docker engine runs in the build,
 * so its essentials are checked against the Maven build and the chart it must agree with. Here beside the
 * dashboard because the image serves it, and the manager module is the one whose jar it ships.
 */
class DockerfileTest {
    private static final Path ROOT = Path.of("..");

    @Test
    void copiesTheJarTheManagerBuildProducesAndRunsIt() throws IOException {
        // The executable jar is the repackaged one, beside the plain jar the cli module compiles against.
        String pom = Files.readString(ROOT.resolve("manager/pom.xml"));
        Matcher finalName = Pattern.compile("<finalName>([^<]+)</finalName>").matcher(pom);
        Matcher classifier = Pattern.compile("<classifier>([^<]+)</classifier>").matcher(pom);
        assertThat(finalName.find()).isTrue();
        assertThat(classifier.find()).isTrue();
        String jar = "manager/target/" + finalName.group(1) + "-" + classifier.group(1) + ".jar";

        assertThat(instructions("COPY")).contains("--from=build /src/" + jar + " /app/muster-manager.jar");
        assertThat(instructions("ENTRYPOINT")).containsExactly("[\"/usr/bin/java\", \"-jar\", \"/app/muster-manager.jar\"]");
        assertThat(instructions("RUN")).containsExactly("./mvnw -B -pl manager -am package -DskipTests");
    }

    @Test
    void runsAsTheChartsNonRootUserAndExposesItsPort() throws IOException {
        Map<String, Object> values = new Yaml().load(Files.readString(ROOT.resolve("helm/muster/values.yaml")));
        @SuppressWarnings("unchecked")
        Map<String, Object> pod = (Map<String, Object>) values.get("podSecurityContext");
        assertThat(instructions("USER")).containsExactly(pod.get("runAsUser") + ":" + pod.get("runAsGroup"));
        assertThat(pod.get("runAsUser")).isNotEqualTo(0);

        Matcher port = Pattern.compile("containerPort: (\\d+)")
                .matcher(Files.readString(ROOT.resolve("helm/muster/templates/deployment.yaml")));
        assertThat(port.find()).isTrue();
        assertThat(instructions("EXPOSE")).containsExactly(port.group(1));
    }

    /** The arguments of every {@code instruction} line of the Dockerfile, in order. */
    private static List<String> instructions(String instruction) throws IOException {
        return Files.readAllLines(ROOT.resolve("Dockerfile")).stream()
                .filter(line -> line.startsWith(instruction + " "))
                .map(line -> line.substring(instruction.length() + 1).trim()).toList();
    }
}
