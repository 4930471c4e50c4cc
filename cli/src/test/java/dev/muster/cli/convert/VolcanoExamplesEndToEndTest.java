package dev.muster.cli.convert;

import dev.muster.api.MusterLabels;
import dev.muster.api.batch.v1alpha1.Job;
import dev.muster.api.batch.v1alpha1.JobPhase;
import dev.muster.api.scheduling.v1alpha1.PodGroup;
import dev.muster.api.scheduling.v1alpha1.PodGroupPhase;
import dev.muster.api.scheduling.v1alpha1.Queue;
import dev.muster.local.LocalClusterConfig;
import dev.muster.cli.MusterCli;
import dev.muster.local.manifest.Manifest;
import dev.muster.local.manifest.ManifestLoader;
import dev.muster.manager.e2e.ManagerOnLocalCluster;
import io.fabric8.kubernetes.api.model.EnvVar;
import io.fabric8.kubernetes.api.model.Pod;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

import static dev.muster.cli.Patience.PATIENCE;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Volcano manifests from {@code examples/volcano/}, each converted by {@code muster convert} exactly as a user
 * runs it and then applied to the local cluster with the whole manager: every job runs to its end.
 */
@Tag("emulator")
class VolcanoExamplesEndToEndTest {
    private static ManagerOnLocalCluster env;
    @TempDir
    static Path dir;

    @BeforeAll
    static void start() {
        env = new ManagerOnLocalCluster(LocalClusterConfig.defaults().withNodes(4));
    }

    @AfterAll
    static void stop() {
        env.close();
    }

    /** Runs {@code muster convert examples/volcano/FILE}, checks it succeeded, and returns what it printed. */
    private static String convert(String file) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int exit = MusterCli.run(new String[]{"convert", "../examples/volcano/" + file},
                new PrintStream(out, true, StandardCharsets.UTF_8), new PrintStream(err, true, StandardCharsets.UTF_8),
                Clock.systemUTC());
        assertThat(err.toString(StandardCharsets.UTF_8)).as("what muster convert could not carry").isEmpty();
        assertThat(exit).isZero();
        return out.toString(StandardCharsets.UTF_8);
    }

    /** Converts and applies the file (queues first, as {@code ./muster local} does); returns its Jobs' names. */
    private static List<String> run(String file) throws Exception {
        Path converted = Files.writeString(dir.resolve(file), convert(file));
        List<Manifest> manifests = ManifestLoader.load(List.of(converted)).stream()
                .sorted(Comparator.comparing(m -> !(m.object() instanceof Queue)))
                .toList();
        manifests.forEach(m -> env.client().resource(m.object()).create());
        return manifests.stream().filter(m -> m.object() instanceof Job).map(m -> m.object().getMetadata().getName()).toList();
    }

    private static void awaitCompleted(String job) {
        await().atMost(PATIENCE).untilAsserted(() -> assertThat(env.phase(job)).isEqualTo(JobPhase.Completed));
    }

    @Test
    void mpiWithSshRunsToCompletionWithTheWorkersHostFileUnderVolcanosPath() throws Exception {
        run("mpi-ssh.yaml").forEach(VolcanoExamplesEndToEndTest::awaitCompleted);
        // The launcher's CompleteJob stopped the workers; none failed, so the group ends as its Job does.
        await().atMost(PATIENCE).untilAsserted(() -> assertThat(env.client().resources(PodGroup.class)
                .inNamespace("default").withName("lm-mpi-job").get().getStatus().getPhase()).isEqualTo(PodGroupPhase.Completed));
        Pod launcher = env.client().pods().inNamespace("default").withName("lm-mpi-job-mpimaster-0").get();
        assertThat(launcher.getSpec().getSchedulerName()).isEqualTo("muster");
        assertThat(launcher.getSpec().getContainers().get(0).getVolumeMounts())
                .anyMatch(m -> m.getMountPath().startsWith("/etc/volcano"));
    }

    @Test
    void tensorflowWithAntiAffinityOnTheTaskLabelRunsToCompletion() throws Exception {
        run("tensorflow-ps.yaml").forEach(VolcanoExamplesEndToEndTest::awaitCompleted);
        Map<String, String> env0 = envOf("tensorflow-dist-mnist-worker-0");
        assertThat(env0.get("TF_CONFIG")).contains("tensorflow-dist-mnist-worker-1.tensorflow-dist-mnist:2222");
    }

    @Test
    void pytorchRunsToCompletionWithEveryRank() throws Exception {
        List<String> jobs = run("pytorch.yaml");
        // CompleteJob on the master's completion stops the workers, so their env is read while they exist.
        await().atMost(PATIENCE).untilAsserted(() ->
                assertThat(envOf("pytorch-job-worker-1")).containsEntry("RANK", "2").containsEntry("WORLD_SIZE", "3"));
        jobs.forEach(VolcanoExamplesEndToEndTest::awaitCompleted);
    }

    @Test
    void mxnetRunsToCompletion() throws Exception {
        run("mxnet.yaml").forEach(VolcanoExamplesEndToEndTest::awaitCompleted);
    }

    @Test
    void taskDependencyStartsTheWorkersOnlyAfterTheMasterRunsAndCompletes() throws Exception {
        run("task-dependency.yaml").forEach(VolcanoExamplesEndToEndTest::awaitCompleted);
        Pod master = env.client().pods().inNamespace("default").withName("dependency-job-master-0").get();
        Pod worker = env.client().pods().inNamespace("default").withName("dependency-job-worker-0").get();
        assertThat(worker.getMetadata().getCreationTimestamp()).isGreaterThanOrEqualTo(master.getStatus().getStartTime());
    }

    @Test
    void hierarchicalQueuesBecomeATreeAndTheirJobsComplete() throws Exception {
        run("hierarchical-queues.yaml").forEach(VolcanoExamplesEndToEndTest::awaitCompleted);
        Queue prod = env.client().resources(Queue.class).withName("root-eng-prod").get();
        assertThat(prod.getSpec().getParent()).isEqualTo("eng");
        assertThat(prod.getSpec().getWeight()).isEqualTo(8);
        assertThat(env.client().resources(Queue.class).withName("sci").get().getSpec().getWeight()).isEqualTo(8);
        assertThat(env.job("eng-prod-job").getSpec().getQueue()).isEqualTo("root-eng-prod");
    }

    @Test
    void anElasticThreeOfTenJobIsAGangOfAnyThreeAndCompletes() throws Exception {
        run("elastic.yaml").forEach(VolcanoExamplesEndToEndTest::awaitCompleted);
        PodGroup group = env.client().resources(PodGroup.class).inNamespace("default").withName("elastic-job").get();
        assertThat(group.getSpec().getMinMember()).isEqualTo(3);
        assertThat(group.getSpec().getMinTaskMember()).containsEntry("worker", 0);
    }

    @Test
    void pipelineStagesInPartitionsRunAsWholeSubGangsLabelledWithTheirPartitionAndComplete() throws Exception {
        run("partitions.yaml").forEach(VolcanoExamplesEndToEndTest::awaitCompleted);
        PodGroup group = env.client().resources(PodGroup.class).inNamespace("default").withName("pipeline-train").get();
        assertThat(group.getSpec().getSubGroupPolicy()).singleElement().satisfies(policy -> {
            assertThat(policy.getSubGroupSize()).isEqualTo(4);
            assertThat(policy.getMatchLabelKeys()).containsExactly(MusterLabels.PARTITION_ID);
        });
        Map<String, Long> podsByPartition = env.client().pods().inNamespace("default")
                .withLabel(MusterLabels.JOB_NAME, "pipeline-train").list().getItems().stream()
                .collect(Collectors.groupingBy(p -> p.getMetadata().getLabels().get("volcano.sh/partition-id"),
                        Collectors.counting()));
        assertThat(podsByPartition).containsOnly(Map.entry("0", 4L), Map.entry("1", 4L));
        // The downward-API path to Volcano's label was rewritten to Muster's, which the pods always carry.
        assertThat(env.job("pipeline-train").getSpec().getTasks().get(0).getTemplate().getSpec().getVolumes().get(0)
                .getDownwardAPI().getItems().get(0).getFieldRef().getFieldPath())
                .isEqualTo("metadata.labels['" + MusterLabels.PARTITION_ID + "']");
    }

    @Test
    void paddleWithEphemeralStorageAndAnOsNodeSelectorRunsToCompletion() throws Exception {
        run("paddle-ephemeral.yaml").forEach(VolcanoExamplesEndToEndTest::awaitCompleted);
    }

    @Test
    void mindsporeRunsEveryIndexedPodToCompletion() throws Exception {
        List<String> jobs = run("mindspore.yaml");
        await().atMost(PATIENCE).untilAsserted(() ->
                assertThat(envOf("mindspore-cpu-pod-3")).containsEntry("VC_TASK_INDEX", "3").containsKey("VC_POD_HOSTS"));
        jobs.forEach(VolcanoExamplesEndToEndTest::awaitCompleted);
    }

    @Test
    void horovodLauncherCompletesTheJobWithItsWorkersHostFile() throws Exception {
        List<String> jobs = run("horovod.yaml");
        await().atMost(PATIENCE).untilAsserted(() ->
                assertThat(envOf("horovod-mnist-launcher-0")).containsEntry("VC_WORKER_NUM", "3"));
        jobs.forEach(VolcanoExamplesEndToEndTest::awaitCompleted);
        assertThat(env.job("horovod-mnist").getMetadata().getLabels()).containsEntry("volcano.sh/job-type", "Horovod");
    }

    @Test
    void rayStartsItsHeadAndWorkersBehindTheHeadServiceAndCompletes() throws Exception {
        List<String> jobs = run("ray.yaml");
        // Scripts written for Volcano select the pods by Volcano's labels; the worker joins the head's GCS.
        await().atMost(PATIENCE).untilAsserted(() -> assertThat(env.client().pods().inNamespace("default")
                .withLabel("volcano.sh/job-name", "ray-cluster-job").withLabel("volcano.sh/task-spec", "worker")
                .list().getItems()).hasSize(2));
        Pod worker = env.client().pods().inNamespace("default").withName("ray-cluster-job-worker-0").get();
        assertThat(worker.getSpec().getContainers().get(0).getCommand())
                .containsExactly("sh", "-c", "ray start --block --address=ray-cluster-job-head-0.ray-cluster-job:6379");
        assertThat(worker.getMetadata().getLabels()).containsEntry("volcano.sh/queue-name", "default")
                .containsEntry("volcano.sh/job-namespace", "default");
        assertThat(env.client().services().inNamespace("default").withName("ray-cluster-job-head-svc").get()
                .getSpec().getPorts()).extracting(p -> p.getPort()).containsExactly(6379, 8265, 10001);
        jobs.forEach(VolcanoExamplesEndToEndTest::awaitCompleted);
    }

    private static Map<String, String> envOf(String pod) {
        Pod found = env.client().pods().inNamespace("default").withName(pod).get();
        assertThat(found).as("pod " + pod).isNotNull();
        return found.getSpec().getContainers().get(0).getEnv().stream()
                .filter(e -> e.getValue() != null)
                .collect(Collectors.toMap(EnvVar::getName, EnvVar::getValue));
    }
}
