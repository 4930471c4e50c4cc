package dev.muster.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.dataformat.yaml.YAMLMapper;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.InputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/** {@code muster convert} as typed: what it prints, where, and its exit code. */
class ConvertCommandTest {
    @TempDir
    Path dir;

    private record Result(int exit, String out, String err) {
    }

    private static Result run(String... args) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int exit = MusterCli.run(args, new PrintStream(out, true, StandardCharsets.UTF_8),
                new PrintStream(err, true, StandardCharsets.UTF_8), Clock.systemUTC());
        return new Result(exit, out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8));
    }

    private Path file(String yaml) throws Exception {
        return Files.writeString(Files.createTempFile(dir, "in", ".yaml"), yaml);
    }

    @Test
    void valuesKeepTheirTypesSoTheApiServerAcceptsTheResult() throws Exception {
        Path in = file("""
                apiVersion: batch.volcano.sh/v1alpha1
                kind: Job
                metadata: {name: types}
                spec:
                  tasks:
                    - name: t
                      replicas: 1
                      template:
                        metadata: {annotations: {local.muster.dev/run-seconds: "30"}}
                        spec:
                          containers:
                            - name: c
                              image: busybox
                              env: [{name: PORT, value: "9000"}, {name: ON, value: "true"}, {name: V, value: "1.0"}]
                              command: ["sh", "-c", "echo one\\necho two\\n"]
                """);

        Result result = run("convert", in.toString());

        assertThat(result.exit()).isZero();
        JsonNode job = new YAMLMapper().readTree(result.out());
        JsonNode env = job.path("spec").path("tasks").path(0).path("template").path("spec").path("containers").path(0).path("env");
        assertThat(List.of(env.path(0).path("value"), env.path(1).path("value"), env.path(2).path("value")))
                .allMatch(JsonNode::isTextual);
        assertThat(job.path("spec").path("tasks").path(0).path("template").path("metadata").path("annotations")
                .path("local.muster.dev/run-seconds").isTextual()).isTrue();
        assertThat(result.out()).startsWith("# muster convert: " + in + ": document 1: Job types\n"
                + "#   changed: apiVersion: batch.volcano.sh/v1alpha1 -> batch.muster.dev/v1alpha1\n");
    }

    @Test
    void whatIsNotCarriedGoesToStandardErrorToo() throws Exception {
        Path in = file("""
                apiVersion: scheduling.volcano.sh/v1beta1
                kind: Queue
                metadata: {name: q}
                spec: {deserved: {cpu: "4"}}
                """);

        Result result = run("convert", in.toString());

        assertThat(result.exit()).isZero();
        assertThat(result.err()).startsWith("warning: " + in + ": document 1: Queue q: not carried: spec.deserved:");
        assertThat(result.out()).contains("#   not carried: spec.deserved:");
    }

    @Test
    void aJobMusterWouldRefuseIsPrintedWithTheReasonAndExitsOne() throws Exception {
        Path in = file("""
                apiVersion: batch.volcano.sh/v1alpha1
                kind: Job
                metadata: {name: big}
                spec:
                  minAvailable: 5
                  tasks: [{name: t, replicas: 2, template: {spec: {containers: [{name: c, image: busybox}]}}}]
                """);

        Result result = run("convert", in.toString());

        assertThat(result.exit()).isEqualTo(1);
        assertThat(result.err()).contains(in + ": document 1: Job big: Muster would refuse it:").contains("minAvailable");
        assertThat(result.out()).contains("#   refused by Muster:").contains("name: big");
    }

    @Test
    void aValueOfTheWrongTypeIsRefusedAsTheApiServerWordsItAndEveryOtherProblemOfTheFileIsStillSaid() throws Exception {
        Path in = file("""
                apiVersion: batch.volcano.sh/v1alpha1
                kind: Job
                metadata: {name: typed}
                spec:
                  policies: [{events: PodFailed, action: RestartJob}]
                  tasks:
                    - name: t
                      replicas: two
                      policies: {event: PodEvicted, action: RestartJob}
                      template: {spec: {containers: [{name: c, image: busybox}]}}
                ---
                apiVersion: scheduling.volcano.sh/v1beta1
                kind: Queue
                metadata: {name: q}
                spec: {weight: heavy}
                ---
                apiVersion: batch.volcano.sh/v1alpha1
                kind: Job
                metadata: {name: big}
                spec:
                  minAvailable: 5
                  tasks: [{name: t, replicas: 2, template: {spec: {containers: [{name: c, image: busybox}]}}}]
                """);

        Result result = run("convert", in.toString());

        assertThat(result.exit()).isEqualTo(1);
        String job = in + ": document 1: Job typed: Muster would refuse it: ";
        assertThat(result.err())
                .contains(job + "spec.policies[0].events: Invalid value: \"string\": "
                        + "spec.policies[0].events in body must be of type array: \"string\"\n")
                .contains(job + "spec.tasks[0].replicas: Invalid value: \"string\": "
                        + "spec.tasks[0].replicas in body must be of type integer: \"string\"\n")
                .contains(job + "spec.tasks[0].policies: Invalid value: \"object\": "
                        + "spec.tasks[0].policies in body must be of type array: \"object\"\n")
                .contains(in + ": document 2: Queue q: Muster would refuse it: spec.weight: Invalid value: \"string\": "
                        + "spec.weight in body must be of type integer: \"string\"\n")
                .contains(in + ": document 3: Job big: Muster would refuse it:").contains("minAvailable")
                .doesNotContain("Cannot deserialize");
        assertThat(result.out()).contains("name: typed").contains("name: q").contains("name: big")
                .contains("#   refused by Muster: spec.policies[0].events: Invalid value:");
    }

    @Test
    void aMissingFileOrBadYamlIsNamedWithItsPlaceAndNothingIsPrinted() throws Exception {
        Path bad = file("apiVersion: v1\nkind: [unclosed\n");

        Result missing = run("convert", dir.resolve("nope.yaml").toString());
        Result broken = run("convert", bad.toString());

        assertThat(missing.exit()).isEqualTo(1);
        assertThat(missing.err()).isEqualTo("error: " + dir.resolve("nope.yaml") + ": no such file\n");
        assertThat(broken.exit()).isEqualTo(1);
        assertThat(broken.err()).startsWith("error: " + bad + ": document 1: not valid YAML:").contains("(line ");
        assertThat(missing.out() + broken.out()).isEmpty();
    }

    @Test
    void aDashReadsStandardInput() {
        InputStream saved = System.in;
        try {
            System.setIn(new ByteArrayInputStream("""
                    apiVersion: scheduling.volcano.sh/v1beta1
                    kind: PodGroup
                    metadata: {name: pg}
                    spec: {minMember: 2}
                    """.getBytes(StandardCharsets.UTF_8)));
            Result result = run("convert", "-");
            assertThat(result.exit()).isZero();
            assertThat(result.out()).contains("# muster convert: <stdin>: document 1: PodGroup pg")
                    .contains("apiVersion: scheduling.muster.dev/v1alpha1").contains("minMember: 2");
        } finally {
            System.setIn(saved);
        }
    }
}
