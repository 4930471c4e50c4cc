package dev.muster.cli.local;

import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

import static org.assertj.core.api.Assertions.assertThat;

/** {@code ./muster local} as users run it, in-process: exit codes and what it prints. */
@Tag("emulator")
class LocalCommandTest {
    @TempDir
    Path dir;

    private final ByteArrayOutputStream out = new ByteArrayOutputStream();
    private final ByteArrayOutputStream err = new ByteArrayOutputStream();

    private int run(String... args) {
        String[] all = new String[args.length + 2];
        all[0] = "--state-dir";
        all[1] = dir.resolve("state").toString();
        System.arraycopy(args, 0, all, 2, args.length);
        return LocalCommand.run(all, new PrintStream(out, true, StandardCharsets.UTF_8),
                new PrintStream(err, true, StandardCharsets.UTF_8));
    }

    private String out() {
        return out.toString(StandardCharsets.UTF_8);
    }

    private String err() {
        return err.toString(StandardCharsets.UTF_8);
    }

    @Test
    void quickstartRunsUntilDoneAndExitsZero() {
        int code = run("--until-done", "--timeout", "120s", "../examples/quickstart.yaml");

        assertThat(code).as(out() + err()).isZero();
        assertThat(out()).contains("kubeconfig: " + dir.resolve("state").toAbsolutePath().resolve("kubeconfig"))
                .contains("applied Job default/quickstart from ../examples/quickstart.yaml")
                .containsPattern("job default/quickstart  Running  master: 1 Running \\| worker: 3 Running")
                .contains("job default/quickstart  Completed  master: 1 Succeeded | worker: 3 Succeeded")
                .contains("all submitted work completed")
                .contains("API requests by the manager (no client-side rate limit): ");
        assertThat(dir.resolve("state/kubeconfig")).exists();
    }

    /**
     * Local mode lifts the client-side rate limit beneath the user's settings: one set the way Spring reads the
     * environment (a system property here, {@code MUSTER_KUBERNETES_QPS} from a shell) is the one the manager runs
     * under.
     */
    @Test
    void aClientRateLimitTheUserSetsIsTheOneTheManagerRunsUnder() {
        System.setProperty("muster.kubernetes.qps", "250");
        try {
            int code = run("--until-done", "--timeout", "120s", "../examples/quickstart.yaml");

            assertThat(code).as(out() + err()).isZero();
            assertThat(out()).contains("API requests by the manager (client-side rate limit 250 a second, burst 1000): ");
        } finally {
            System.clearProperty("muster.kubernetes.qps");
        }
    }

    /** Nodes as a kubelet reports them: a job selecting kubernetes.io/os and asking for scratch space runs. */
    @Test
    void aJobSelectingLinuxNodesWithEphemeralStorageRunsLocally() throws Exception {
        Path job = dir.resolve("scratch.yaml");
        Files.writeString(job, """
                apiVersion: batch.muster.dev/v1alpha1
                kind: Job
                metadata: {name: scratch, namespace: default}
                spec:
                  tasks:
                  - name: worker
                    replicas: 2
                    template:
                      metadata: {annotations: {local.muster.dev/run-seconds: "1"}}
                      spec:
                        nodeSelector: {kubernetes.io/os: linux, node.kubernetes.io/instance-type: m5.xlarge}
                        restartPolicy: Never
                        containers:
                        - name: w
                          image: busybox
                          resources: {requests: {cpu: "1", ephemeral-storage: 30Gi}}
                """);

        int code = run("--until-done", "--timeout", "120s", "--nodes", "1", "--node-ephemeral-storage", "64Gi",
                "--node-instance-type", "m5.xlarge", job.toString());

        assertThat(code).as(out() + err()).isZero();
        assertThat(out()).contains("job default/scratch  Completed  worker: 2 Succeeded");
    }

    /** As with {@code kubectl create}: each Job with a generateName becomes one of its own, followed by the name it got. */
    @Test
    void jobsWithAGenerateNameAreCreatedUnderTheNamesTheApiServerGivesAndFollowedToTheEnd() throws Exception {
        String job = """
                apiVersion: batch.muster.dev/v1alpha1
                kind: Job
                metadata: {generateName: sweep-}
                spec:
                  tasks:
                  - name: w
                    template:
                      metadata: {annotations: {local.muster.dev/run-seconds: "1"}}
                      spec: {restartPolicy: Never, containers: [{name: w, image: busybox}]}
                """;
        Path file = Files.writeString(dir.resolve("sweep.yaml"), job + "---\n" + job);

        int code = run("--until-done", "--timeout", "120s", "--nodes", "1", file.toString());

        assertThat(code).as(out() + err()).isZero();
        assertThat(out()).containsPattern("applied Job default/sweep-[a-z0-9]{5} from ")
                .containsPattern("job default/sweep-[a-z0-9]{5}  Completed  w: 1 Succeeded")
                .contains("all submitted work completed");
        assertThat(out().lines().filter(l -> l.matches("applied Job default/sweep-[a-z0-9]{5} from .*")).distinct()).hasSize(2);
    }

    @Test
    void aNodeResourceThatIsNotAQuantityIsAUsageError() {
        assertThat(run("--node-ephemeral-storage", "lots")).isEqualTo(2);
        assertThat(err()).contains("--node-ephemeral-storage").contains("'lots' is not a quantity such as 100Gi or 512Mi");
        assertThat(out()).doesNotContain("local cluster:");
    }

    @Test
    void aBadNodeGroupIsAUsageErrorNamingTheFlagTheValueAndTheProblem() {
        assertThat(run("--node-group", "gpu=4..2:cpu=32,memory=256Gi")).isEqualTo(2);
        assertThat(err()).contains("--node-group").contains("gpu=4..2:cpu=32,memory=256Gi")
                .contains("needs 0 <= min <= max");
        assertThat(out()).doesNotContain("local cluster:");
    }

    @Test
    void anUnknownGpuApiIsAUsageErrorNamingTheChoices() {
        assertThat(run("--node-gpus", "8", "--gpu-api", "cuda")).isEqualTo(2);
        assertThat(err()).contains("--gpu-api").contains("extended, dra, both, got cuda");
        assertThat(out()).doesNotContain("local cluster:");
    }

    @Test
    void helpListsTheNodeSettings() {
        assertThat(run("--help")).isZero();
        assertThat(out()).contains("--node-ephemeral-storage").contains("--node-hugepages-1gi")
                .contains("--node-hugepages-2mi").contains("--node-instance-type").contains("kubernetes.io/os=linux")
                .contains("--node-group").contains("--scale-down-delay")
                .contains("--gpu-api").contains("--gpu-clique-size");
    }

    @Test
    void distributedTrainingExamplesRunUntilDoneAndExitZero() {
        int code = run("--until-done", "--timeout", "180s", "../examples/pytorch-ddp.yaml",
                "../examples/mpi-allreduce.yaml", "../examples/tensorflow-ps.yaml");

        assertThat(code).as(out() + err()).isZero();
        assertThat(out()).contains("job default/ddp  Completed  master: 1 Succeeded | worker: 3 Succeeded")
                .containsPattern("job default/allreduce  Completed  launcher: 1 Succeeded")
                .containsPattern("job default/tfjob  Completed  chief: 1 Succeeded")
                .contains("all submitted work completed");
    }

    @Test
    void queuesExampleAppliesItsQueuesFirstAndRunsEveryJob() {
        int code = run("--until-done", "--timeout", "180s", "--nodes", "4", "--node-gpus", "8",
                "../examples/queues.yaml");

        assertThat(code).as(out() + err()).isZero();
        assertThat(out()).contains("applied Queue team-a from ../examples/queues.yaml")
                .contains("applied Queue team-b from ../examples/queues.yaml")
                .contains("job default/a8  Completed  worker: 4 Succeeded")
                .contains("job default/b6  Completed  worker: 4 Succeeded")
                .doesNotContain("QueueNotFound")
                .contains("all submitted work completed");
    }

    @Test
    void aFailingJobExitsOne() throws Exception {
        Path file = Files.writeString(dir.resolve("fail.yaml"), """
                apiVersion: batch.muster.dev/v1alpha1
                kind: Job
                metadata: {name: crash}
                spec:
                  maxRetry: 0
                  tasks:
                  - name: worker
                    replicas: 2
                    template:
                      metadata:
                        annotations: {local.muster.dev/run-seconds: "1", local.muster.dev/exit-code: "1"}
                      spec:
                        restartPolicy: Never
                        containers: [{name: w, image: busybox}]
                """);
        int code = run("--until-done", "--timeout", "120s", file.toString());

        assertThat(code).as(out() + err()).isEqualTo(1);
        assertThat(out()).contains("job default/crash  Failed").contains("some submitted work did not complete");
    }

    @Test
    void untilDoneWithoutAFileIsAUsageErrorAndStartsNothing() {
        int code = run("--until-done");

        assertThat(code).isEqualTo(LocalCommand.EXIT_BAD_INPUT);
        assertThat(err()).contains("error: --until-done needs at least one FILE");
        assertThat(out()).doesNotContain("local cluster:");
    }

    @Test
    void badInputNamesFileAndDocumentAndAppliesNothing() throws Exception {
        Path file = Files.writeString(dir.resolve("bad.yaml"), """
                apiVersion: v1
                kind: Pod
                metadata: {name: fine}
                spec: {containers: [{name: c, image: busybox}]}
                ---
                apiVersion: example.com/v1
                kind: Widget
                metadata: {name: w}
                """);
        int code = run("--until-done", file.toString());

        assertThat(code).isEqualTo(LocalCommand.EXIT_BAD_INPUT);
        assertThat(err()).contains("error: " + file + ": document 2: kind Widget (apiVersion example.com/v1) cannot be applied")
                .contains("nothing was applied");
        assertThat(out()).doesNotContain("local cluster:");
    }

    @Test
    void durationsTakeGoAndIsoForms() {
        assertThat(LocalCommand.parseDuration("90s")).hasSeconds(90);
        assertThat(LocalCommand.parseDuration("10m")).hasMinutes(10);
        assertThat(LocalCommand.parseDuration("PT2H")).hasHours(2);
    }
}
