package dev.muster.scheduler;

import static dev.muster.scheduler.Patience.PATIENCE;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.muster.api.MusterLabels;
import dev.muster.api.PodPreemption;
import dev.muster.api.scheduling.v1alpha1.PodGroup;
import dev.muster.api.scheduling.v1alpha1.PodGroupFixtures;
import dev.muster.api.scheduling.v1alpha1.Queue;
import dev.muster.local.LocalCluster;
import dev.muster.local.LocalClusterConfig;
import dev.muster.gang.GangVerdict;
import dev.muster.gang.GangVerdictBoard;
import dev.muster.support.Decided;
import dev.muster.support.Stillness;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.time.Duration;
import java.time.Instant;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.IntStream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * DRA end to end on the local cluster, over HTTP: four nodes of 8 simulated GPUs (gpu.example.com, two
 * nodes per NVLink clique); gangs whose pods claim GPUs through ResourceClaimTemplates.
 */
@Tag("emulator")
class DraLocalClusterTest {
    private static final String NS = "default";
    private static final Duration STAYS = Duration.ofMillis(1500);
    private static final String CLIQUE = "gpu.example.com/clique";

    private LocalCluster cluster;
    private KubernetesClient client;
    private GangVerdictBoard board;
    private GangScheduler scheduler;

    @BeforeEach
    void start() {
        cluster = LocalCluster.start(LocalClusterConfig.defaults().withNodes(4).withNodeCpu("16").withNodeMemory("64Gi")
                .withNodeGpus(8).withGpuCliqueSize(2).withDefaultRunTime(Duration.ofMinutes(10)));
        client = cluster.client();
        startScheduler();
        createTemplate("eight-gpus", 8);
        createTemplate("nine-gpus", 9);
    }

    private void startScheduler() {
        board = new GangVerdictBoard();
        scheduler = new GangScheduler(client, board, GangSchedulerConfig.defaults().withCyclePeriod(Duration.ofMillis(200)));
        scheduler.start();
        await().atMost(PATIENCE).until(scheduler::isSynced);
    }

    @AfterEach
    void stop() {
        scheduler.stop();
        cluster.close();
    }

    @Test
    void aGangOfFourTakesEightGpusOfOneCliqueEachAndRuns() {
        createGang("train", 4, "eight-gpus");

        await().atMost(PATIENCE).untilAsserted(() -> assertThat(pods("train"))
                .hasSize(4).allSatisfy(pod -> assertThat(pod.getStatus().getPhase()).isEqualTo("Running")));
        Set<String> nodes = new HashSet<>();
        for (Pod pod : pods("train")) {
            nodes.add(pod.getSpec().getNodeName());
            GenericKubernetesResource claim = claimOf(pod);
            Map<String, Object> status = map(claim.getAdditionalProperties().get("status"));
            List<Object> results = list(map(map(status.get("allocation")).get("devices")).get("results"));
            assertThat(results).hasSize(8).allSatisfy(result ->
                    assertThat(map(result).get("pool")).isEqualTo(pod.getSpec().getNodeName()));
            assertThat(claim.getMetadata().getFinalizers()).containsExactly(DeviceClaimWriter.FINALIZER);
            assertThat(list(status.get("reservedFor"))).singleElement()
                    .satisfies(consumer -> assertThat(map(consumer).get("uid")).isEqualTo(pod.getMetadata().getUid()));
        }
        assertThat(nodes).hasSize(4);
    }

    @Test
    void aGangWhoseDevicesDoNotExistWaitsAndNamesTheClaim() {
        // 1 cpu per pod fits every node; no node has 9 GPUs.
        createGang("big", 2, "nine-gpus");

        await().atMost(PATIENCE).until(() -> board.latest(NS, "big").filter(v -> v.message().contains("(claim "))
                .isPresent());
        GangVerdict verdict = board.latest(NS, "big").orElseThrow();
        assertThat(verdict.reason()).isEqualTo("NotEnoughResources");
        List<String> claims = pods("big").stream().map(p -> "default/" + claimOf(p).getMetadata().getName()).toList();
        assertThat(verdict.message()).startsWith("0/4 nodes are available: 4 Insufficient "
                + "deviceclass.resource.kubernetes.io/gpu.example.com (claim default/")
                .contains(": 9 device(s) of class gpu.example.com, one " + CLIQUE + ").");
        assertThat(claims).anySatisfy(claim -> assertThat(verdict.message()).contains("(claim " + claim + ":"));
        Stillness.holds(PATIENCE, "the scheduler decided on big again", Decided.again(board, NS, "big"), STAYS,
                () -> assertThat(pods("big"))
                .allSatisfy(pod -> assertThat(pod.getSpec().getNodeName()).isNull()));
    }

    @Test
    void aShortageSaysWhenGpusOfTheClassAreInASliceWithPerDeviceNodeSelection() {
        GenericKubernetesResource slice = new GenericKubernetesResource();
        slice.setApiVersion("resource.k8s.io/v1");
        slice.setKind("ResourceSlice");
        slice.setMetadata(new ObjectMetaBuilder().withName("fabric-gpus").build());
        slice.setAdditionalProperty("spec", Map.of("driver", "gpu.example.com", "perDeviceNodeSelection", true,
                "pool", Map.of("name", "fabric", "generation", 1, "resourceSliceCount", 1),
                "devices", IntStream.range(0, 16).mapToObj(i -> Map.of("name", "gpu-" + i, "allNodes", true)).toList()));
        client.genericKubernetesResources("resource.k8s.io/v1", "ResourceSlice").resource(slice).create();
        createGang("big", 1, "nine-gpus");

        await().atMost(PATIENCE).until(() -> pods("big").get(0).getStatus().getResourceClaimStatuses() != null
                && !pods("big").get(0).getStatus().getResourceClaimStatuses().isEmpty());
        String claim = "default/" + claimOf(pods("big").get(0)).getMetadata().getName();
        await().atMost(PATIENCE).untilAsserted(() -> assertThat(board.latest(NS, "big").map(GangVerdict::message).orElse(""))
                .startsWith("0/4 nodes are available: 4 Insufficient deviceclass.resource.kubernetes.io/gpu.example.com "
                        + "(claim " + claim + ": 9 device(s) of class gpu.example.com, one " + CLIQUE + "; devices left "
                        + "out on every node: perDeviceNodeSelection (devices that each name their node), which Muster "
                        + "does not allocate)."));
        assertThat(pods("big").get(0).getSpec().getNodeName()).isNull();
    }

    @Test
    void taintedGpusGoOnlyToClaimsThatTolerateTheTaintAndTheAllocationCarriesTheToleration() {
        for (GenericKubernetesResource slice : client.genericKubernetesResources("resource.k8s.io/v1", "ResourceSlice")
                .list().getItems()) {
            Map<String, Object> spec = map(slice.getAdditionalProperties().get("spec"));
            for (Object device : list(spec.get("devices"))) {
                map(device).put("taints", List.of(Map.of("key", "gpu.example.com/unhealthy", "value", "ecc",
                        "effect", "NoSchedule")));
            }
            client.genericKubernetesResources("resource.k8s.io/v1", "ResourceSlice").resource(slice).update();
        }
        createGang("untolerating", 1, "eight-gpus");

        await().atMost(PATIENCE).until(() -> board.latest(NS, "untolerating")
                .filter(v -> v.message().contains("taints the request does not tolerate")).isPresent());
        String claim = "default/" + claimOf(pods("untolerating").get(0)).getMetadata().getName();
        assertThat(board.latest(NS, "untolerating").orElseThrow().message()).startsWith("0/4 nodes are available: 4 "
                + "node(s) cannot allocate claim " + claim + ": 8 device(s) of class gpu.example.com, one " + CLIQUE
                + " (devices left out there: taints the request does not tolerate).");

        Map<String, Object> toleration = Map.of("key", "gpu.example.com/unhealthy", "operator", "Exists");
        createTemplate("eight-gpus-tolerating", 8, Map.of("tolerations", List.of(toleration)));
        createGang("tolerating", 1, "eight-gpus-tolerating");
        await().atMost(PATIENCE).untilAsserted(() -> assertThat(pods("tolerating")).singleElement()
                .satisfies(pod -> assertThat(pod.getStatus().getPhase()).isEqualTo("Running")));
        Map<String, Object> status = map(claimOf(pods("tolerating").get(0)).getAdditionalProperties().get("status"));
        assertThat(list(map(map(status.get("allocation")).get("devices")).get("results"))).hasSize(8)
                .allSatisfy(result -> assertThat(list(map(result).get("tolerations"))).containsExactly(toleration));
        assertThat(pods("untolerating").get(0).getSpec().getNodeName()).isNull();
    }

    @Test
    void aDeviceTaintRuleKeepsTheGpusOfTheNodeItDrainsFromAGangUntilItIsDeleted() {
        GenericKubernetesResource rule = new GenericKubernetesResource();
        rule.setApiVersion("resource.k8s.io/v1alpha3");
        rule.setKind("DeviceTaintRule");
        rule.setMetadata(new ObjectMetaBuilder().withName("drain-node-0").build());
        // The simulated driver names each node's pool after the node.
        rule.setAdditionalProperty("spec", Map.of(
                "deviceSelector", Map.of("driver", "gpu.example.com", "pool", "node-0"),
                "taint", Map.of("key", "example.com/maintenance", "effect", "NoSchedule")));
        client.genericKubernetesResources("resource.k8s.io/v1alpha3", "DeviceTaintRule").resource(rule).create();
        createGang("train", 4, "eight-gpus");

        await().atMost(PATIENCE).until(() -> board.latest(NS, "train")
                .filter(v -> v.message().contains("taints the request does not tolerate")).isPresent());
        // Three nodes hold three pods; the fourth finds node-0's GPUs tainted.
        assertThat(board.latest(NS, "train").orElseThrow().message()).startsWith("0/4 nodes are available: ")
                .contains("1 node(s) cannot allocate claim default/train-", "(devices left out there: taints the "
                        + "request does not tolerate)", "The gang needs 4 pod(s) placed at once");
        Stillness.holds(PATIENCE, "the scheduler decided on train again", Decided.again(board, NS, "train"), STAYS,
                () -> assertThat(pods("train")).allSatisfy(pod -> assertThat(pod.getSpec().getNodeName()).isNull()));

        client.genericKubernetesResources("resource.k8s.io/v1alpha3", "DeviceTaintRule").withName("drain-node-0").delete();
        await().atMost(PATIENCE).untilAsserted(() -> assertThat(pods("train"))
                .hasSize(4).allSatisfy(pod -> assertThat(pod.getStatus().getPhase()).isEqualTo("Running")));
        assertThat(pods("train")).extracting(pod -> pod.getSpec().getNodeName()).contains("node-0");
    }

    @Test
    void aClaimAskingForConsumableCapacityIsRefusedNamingTheFieldAndTheClaim() {
        createTemplate("gpu-memory", 1, Map.of("capacity", Map.of("requests", Map.of("gpu.example.com/memory", "10Gi"))));
        createGang("sliced", 1, "gpu-memory");

        await().atMost(PATIENCE).until(() -> board.latest(NS, "sliced")
                .filter(v -> v.message().contains("capacity.requests")).isPresent());
        String claim = "default/" + claimOf(pods("sliced").get(0)).getMetadata().getName();
        assertThat(board.latest(NS, "sliced").orElseThrow().message()).contains("claim " + claim + ": request gpus asks "
                + "for exactly.capacity.requests (consumable capacity), which Muster does not allocate");
        await().during(STAYS).atMost(STAYS.plus(PATIENCE)).untilAsserted(() ->
                assertThat(pods("sliced").get(0).getSpec().getNodeName()).isNull());
    }

    @Test
    void devicesOfDeletedPodsGoToTheNextGangAndARestartKeepsEveryAllocation() {
        createGang("first", 4, "eight-gpus");
        await().atMost(PATIENCE).untilAsserted(() -> assertThat(pods("first"))
                .hasSize(4).allSatisfy(pod -> assertThat(pod.getSpec().getNodeName()).isNotNull()));
        Map<String, Object> allocations = allocationsOf("first");

        // A restarted scheduler reads the allocations back from the claims: a new gang finds no GPU free.
        scheduler.stop();
        startScheduler();
        createGang("second", 1, "eight-gpus");
        await().atMost(PATIENCE).until(() -> board.latest(NS, "second")
                .filter(v -> v.message().contains("4 Insufficient deviceclass.resource.kubernetes.io/gpu.example.com (claim"))
                .isPresent());
        Stillness.holds(PATIENCE, "the scheduler decided on second again", Decided.again(board, NS, "second"), STAYS,
                () -> assertThat(pods("second").get(0).getSpec().getNodeName()).isNull());
        assertThat(allocationsOf("first")).isEqualTo(allocations);

        // Deleting the first gang's pods deletes their claims; their GPUs go to the waiting gang.
        client.pods().inNamespace(NS).withLabel(MusterLabels.POD_GROUP, "first").delete();
        await().atMost(PATIENCE).untilAsserted(() -> assertThat(pods("second").get(0).getSpec().getNodeName()).isNotNull());
        assertThat(list(map(map(map(claimOf(pods("second").get(0)).getAdditionalProperties().get("status"))
                .get("allocation")).get("devices")).get("results"))).hasSize(8);
    }

    @Test
    void aQueueLimitInDevicesHoldsAGangThatWouldExceedIt() {
        Queue queue = new Queue();
        queue.getMetadata().setName("gpus");
        queue.getSpec().setLimit(Map.of("deviceclass.resource.kubernetes.io/gpu.example.com", new Quantity("16")));
        client.resources(Queue.class).resource(queue).create();
        createGang("first", 2, "eight-gpus", "gpus");
        await().atMost(PATIENCE).untilAsserted(() -> assertThat(pods("first"))
                .hasSize(2).allSatisfy(pod -> assertThat(pod.getSpec().getNodeName()).isNotNull()));

        // Two nodes still have 8 GPUs free each, but the queue holds its 16.
        createGang("second", 2, "eight-gpus", "gpus");
        await().atMost(PATIENCE).until(() -> board.latest(NS, "second").filter(v -> "QueueLimitReached".equals(v.reason()))
                .isPresent());
        assertThat(board.latest(NS, "second").orElseThrow().message())
                .contains("deviceclass.resource.kubernetes.io/gpu.example.com");
        Stillness.holds(PATIENCE, "the scheduler decided on second again", Decided.again(board, NS, "second"), STAYS,
                () -> assertThat(pods("second"))
                .allSatisfy(pod -> assertThat(pod.getSpec().getNodeName()).isNull()));
    }

    /**
     * Reclaim for GPUs asked through claims: the victims' claims, made from templates for them alone, are freed
     * by their eviction, so the waiting gang's trial counts their devices (kube-scheduler's preemption does not);
     * it binds once the victims are gone and the resourceclaim controller has deleted their claims.
     */
    @Test
    void aQueueBelowItsFairShareReclaimsTheGpusOfAGangFromTheQueueAboveIt() {
        ReclaimingQueues.create(client, "a");
        ReclaimingQueues.create(client, "b");
        createGang("a-old", 2, "eight-gpus", "a");
        await().atMost(PATIENCE).until(() -> bound("a-old") == 2);
        // Victims are taken newest first, by creation time in whole seconds.
        long second = Instant.now().getEpochSecond();
        await().until(() -> Instant.now().getEpochSecond() > second);
        createGang("a-new", 2, "eight-gpus", "a");
        await().atMost(PATIENCE).until(() -> bound("a-new") == 2);
        Set<String> victimClaims = new HashSet<>(allocationsOf("a-new").keySet());

        // Every GPU is taken; queue b, below its fair share of 16, reclaims a's newest gang whole.
        createGang("b-0", 2, "eight-gpus", "b");

        await().atMost(PATIENCE).untilAsserted(() -> assertThat(pods("a-new")).allSatisfy(pod ->
                assertThat(PodPreemption.isPreempted(pod)).isTrue()));
        await().atMost(PATIENCE).untilAsserted(() -> assertThat(pods("b-0"))
                .hasSize(2).allSatisfy(pod -> assertThat(pod.getSpec().getNodeName()).isNotNull()));
        assertThat(allocationsOf("b-0")).hasSize(2).allSatisfy((claim, allocation) ->
                assertThat(list(map(map(allocation).get("devices")).get("results"))).hasSize(8));
        assertThat(victimClaims).doesNotContainAnyElementsOf(allocationsOf("b-0").keySet());
        assertThat(pods("a-old")).hasSize(2).allSatisfy(pod -> {
            assertThat(pod.getMetadata().getDeletionTimestamp()).isNull();
            assertThat(pod.getSpec().getNodeName()).isNotNull();
        });
    }

    private Map<String, Object> allocationsOf(String gang) {
        Map<String, Object> allocations = new java.util.TreeMap<>();
        for (Pod pod : pods(gang)) {
            GenericKubernetesResource claim = claimOf(pod);
            allocations.put(claim.getMetadata().getName(), map(claim.getAdditionalProperties().get("status")).get("allocation"));
        }
        return allocations;
    }

    private void createTemplate(String name, int count) {
        createTemplate(name, count, Map.of());
    }

    /** A template of {@code count} GPUs of one clique, with more fields of {@code exactly}. */
    private void createTemplate(String name, int count, Map<String, Object> exactly) {
        Map<String, Object> fields = new java.util.HashMap<>(Map.of("deviceClassName", "gpu.example.com",
                "allocationMode", "ExactCount", "count", count));
        fields.putAll(exactly);
        GenericKubernetesResource template = new GenericKubernetesResource();
        template.setApiVersion("resource.k8s.io/v1");
        template.setKind("ResourceClaimTemplate");
        template.setMetadata(new ObjectMetaBuilder().withName(name).withNamespace(NS).build());
        template.setAdditionalProperty("spec", Map.of("spec", Map.of("devices", Map.of(
                "requests", List.of(Map.of("name", "gpus", "exactly", fields)),
                "constraints", List.of(Map.of("requests", List.of("gpus"), "matchAttribute", CLIQUE))))));
        client.genericKubernetesResources("resource.k8s.io/v1", "ResourceClaimTemplate").inNamespace(NS)
                .resource(template).create();
    }

    private long bound(String gang) {
        return pods(gang).stream().filter(pod -> pod.getSpec().getNodeName() != null).count();
    }

    private void createGang(String name, int members, String template) {
        createGang(name, members, template, null);
    }

    private void createGang(String name, int members, String template, String queue) {
        PodGroup podGroup = PodGroupFixtures.podGroup(NS, name, members);
        podGroup.getSpec().setQueue(queue);
        client.resources(PodGroup.class).inNamespace(NS).resource(podGroup).create();
        IntStream.range(0, members).forEach(i -> client.pods().inNamespace(NS).resource(new PodBuilder()
                .withNewMetadata().withName(name + "-" + i).withNamespace(NS)
                .withLabels(Map.of(MusterLabels.POD_GROUP, name, MusterLabels.TASK_NAME, "worker")).endMetadata()
                .withNewSpec().withSchedulerName(MusterLabels.SCHEDULER_NAME)
                .addNewResourceClaim().withName("gpus").withResourceClaimTemplateName(template).endResourceClaim()
                .addNewContainer().withName("main").withImage("busybox")
                .withNewResources().addToRequests("cpu", new Quantity("1")).addNewClaim().withName("gpus").endClaim()
                .endResources().endContainer().endSpec().build()).create());
    }

    private List<Pod> pods(String gang) {
        return client.pods().inNamespace(NS).withLabel(MusterLabels.POD_GROUP, gang).list().getItems();
    }

    private GenericKubernetesResource claimOf(Pod pod) {
        String name = pod.getStatus().getResourceClaimStatuses().get(0).getResourceClaimName();
        return client.genericKubernetesResources("resource.k8s.io/v1", "ResourceClaim").inNamespace(NS).withName(name).get();
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> map(Object value) {
        return value instanceof Map<?, ?> map ? (Map<String, Object>) map : Map.of();
    }

    private static List<Object> list(Object value) {
        return value instanceof List<?> list ? (List<Object>) list : List.of();
    }
}
