package dev.muster.cli;

import dev.muster.api.MusterLabels;
import dev.muster.api.batch.v1alpha1.Job;
import dev.muster.local.LocalCluster;
import dev.muster.local.LocalClusterConfig;
import dev.muster.cli.CliRunner.Result;
import io.fabric8.kubernetes.api.model.EventBuilder;
import io.fabric8.kubernetes.api.model.PodBuilder;
import org.junit.jupiter.api.AutoClose;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;

import static dev.muster.cli.Patience.PATIENCE;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * suspend, resume, delete, logs and completion against a local cluster without the manager: these commands
 * write to the API and read from it, whatever acts on the Job after.
 */
@Tag("emulator")
class CliJobActionsTest {
    @TempDir
    Path dir;
    @AutoClose
    private final LocalCluster cluster = LocalCluster.start(LocalClusterConfig.defaults().withNodes(1));
    private CliRunner muster;

    @BeforeEach
    void createJob() throws Exception {
        muster = new CliRunner(cluster, dir);
        CliRunner.apply(cluster, dir, """
                apiVersion: batch.muster.dev/v1alpha1
                kind: Job
                metadata: {name: etl}
                spec:
                  tasks:
                  - name: worker
                    template:
                      spec:
                        containers: [{name: main, image: busybox}]
                """);
    }

    @Test
    void suspendAndResumeSetSpecSuspend() {
        assertThat(muster.run("suspend", "job", "etl")).isEqualTo(new Result(0, "job default/etl suspended\n", ""));
        assertThat(job().getSpec().getSuspend()).isTrue();

        assertThat(muster.run("resume", "job", "etl")).isEqualTo(new Result(0, "job default/etl resumed\n", ""));
        assertThat(job().getSpec().getSuspend()).isFalse();
        assertThat(job().getSpec().getTasks()).as("the merge patch leaves the rest of the spec").hasSize(1);
    }

    @Test
    void deleteRemovesTheJob() {
        assertThat(muster.run("delete", "job", "etl")).isEqualTo(new Result(0, "job default/etl deleted\n", ""));
        await().atMost(PATIENCE).until(() -> job() == null);

        assertThat(muster.run("delete", "job", "etl")).isEqualTo(new Result(1, "", "error: job default/etl not found\n"));
    }

    @Test
    void deleteInTheForegroundRemovesTheJobOnceItsDependentsAreGone() {
        assertThat(muster.run("delete", "job", "etl", "--cascade", "foreground").exit()).isZero();
        await().atMost(PATIENCE).until(() -> job() == null);
    }

    /** An elastic job (Volcano's rule: minAvailable below the tasks' sum) says its task minimums do not bind. */
    @Test
    void describeSaysAJobIsElasticAndItsTasksHaveNoMinimum() throws Exception {
        CliRunner.apply(cluster, dir, """
                apiVersion: batch.muster.dev/v1alpha1
                kind: Job
                metadata: {name: elastic}
                spec:
                  minAvailable: 3
                  suspend: true
                  tasks:
                  - name: worker
                    replicas: 6
                    template:
                      spec:
                        containers: [{name: main, image: busybox}]
                """);

        Result describe = muster.run("describe", "job", "elastic");

        assertThat(describe.exit()).as(describe.err()).isZero();
        assertThat(describe.out()).contains("Min available:  3 (elastic: task minimums not enforced)\n")
                .containsPattern("\\n  worker +6 +0 +<none> ");
    }

    /** A Job deleted and submitted again under its name: the earlier one's Events are not this one's. */
    @Test
    void describeLeavesOutTheEventsOfAnEarlierJobOfTheSameName() throws Exception {
        CliRunner.apply(cluster, dir, """
                apiVersion: batch.muster.dev/v1alpha1
                kind: Job
                metadata: {name: again}
                spec:
                  suspend: true
                  tasks:
                  - name: worker
                    replicas: 1
                    template:
                      spec:
                        containers: [{name: main, image: busybox}]
                """);
        String uid = cluster.client().resources(Job.class).inNamespace("default").withName("again").get()
                .getMetadata().getUid();
        event("before", "uid-of-the-earlier-job", "TasksSucceeded", "Running -> Completed: from the earlier Job");
        event("now", uid, "Created", "Pending: this Job");

        Result describe = muster.run("describe", "job", "again");

        assertThat(describe.exit()).as(describe.err()).isZero();
        assertThat(describe.out()).contains("Pending: this Job").doesNotContain("from the earlier Job");
    }

    private void event(String name, String uid, String reason, String message) {
        cluster.client().v1().events().inNamespace("default").resource(new EventBuilder().withNewMetadata()
                .withName(name).endMetadata().withNewInvolvedObject().withApiVersion("batch.muster.dev/v1alpha1")
                .withKind("Job").withName("again").withNamespace("default").withUid(uid).endInvolvedObject()
                .withType("Normal").withReason(reason).withMessage(message)
                .withLastTimestamp(java.time.Instant.now().toString()).build()).create();
    }

    @Test
    void actionsOnAMissingJobExitOneNamingIt() {
        assertThat(muster.run("suspend", "job", "nope", "-n", "team-b"))
                .isEqualTo(new Result(1, "", "error: job team-b/nope not found\n"));
        assertThat(muster.run("logs", "job", "nope")).isEqualTo(new Result(1, "", "error: job default/nope not found\n"));
    }

    @Test
    void logsPrintEachContainerUnderItsHeaderAndSayInOneLineWhyOneHasNone() {
        for (String task : new String[]{"master", "worker"}) {
            // The worker is bound to a node no kubelet runs: its container waits to start and has no log yet.
            cluster.client().pods().resource(new PodBuilder().withNewMetadata().withName("etl-" + task + "-0")
                    .addToLabels(MusterLabels.JOB_NAME, "etl").addToLabels(MusterLabels.TASK_NAME, task).endMetadata()
                    .withNewSpec().withNodeName(task.equals("worker") ? "no-such-node" : null)
                    .addNewContainer().withName("main").withImage("busybox").endContainer().endSpec()
                    .build()).create();
        }

        Result all = muster.run("logs", "job", "etl");
        assertThat(all.exit()).isZero();
        assertThat(all.out()).isEqualTo("==> etl-master-0 main <==\n"
                + "==> etl-worker-0 main: no logs from the API server (HTTP 400: container \"main\" in pod \"etl-worker-0\""
                + " is waiting to start: ContainerCreating) <==\n");
        assertThat(muster.run("logs", "job", "etl", "--task", "worker").out()).startsWith("==> etl-worker-0 main")
                .doesNotContain("master");
        assertThat(muster.run("logs", "job", "etl", "--task", "ps")).isEqualTo(new Result(0, "", "job etl task ps has no pods\n"));
    }

    @Test
    void completionScriptsNameEverySubcommand() {
        for (String shell : new String[]{"bash", "zsh"}) {
            Result script = muster.runAsTyped("completion", shell);
            assertThat(script.exit()).isZero();
            assertThat(script.out()).contains("complete -F", "ZSH_VERSION");
            MusterCli.COMMANDS.forEach(command -> assertThat(script.out()).contains(command));
        }
        assertThat(muster.runAsTyped("completion", "fish").exit()).isEqualTo(2);
    }

    @Test
    void helpListsTheCommandsAndEachCommandsOptions() {
        Result help = muster.runAsTyped("--help");
        assertThat(help.exit()).isZero();
        // A command with aliases is listed as "queues, q".
        MusterCli.COMMANDS.forEach(command -> assertThat(help.out()).containsPattern("\n  (\\S+, )*" + command + "[ ,]"));
        assertThat(muster.runAsTyped("delete", "--help").out()).startsWith("Usage: muster delete [-h]")
                .contains("--cascade=MODE", "--kubeconfig=FILE", "--context=NAME", "-n, --namespace=NS");
    }

    @Test
    void theContextChosenSetsTheNamespace() throws Exception {
        Path kubeconfig = kubeconfig(cluster.url(), "team-b");

        assertThat(muster.runAsTyped("jobs", "--kubeconfig", kubeconfig.toString()).out()).startsWith("NAME   QUEUE")
                .contains("etl");
        assertThat(muster.runAsTyped("jobs", "--kubeconfig", kubeconfig.toString(), "--context", "other"))
                .isEqualTo(new Result(0, "", "No resources found in team-b namespace.\n"));
        assertThat(muster.runAsTyped("jobs", "--kubeconfig", kubeconfig.toString(), "--context", "other", "-n", "default")
                .out()).contains("etl");
    }

    @Test
    void anUnreachableClusterExitsOneWithTheReason() throws Exception {
        Path kubeconfig = kubeconfig("http://127.0.0.1:1", "team-b");

        Result jobs = muster.runAsTyped("jobs", "--kubeconfig", kubeconfig.toString());
        assertThat(jobs.exit()).isEqualTo(1);
        assertThat(jobs.out()).isEmpty();
        assertThat(jobs.err()).isEqualTo("error: Operation: [list] for kind: [Job] with name: [null] in namespace: "
                + "[default] failed: java.net.ConnectException: the API server refused the connection or cannot be reached\n");
    }

    /**
     * A kubeconfig for {@code server} whose current context {@code mine} names no namespace and whose other
     * context, {@code other}, names {@code namespace}.
     */
    private Path kubeconfig(String server, String namespace) throws Exception {
        return Files.writeString(Files.createTempFile(dir, "kubeconfig", ""), """
                apiVersion: v1
                kind: Config
                clusters: [{name: local, cluster: {server: "%s"}}]
                contexts:
                - {name: mine, context: {cluster: local, user: me}}
                - {name: other, context: {cluster: local, user: me, namespace: %s}}
                users: [{name: me, user: {}}]
                current-context: mine
                """.formatted(server, namespace));
    }

    private Job job() {
        return cluster.client().resources(Job.class).withName("etl").get();
    }
}
