package dev.muster.scheduler;

import dev.muster.gang.GangVerdictBoard;
import dev.muster.local.LocalCluster;
import dev.muster.local.LocalClusterConfig;
import dev.muster.support.Decided;
import dev.muster.support.Stillness;
import io.fabric8.kubernetes.api.model.Event;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.PodCondition;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.utils.Serialization;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import static dev.muster.scheduler.Patience.PATIENCE;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Pods that name a Kubernetes PodGroup ({@code scheduling.k8s.io/v1alpha2}, the Workload API of Kubernetes 1.36) in
 * {@code spec.schedulingGroup} are gang-scheduled by Muster as kube-scheduler's gang scheduling would: nothing binds
 * before {@code minCount} pods fit together, a missing group keeps its pods waiting, and the group's
 * {@code PodGroupScheduled} condition says what was decided. The scheduler runs with the production defaults.
 */
@Tag("emulator")
class WorkloadPodGroupLocalClusterTest {
    private static final String NS = "default";
    private static final String API_VERSION = "scheduling.k8s.io/v1alpha2";
    private static final Duration STAYS = Duration.ofMillis(1500);

    private LocalCluster cluster;
    private KubernetesClient client;
    private GangVerdictBoard board;
    private GangScheduler scheduler;

    @BeforeEach
    void start() {
        cluster = LocalCluster.start(LocalClusterConfig.defaults().withNodes(3).withNodeCpu("4").withNodeMemory("8Gi")
                .withDefaultRunTime(Duration.ofMinutes(10)));
        client = cluster.client();
        board = new GangVerdictBoard();
        scheduler = new GangScheduler(client, board, GangSchedulerConfig.defaults());
        scheduler.start();
        await().atMost(PATIENCE).until(scheduler::isSynced);
    }

    @AfterEach
    void stop() {
        scheduler.stop();
        cluster.close();
    }

    @Test
    void noPodBindsBeforeMinCountPodsFitTogetherAndTheGroupSaysItWasScheduled() {
        createPodGroup("workers", "{\"gang\": {\"minCount\": 3}}");
        createPod("workers-0", "workers", "3");
        createPod("workers-1", "workers", "3");

        Stillness.holds(PATIENCE, "the scheduler decided on the group again",
                Decided.again(board, NS, "scheduling.k8s.io/workers"), STAYS,
                () -> assertThat(List.of(get("workers-0"), get("workers-1"))).allSatisfy(pod ->
                        assertThat(pod.getSpec().getNodeName()).isNull()));
        await().atMost(PATIENCE).untilAsserted(() -> assertThat(scheduledCondition("workers")).hasValueSatisfying(c -> {
            assertThat(c).containsEntry("status", "False").containsEntry("reason", "Unschedulable");
            assertThat((String) c.get("message")).contains("fewer than minMember 3");
        }));

        createPod("workers-2", "workers", "3");

        await().atMost(PATIENCE).untilAsserted(() -> assertThat(List.of(get("workers-0"), get("workers-1"),
                get("workers-2"))).allSatisfy(pod -> assertThat(pod.getSpec().getNodeName()).isNotNull()));
        await().atMost(PATIENCE).untilAsserted(() -> assertThat(scheduledCondition("workers")).hasValueSatisfying(c ->
                assertThat(c).containsEntry("status", "True").containsEntry("reason", "Scheduled")));
        await().atMost(PATIENCE).untilAsserted(() -> assertThat(events("workers")).extracting(Event::getReason)
                .contains("Scheduled"));
    }

    @Test
    void aGangThatCannotFitBindsNothingAndItsConditionSaysWhy() {
        createPodGroup("big", "{\"gang\": {\"minCount\": 4}}");
        for (int i = 0; i < 4; i++) {
            createPod("big-" + i, "big", "3");
        }

        await().atMost(PATIENCE).untilAsserted(() -> assertThat(scheduledCondition("big")).hasValueSatisfying(c -> {
            assertThat(c).containsEntry("status", "False").containsEntry("reason", "Unschedulable");
            assertThat((String) c.get("message")).contains("Insufficient cpu");
        }));
        assertThat(client.pods().inNamespace(NS).list().getItems()).allSatisfy(pod ->
                assertThat(pod.getSpec().getNodeName()).isNull());
    }

    @Test
    void aPodWaitsForTheKubernetesPodGroupItNamesAndABasicPolicyPlacesItAlone() {
        createPod("solo", "later", "1");

        await().atMost(PATIENCE).untilAsserted(() -> assertThat(podScheduled(get("solo"))).hasValueSatisfying(c -> {
            assertThat(c.getStatus()).isEqualTo("False");
            assertThat(c.getMessage()).isEqualTo("podgroups.scheduling.k8s.io \"default/later\" not found");
        }));
        assertThat(get("solo").getSpec().getNodeName()).isNull();

        createPodGroup("later", "{\"basic\": {}}");

        await().atMost(PATIENCE).untilAsserted(() -> assertThat(get("solo").getSpec().getNodeName()).isNotNull());
    }

    private void createPodGroup(String name, String policy) {
        client.genericKubernetesResources(API_VERSION, "PodGroup").inNamespace(NS).resource(Serialization.unmarshal("""
                {"apiVersion": "%s", "kind": "PodGroup", "metadata": {"name": "%s"},
                 "spec": {"schedulingPolicy": %s}}""".formatted(API_VERSION, name, policy),
                GenericKubernetesResource.class)).create();
    }

    private void createPod(String name, String podGroup, String cpu) {
        Pod pod = new PodBuilder()
                .withNewMetadata().withName(name).withNamespace(NS).endMetadata()
                .withNewSpec().withSchedulerName("muster")
                .addNewContainer().withName("main").withImage("busybox")
                .withNewResources().addToRequests("cpu", new Quantity(cpu)).endResources().endContainer()
                .endSpec().build();
        pod.getSpec().setAdditionalProperty("schedulingGroup", Map.of("podGroupName", podGroup));
        client.pods().inNamespace(NS).resource(pod).create();
    }

    private Pod get(String name) {
        return client.pods().inNamespace(NS).withName(name).get();
    }

    @SuppressWarnings("unchecked")
    private Optional<Map<String, Object>> scheduledCondition(String podGroup) {
        GenericKubernetesResource group = client.genericKubernetesResources(API_VERSION, "PodGroup").inNamespace(NS)
                .withName(podGroup).get();
        Object status = group.getAdditionalProperties().get("status");
        if (!(status instanceof Map<?, ?> fields) || !(fields.get("conditions") instanceof List<?> conditions)) {
            return Optional.empty();
        }
        return conditions.stream().map(c -> (Map<String, Object>) c)
                .filter(c -> "PodGroupScheduled".equals(c.get("type"))).findFirst();
    }

    private List<Event> events(String podGroup) {
        return client.v1().events().inNamespace(NS).list().getItems().stream()
                .filter(e -> "PodGroup".equals(e.getInvolvedObject().getKind())
                        && API_VERSION.equals(e.getInvolvedObject().getApiVersion())
                        && podGroup.equals(e.getInvolvedObject().getName()))
                .toList();
    }

    private static Optional<PodCondition> podScheduled(Pod pod) {
        return pod.getStatus() == null || pod.getStatus().getConditions() == null ? Optional.empty()
                : pod.getStatus().getConditions().stream().filter(c -> "PodScheduled".equals(c.getType())).findFirst();
    }
}
