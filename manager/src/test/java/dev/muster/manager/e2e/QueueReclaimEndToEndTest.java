package dev.muster.manager.e2e;

import com.fasterxml.jackson.databind.JsonNode;
import dev.muster.api.MusterLabels;
import dev.muster.api.batch.v1alpha1.JobPhase;
import dev.muster.local.LocalClusterConfig;
import dev.muster.manager.QueueFixtures;
import dev.muster.support.Stillness;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.client.utils.Serialization;
import org.junit.jupiter.api.AutoClose;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.File;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.IntStream;
import java.util.stream.Stream;

import static dev.muster.manager.Patience.PATIENCE;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Scenario 1 of queues through the whole manager on four nodes of 8 GPUs: queue {@code a} (weight 1) runs
 * eight gangs of 4 × 1 GPU (minAvailable 4), filling the cluster; queue {@code b} (weight 3) submits six such
 * gangs. {@code b}'s fair share is 24 GPUs and {@code a}'s 8, so {@code b} reclaims: {@code a}'s six newest
 * gangs are evicted whole, go back to Pending (Preempted), and nothing more is evicted. Production defaults
 * but the queues' {@code reclaimDelay} of 0s.
 */
@Tag("emulator")
class QueueReclaimEndToEndTest {
    private static final String NS = "default";

    @AutoClose
    private final ManagerOnLocalCluster env = new ManagerOnLocalCluster(
            LocalClusterConfig.defaults().withNodes(4).withNodeGpus(8));

    @TempDir
    Path dir;

    @Test
    void queueBReclaimsItsFairShareByEvictingTheSixNewestGangsOfQueueAWhole() throws Exception {
        createQueue("a", 1);
        createQueue("b", 3);
        // Creation times have whole seconds; gangs created in the same second are newer the later their name.
        for (int i = 0; i < 8; i++) {
            createJob("a-" + i, "a");
        }
        await().atMost(PATIENCE).untilAsserted(() -> assertThat(IntStream.range(0, 8).mapToObj(i -> "a-" + i))
                .allSatisfy(job -> assertThat(env.phase(job)).isEqualTo(JobPhase.Running)));

        for (int i = 0; i < 6; i++) {
            createJob("b-" + i, "b");
        }

        await().atMost(PATIENCE).untilAsserted(() -> {
            assertThat(IntStream.range(0, 6).mapToObj(i -> "b-" + i))
                    .allSatisfy(job -> assertThat(env.phase(job)).isEqualTo(JobPhase.Running));
            assertThat(runningGpus("a")).isEqualTo(8);
            assertThat(runningGpus("b")).isEqualTo(24);
        });
        assertThat(List.of("a-0", "a-1")).allSatisfy(job -> assertThat(env.phase(job)).isEqualTo(JobPhase.Running));
        assertThat(IntStream.range(2, 8).mapToObj(i -> "a-" + i)).allSatisfy(job -> {
            assertThat(env.phase(job)).isEqualTo(JobPhase.Pending);
            assertThat(env.job(job).getStatus().getState().getReason()).isEqualTo("Preempted");
        });

        // Nothing more is evicted while the shares hold.
        Stillness.holds(PATIENCE, "two scheduling cycles", env.twoCyclesFromNow(), Duration.ofSeconds(5), () -> {
            assertThat(metric("muster.scheduler.preemption.pods.evicted", "reason", "Reclaim")).isEqualTo(24);
            assertThat(metric("muster.scheduler.preemption.pods.evicted", "reason", "WithinQueue")).isZero();
            assertThat(metric("muster.scheduler.preemption.gangs.broken", null, null)).isZero();
        });

        await().atMost(PATIENCE).untilAsserted(() -> {
            JsonNode queues = env.actuator().json("queue").path("queues");
            assertThat(queue(queues, "a").path("allocated").path("nvidia.com/gpu").asText()).isEqualTo("8");
            assertThat(queue(queues, "a").path("fairShare").path("nvidia.com/gpu").asText()).isEqualTo("8");
            assertThat(queue(queues, "b").path("allocated").path("nvidia.com/gpu").asText()).isEqualTo("24");
            assertThat(queue(queues, "b").path("fairShare").path("nvidia.com/gpu").asText()).isEqualTo("24");
            assertThat(queue(queues, "a").path("pending").asInt()).isEqualTo(6);
        });
        await().atMost(PATIENCE).untilAsserted(() -> {
            String table = getQueues();
            assertThat(row(table, "a")).contains("nvidia.com/gpu:8").doesNotContain("nvidia.com/gpu:24");
            assertThat(row(table, "b")).contains("nvidia.com/gpu:24");
        });
    }

    private void createQueue(String name, int weight) {
        QueueFixtures.create(env.client(), name, "{weight: " + weight + ", preemption: {reclaimDelay: 0s}}");
    }

    private void createJob(String name, String queue) {
        env.client().resource(QueueFixtures.fourGpuGang(env.client(), name, queue)).create();
    }



    /** GPUs requested by the queue's pods that are bound and not being deleted. */
    private long runningGpus(String queue) {
        return env.client().pods().inNamespace(NS).list().getItems().stream()
                .filter(pod -> pod.getMetadata().getLabels().getOrDefault(MusterLabels.JOB_NAME, "").startsWith(queue + "-"))
                .filter(pod -> pod.getSpec().getNodeName() != null && pod.getMetadata().getDeletionTimestamp() == null)
                .filter(pod -> !"Succeeded".equals(pod.getStatus().getPhase()) && !"Failed".equals(pod.getStatus().getPhase()))
                .mapToLong(QueueReclaimEndToEndTest::gpus).sum();
    }

    private static long gpus(Pod pod) {
        return pod.getSpec().getContainers().stream()
                .map(c -> c.getResources().getRequests().get("nvidia.com/gpu"))
                .filter(q -> q != null).mapToLong(q -> Long.parseLong(q.getAmount())).sum();
    }

    private double metric(String name, String tag, String value) throws Exception {
        JsonNode measurement = env.actuator().json("metrics/" + name + (tag == null ? "" : "?tag=" + tag + ":" + value))
                .path("measurements").get(0);
        return measurement.path("value").asDouble();
    }

    private static JsonNode queue(JsonNode queues, String name) {
        for (JsonNode queue : queues) {
            if (name.equals(queue.path("name").asText())) {
                return queue;
            }
        }
        throw new AssertionError("no queue " + name + " in " + queues);
    }

    /**
     * {@code kubectl get q} when kubectl is on the PATH, else the same server-side Table it renders, as
     * {@code NAME ... ALLOCATED FAIR SHARE ...} rows.
     */
    private String getQueues() throws Exception {
        Path kubeconfig = env.cluster.writeKubeconfig(dir.resolve("kubeconfig"));
        if (onPath("kubectl")) {
            Process process = new ProcessBuilder("kubectl", "--kubeconfig", kubeconfig.toString(),
                    "--cache-dir", dir.resolve("cache").toString(), "get", "q")
                    .redirectErrorStream(true).redirectOutput(dir.resolve("out").toFile()).start();
            assertThat(process.waitFor(60, TimeUnit.SECONDS)).isTrue();
            String out = Files.readString(dir.resolve("out"), StandardCharsets.UTF_8);
            assertThat(process.exitValue()).as(out).isZero();
            return out;
        }
        JsonNode table = Serialization.jsonMapper().readTree(env.cluster.client().getHttpClient()
                .sendAsync(env.cluster.client().getHttpClient().newHttpRequestBuilder()
                        .uri(env.cluster.url() + "/apis/scheduling.muster.dev/v1alpha1/queues")
                        .header("Accept", "application/json;as=Table;v=v1;g=meta.k8s.io").build(), String.class)
                .get(30, TimeUnit.SECONDS).body());
        StringBuilder rows = new StringBuilder();
        for (JsonNode row : table.path("rows")) {
            row.path("cells").forEach(cell -> rows.append(cell.isObject() ? flat(cell) : cell.asText()).append("   "));
            rows.append('\n');
        }
        return rows.toString();
    }

    /** A map cell as kubectl prints it, {@code map[nvidia.com/gpu:8]}. */
    private static String flat(JsonNode map) {
        StringBuilder text = new StringBuilder("map[");
        map.fields().forEachRemaining(e -> text.append(text.length() > 4 ? " " : "").append(e.getKey()).append(':')
                .append(e.getValue().asText()));
        return text.append(']').toString();
    }

    private static String row(String table, String queue) {
        return table.lines().filter(line -> line.startsWith(queue + " ")).findFirst()
                .orElseThrow(() -> new AssertionError("no row for queue " + queue + " in\n" + table));
    }

    private static boolean onPath(String executable) {
        String path = System.getenv("PATH");
        return path != null && Stream.of(path.split(File.pathSeparator))
                .anyMatch(directory -> Files.isExecutable(Path.of(directory, executable)));
    }
}
