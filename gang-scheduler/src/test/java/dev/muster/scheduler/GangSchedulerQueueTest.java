package dev.muster.scheduler;

import dev.muster.api.MusterLabels;
import dev.muster.api.PodPreemption;
import dev.muster.api.scheduling.v1alpha1.PodGroup;
import dev.muster.api.scheduling.v1alpha1.PodGroupFixtures;
import dev.muster.api.scheduling.v1alpha1.Queue;
import dev.muster.api.scheduling.v1alpha1.QueueAccess;
import dev.muster.api.scheduling.v1alpha1.QueueCondition;
import dev.muster.api.scheduling.v1alpha1.QueueStatus;
import dev.muster.local.LocalCluster;
import dev.muster.local.LocalClusterConfig;
import dev.muster.gang.GangVerdictBoard;
import dev.muster.support.informer.SharedInformers;
import io.fabric8.kubernetes.api.model.LabelSelectorBuilder;
import io.fabric8.kubernetes.api.model.NamespaceBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

import com.fasterxml.jackson.databind.JsonNode;
import io.fabric8.kubernetes.client.utils.Serialization;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import static dev.muster.scheduler.Patience.PATIENCE;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The scheduler under queues against the local cluster over HTTP, with PodGroups and pods made by the test
 * (no Job controller): one node of 8 GPUs, queue {@code a} running two gangs of 4 × 1 GPU, queue {@code b} of
 * the same weight submitting one. {@code b} reclaims its fair share of 4 GPUs: {@code a}'s newer gang is
 * evicted whole through the Eviction API, marked, and counted; the queues' status says where they stand.
 */
@Tag("emulator")
class GangSchedulerQueueTest {
    private static final String NS = "default";

    private LocalCluster cluster;
    private KubernetesClient client;
    private SharedInformers informers;
    private SimpleMeterRegistry registry;
    private GangScheduler scheduler;

    @BeforeEach
    void start() {
        cluster = LocalCluster.start(LocalClusterConfig.defaults().withNodes(1).withNodeGpus(8)
                .withDefaultRunTime(Duration.ofMinutes(10)).withPodStopDelay(Duration.ofMinutes(1)));
        client = cluster.client();
        informers = new SharedInformers(client);
        registry = new SimpleMeterRegistry();
        scheduler = new GangScheduler(client, informers, new GangVerdictBoard(),
                GangSchedulerConfig.defaults().withCyclePeriod(Duration.ofMillis(200)), registry);
        scheduler.start();
        informers.start();
        await().atMost(PATIENCE).until(scheduler::isSynced);
    }

    @AfterEach
    void stop() {
        scheduler.stop();
        informers.close();
        cluster.close();
    }

    @Test
    void aQueueBelowItsFairShareReclaimsAWholeGangFromTheQueueAboveIt() throws Exception {
        ReclaimingQueues.create(client, "a");
        ReclaimingQueues.create(client, "b");
        createGang("a-old", "a");
        await().atMost(PATIENCE).until(() -> running("a-old") == 4);
        long second = Instant.now().getEpochSecond();
        await().until(() -> Instant.now().getEpochSecond() > second);
        createGang("a-new", "a");
        await().atMost(PATIENCE).until(() -> running("a-new") == 4);

        createGang("b-0", "b");

        await().atMost(PATIENCE).untilAsserted(() -> assertThat(pods("a-new")).hasSize(4).allSatisfy(pod -> {
            assertThat(pod.getMetadata().getDeletionTimestamp()).isNotNull();
            assertThat(PodPreemption.isPreempted(pod)).isTrue();
        }));
        assertThat(pods("a-old")).allSatisfy(pod -> assertThat(pod.getMetadata().getDeletionTimestamp()).isNull());
        assertThat(client.resources(PodGroup.class).inNamespace(NS).withName("a-new").get().getMetadata()
                .getAnnotations()).containsEntry(PodEvictor.EVICTIONS_ANNOTATION, "1");
        assertThat(registry.get(SchedulerMetrics.PODS_EVICTED).tag("reason", "Reclaim").counter().count()).isEqualTo(4);

        // The evicted pods stop and leave; b's gang gets their room.
        pods("a-new").forEach(pod -> client.pods().inNamespace(NS).withName(pod.getMetadata().getName())
                .withGracePeriod(0).delete());
        await().atMost(PATIENCE).until(() -> running("b-0") == 4);
        await().atMost(PATIENCE).untilAsserted(() -> {
            QueueStatus a = queue("a").getStatus();
            assertThat(a.getAllocated()).containsEntry("nvidia.com/gpu", new Quantity("4"));
            assertThat(a.getFairShare()).containsEntry("nvidia.com/gpu", new Quantity("4"));
            assertThat(a.getConditions()).singleElement().satisfies(c -> {
                assertThat(c.getType()).isEqualTo(QueueCondition.VALID);
                assertThat(c.getStatus()).isEqualTo("True");
            });
            assertThat(queue("b").getStatus().getAllocated()).containsEntry("nvidia.com/gpu", new Quantity("4"));
            assertThat(scheduler.queues()).anySatisfy(state -> {
                assertThat(state.name()).isEqualTo("b");
                assertThat(state.allocated()).containsEntry("nvidia.com/gpu", "4");
                assertThat(state.running()).isEqualTo(1);
            });
        });
        // What kubectl get q prints: the server-side Table of the Queue CRD's printer columns.
        await().atMost(PATIENCE).untilAsserted(() -> assertThat(queueTable())
                .anySatisfy(row -> assertThat(row).startsWith("a ").contains("Allocated={\"nvidia.com/gpu\":\"4\"}")
                        .contains("Fair Share={\"nvidia.com/gpu\":\"4\"}").contains("Running=1"))
                .anySatisfy(row -> assertThat(row).startsWith("b ").contains("Allocated={\"nvidia.com/gpu\":\"4\"}")));
        assertThat(registry.get(SchedulerMetrics.QUEUE_ALLOCATED).tags("queue", "a", "resource", "nvidia.com/gpu")
                .gauge().value()).isEqualTo(4);
        assertThat(registry.get(SchedulerMetrics.GANGS_BROKEN).counter().count()).isZero();
    }

    @Test
    void aGangOfAQueueThatDoesNotExistIsHeldWithTheQueuesName() {
        createGang("lost", "nowhere");

        await().atMost(PATIENCE).untilAsserted(() -> assertThat(scheduler.queue()).anySatisfy(gang -> {
            assertThat(gang.name()).isEqualTo("lost");
            assertThat(gang.state()).isEqualTo(QueueAccess.NOT_FOUND);
            assertThat(gang.message()).contains("nowhere");
        }));
        assertThat(pods("lost")).allSatisfy(pod -> assertThat(pod.getSpec().getNodeName()).isNull());
    }

    /**
     * A PodGroup made by hand, naming a queue whose namespaceSelector does not select its namespace, is held by
     * the same rule (QueueAccess) as a Job: not admitted, not bound, and released once the namespace is labelled.
     */
    @Test
    void aHandMadeGangOfAQueueItsNamespaceMayNotUseIsHeldUntilTheNamespaceIsSelected() {
        Queue gpu = new Queue();
        gpu.getMetadata().setName("gpu");
        gpu.getSpec().setNamespaceSelector(new LabelSelectorBuilder().addToMatchLabels("team", "vision").build());
        client.resources(Queue.class).resource(gpu).create();
        createGang("sneaky", "gpu");

        await().atMost(PATIENCE).untilAsserted(() -> assertThat(scheduler.queue()).anySatisfy(gang -> {
            assertThat(gang.name()).isEqualTo("sneaky");
            assertThat(gang.state()).isEqualTo(QueueAccess.FORBIDDEN);
            assertThat(gang.message()).isEqualTo("namespace " + NS + " may not use queue gpu: the queue's "
                    + "spec.namespaceSelector does not select it; it waits until it does");
        }));
        assertThat(pods("sneaky")).allSatisfy(pod -> assertThat(pod.getSpec().getNodeName()).isNull());

        client.namespaces().withName(NS).edit(ns -> new NamespaceBuilder(ns).editMetadata()
                .addToLabels("team", "vision").endMetadata().build());

        await().atMost(PATIENCE).until(() -> running("sneaky") == 4);
    }

    private void createGang(String name, String queue) {
        PodGroup podGroup = PodGroupFixtures.podGroup(NS, name, 4);
        podGroup.getSpec().setQueue(queue);
        client.resources(PodGroup.class).inNamespace(NS).resource(podGroup).create();
        for (int i = 0; i < 4; i++) {
            client.pods().inNamespace(NS).resource(new PodBuilder()
                    .withNewMetadata().withName(name + "-" + i).withNamespace(NS)
                    .withLabels(Map.of(MusterLabels.POD_GROUP, name, MusterLabels.TASK_NAME, "worker")).endMetadata()
                    .withNewSpec().withSchedulerName(MusterLabels.SCHEDULER_NAME).withRestartPolicy("Never")
                    .addNewContainer().withName("main").withImage("busybox")
                    .withNewResources().addToRequests("nvidia.com/gpu", new Quantity("1"))
                    .addToLimits("nvidia.com/gpu", new Quantity("1")).endResources().endContainer()
                    .endSpec().build()).create();
        }
    }

    private List<Pod> pods(String gang) {
        return client.pods().inNamespace(NS).withLabel(MusterLabels.POD_GROUP, gang).list().getItems();
    }

    private long running(String gang) {
        return pods(gang).stream().filter(pod -> "Running".equals(pod.getStatus().getPhase())
                && pod.getMetadata().getDeletionTimestamp() == null).count();
    }

    /** Each row of the Queue Table as {@code name column=cell ...}. */
    private List<String> queueTable() throws Exception {
        HttpResponse<String> response = HttpClient.newHttpClient().send(HttpRequest.newBuilder(
                        URI.create(cluster.url() + "/apis/scheduling.muster.dev/v1alpha1/queues"))
                .header("Accept", "application/json;as=Table;v=v1;g=meta.k8s.io").build(), HttpResponse.BodyHandlers.ofString());
        JsonNode table = Serialization.jsonMapper().readTree(response.body());
        List<String> rows = new ArrayList<>();
        for (JsonNode row : table.path("rows")) {
            StringBuilder text = new StringBuilder(row.path("cells").get(0).asText());
            for (int i = 1; i < row.path("cells").size(); i++) {
                JsonNode cell = row.path("cells").get(i);
                text.append(' ').append(table.path("columnDefinitions").get(i).path("name").asText()).append('=')
                        .append(cell.isValueNode() ? cell.asText() : cell.toString());
            }
            rows.add(text.toString());
        }
        return rows;
    }

    private Queue queue(String name) {
        return client.resources(Queue.class).withName(name).get();
    }
}
