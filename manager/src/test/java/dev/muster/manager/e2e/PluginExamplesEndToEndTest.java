package dev.muster.manager.e2e;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.muster.api.batch.v1alpha1.Job;
import dev.muster.api.batch.v1alpha1.JobPhase;
import dev.muster.local.LocalClusterConfig;
import dev.muster.local.manifest.ManifestException;
import dev.muster.local.manifest.ManifestLoader;
import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.EnvVar;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.Secret;
import io.fabric8.kubernetes.api.model.Service;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

import static dev.muster.manager.Patience.PATIENCE;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/** The three distributed-training examples with every component of the manager: what their pods receive, and that they complete. */
@Tag("emulator")
class PluginExamplesEndToEndTest {
    private static ManagerOnLocalCluster env;

    @BeforeAll
    static void start() {
        env = new ManagerOnLocalCluster(LocalClusterConfig.defaults());
    }

    @AfterAll
    static void stop() {
        env.close();
    }

    private static void apply(String file) throws ManifestException {
        ManifestLoader.load(List.of(Path.of("../examples/" + file))).forEach(m -> env.client().resource(m.object()).create());
    }

    private static void awaitCompleted(String job) {
        await().atMost(PATIENCE).untilAsserted(() -> {
            Job j = env.client().resources(Job.class).inNamespace("default").withName(job).get();
            assertThat(j.getStatus()).isNotNull();
            assertThat(j.getStatus().getState().getPhase()).isEqualTo(JobPhase.Completed);
        });
    }

    private static Pod pod(String name) {
        return env.client().pods().inNamespace("default").withName(name).get();
    }

    private static Map<String, String> env(String pod) {
        return pod(pod).getSpec().getContainers().get(0).getEnv().stream()
                .collect(Collectors.toMap(EnvVar::getName, EnvVar::getValue));
    }

    @Test
    void pytorchExampleGivesEveryRankAndCompletes() throws Exception {
        apply("pytorch-ddp.yaml");
        awaitCompleted("ddp");
        assertThat(env("ddp-worker-2")).containsEntry("RANK", "3").containsEntry("WORLD_SIZE", "4")
                .containsEntry("MASTER_ADDR", "ddp-master-0.ddp").containsEntry("MASTER_PORT", "29500");
        assertThat(env("ddp-master-0")).containsEntry("RANK", "0");
        assertThat(pod("ddp-worker-2").getSpec().getSubdomain()).isEqualTo("ddp");
        assertThat(env.client().resources(Service.class).inNamespace("default").withName("ddp").get()).isNotNull();
    }

    @Test
    void mpiExampleGivesTheLauncherAHostfileOfEveryWorkerAndCompletes() throws Exception {
        apply("mpi-allreduce.yaml");
        awaitCompleted("allreduce");
        assertThat(env.client().resources(ConfigMap.class).inNamespace("default").withName("allreduce-mpi").get().getData())
                .containsEntry("hostfile", "allreduce-worker-0.allreduce slots=4\nallreduce-worker-1.allreduce slots=4\n");
        assertThat(env("allreduce-launcher-0")).containsEntry("MPI_HOST", "allreduce-worker-0.allreduce,allreduce-worker-1.allreduce");
        assertThat(env.client().resources(Secret.class).inNamespace("default").withName("allreduce-ssh").get().getData())
                .containsKeys("id_rsa", "id_rsa.pub", "authorized_keys", "config");
    }

    @Test
    void tensorflowExampleListsEveryWorkerInTfConfigAndCompletes() throws Exception {
        apply("tensorflow-ps.yaml");
        awaitCompleted("tfjob");
        JsonNode config = new ObjectMapper().readTree(env("tfjob-worker-1").get("TF_CONFIG"));
        assertThat(config.path("cluster").path("worker")).extracting(JsonNode::asText)
                .containsExactly("tfjob-worker-0.tfjob:2222", "tfjob-worker-1.tfjob:2222");
        assertThat(config.path("cluster").path("ps")).extracting(JsonNode::asText)
                .containsExactly("tfjob-ps-0.tfjob:2222", "tfjob-ps-1.tfjob:2222");
        assertThat(config.path("task").path("type").asText()).isEqualTo("worker");
        assertThat(config.path("task").path("index").asInt()).isEqualTo(1);
    }
}
