package dev.muster.manager.e2e;

import dev.muster.api.MusterLabels;
import dev.muster.api.batch.v1alpha1.Job;
import dev.muster.api.batch.v1alpha1.JobPhase;
import dev.muster.api.scheduling.v1alpha1.PodGroup;
import dev.muster.local.LocalClusterConfig;
import dev.muster.local.manifest.Manifest;
import dev.muster.local.manifest.ManifestLoader;
import io.fabric8.kubernetes.api.model.Pod;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

import static dev.muster.manager.Patience.PATIENCE;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/** The README's quickstart, through the real HTTP client, with every component of the manager. */
@Tag("emulator")
class QuickstartEndToEndTest {
    private static ManagerOnLocalCluster env;

    @BeforeAll
    static void start() {
        env = new ManagerOnLocalCluster(LocalClusterConfig.defaults());
    }

    @AfterAll
    static void stop() {
        env.close();
    }

    @Test
    void quickstartJobCompletes() throws Exception {
        List<Manifest> manifests = ManifestLoader.load(List.of(Path.of("../examples/quickstart.yaml")));
        manifests.forEach(m -> env.client().resource(m.object()).create());

        var job = env.client().resources(Job.class).inNamespace("default").withName("quickstart");
        await().atMost(PATIENCE).untilAsserted(() -> {
            Job j = job.get();
            assertThat(j.getStatus()).isNotNull();
            assertThat(j.getStatus().getState().getPhase()).isEqualTo(JobPhase.Completed);
        });

        Job done = job.get();
        assertThat(done.getStatus().getState().getReason()).isNotBlank();
        assertThat(done.getStatus().getState().getMessage()).isNotBlank();
        assertThat(done.getStatus().getTaskStatusCount().get("master").getPhase()).containsEntry("Succeeded", 1);
        assertThat(done.getStatus().getTaskStatusCount().get("worker").getPhase()).containsEntry("Succeeded", 3);
        assertThat(done.getStatus().getConditions()).extracting("status").contains(JobPhase.Running, JobPhase.Completed);

        PodGroup group = env.client().resources(PodGroup.class).inNamespace("default").withName("quickstart").get();
        assertThat(group.getSpec().getMinMember()).isEqualTo(4);
        assertThat(group.getSpec().getMinTaskMember()).isEqualTo(Map.of("master", 1, "worker", 3));

        List<Pod> pods = env.client().pods().inNamespace("default").withLabel(MusterLabels.JOB_NAME, "quickstart").list().getItems();
        assertThat(pods).extracting(p -> p.getMetadata().getName()).containsExactlyInAnyOrder(
                "quickstart-master-0", "quickstart-worker-0", "quickstart-worker-1", "quickstart-worker-2");
        assertThat(pods).allSatisfy(p -> {
            assertThat(p.getSpec().getSchedulerName()).isEqualTo("muster");
            assertThat(p.getSpec().getNodeName()).startsWith("node-");
            assertThat(p.getMetadata().getLabels()).containsEntry(MusterLabels.POD_GROUP, "quickstart");
        });
    }

    @Test
    void actuatorShowsHealthAndSchedulerMetrics() throws Exception {
        Actuator actuator = env.actuator();
        await().atMost(PATIENCE).untilAsserted(() -> {
            HttpResponse<String> health = actuator.get("health/readiness");
            assertThat(health.statusCode()).isEqualTo(200);
            assertThat(health.body()).contains("\"status\":\"UP\"");
        });
        await().atMost(PATIENCE).untilAsserted(() -> {
            HttpResponse<String> metrics = actuator.get("prometheus");
            assertThat(metrics.statusCode()).isEqualTo(200);
            assertThat(metrics.body()).contains("muster_scheduler_cycle").contains("muster_leader 1.0");
        });
    }
}
