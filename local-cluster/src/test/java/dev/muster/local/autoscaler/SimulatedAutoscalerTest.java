package dev.muster.local.autoscaler;

import dev.muster.local.Fixtures;
import dev.muster.local.LocalCluster;
import dev.muster.local.LocalClusterConfig;
import io.fabric8.kubernetes.api.model.Event;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.GenericKubernetesResourceBuilder;
import io.fabric8.kubernetes.api.model.GenericKubernetesResourceList;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.PodConditionBuilder;
import io.fabric8.kubernetes.api.model.PodTemplate;
import io.fabric8.kubernetes.api.model.PodTemplateBuilder;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.dsl.MixedOperation;
import io.fabric8.kubernetes.client.dsl.Resource;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

import java.time.Duration;

import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

@SuppressWarnings("unchecked")
@Tag("emulator")
class SimulatedAutoscalerTest {
    private static final NodeGroup GPU = NodeGroup.parse("gpu=1..4:cpu=32,memory=256Gi,nvidia.com/gpu=8,label.pool=gpu");
    private static final String ATOMIC = "best-effort-atomic-scale-up.autoscaling.x-k8s.io";
    private static final String CHECK = "check-capacity.autoscaling.x-k8s.io";
    /** A group that starts empty and adds nodes a second after deciding to. */
    private static final NodeGroup GPU_ON_DEMAND = NodeGroup.parse("gpu=0..4:cpu=32,memory=256Gi,nvidia.com/gpu=8,delay=1s");
    private static final AutoscalerConfig FAST_SCANS = AutoscalerConfig.NONE.withScanInterval(Duration.ofMillis(100))
            .withScaleDownDelay(Duration.ofSeconds(1));

    private static LocalCluster start(AutoscalerConfig autoscaler, NodeGroup... groups) {
        return LocalCluster.start(Fixtures.FAST.withNodes(1).withAutoscaler(autoscaler.withNodeGroups(List.of(groups))));
    }

    @Test
    void servesTheProvisioningRequestApiAndStartsEachGroupAtItsMinimum() {
        try (LocalCluster cluster = LocalCluster.start(Fixtures.FAST.withNodes(1).withNodeGroups(GPU))) {
            KubernetesClient client = cluster.client();
            Node node = client.nodes().withName("gpu-0").get();
            assertThat(node.getMetadata().getLabels()).containsEntry(NodeGroup.GROUP_LABEL, "gpu")
                    .containsEntry("pool", "gpu");
            assertThat(node.getStatus().getAllocatable()).containsEntry("nvidia.com/gpu", new Quantity("8"))
                    .containsEntry("pods", new Quantity("110"));
            assertThat(client.nodes().list().getItems()).hasSize(2);

            GenericKubernetesResource created = requests(client).resource(request("train", "best-effort-atomic-scale-up.autoscaling.x-k8s.io",
                    Map.of("worker", 4))).create();
            assertThat(created.getMetadata().getUid()).isNotBlank();
            assertThat(client.getApiResources("autoscaling.x-k8s.io/v1").getResources())
                    .anySatisfy(r -> assertThat(r.getName()).isEqualTo("provisioningrequests/status"));
            GenericKubernetesResource changed = requests(client).withName("train").get();
            changed.getAdditionalProperties().put("spec", Map.of("provisioningClassName", "check-capacity.autoscaling.x-k8s.io",
                    "podSets", List.of(Map.of("podTemplateRef", Map.of("name", "worker"), "count", 4))));
            assertThatThrownBy(() -> requests(client).resource(changed).update())
                    .isInstanceOf(KubernetesClientException.class).hasMessageContaining("Value is immutable");
        }
    }

    @Test
    void withoutNodeGroupsTheApiIsNotServed() {
        try (LocalCluster cluster = LocalCluster.start(Fixtures.FAST.withNodes(1))) {
            assertThat(cluster.client().apiextensions().v1().customResourceDefinitions()
                    .withName("provisioningrequests.autoscaling.x-k8s.io").get()).isNull();
        }
    }

    @Test
    void anAtomicRequestGetsAllItsNodesAtOnceAfterTheGroupsDelay() {
        try (LocalCluster cluster = start(FAST_SCANS, GPU_ON_DEMAND)) {
            KubernetesClient client = cluster.client();
            client.resources(PodTemplate.class).resource(gpuTemplate("worker", 8)).create();
            requests(client).resource(request("train", ATOMIC, Map.of("worker", 3))).create();

            await().until(() -> condition(client, "train", "Accepted") != null);
            assertThat(groupNodes(client, "gpu")).as("no node before the group's delay").isEmpty();
            assertThat(condition(client, "train", "Provisioned")).isNull();
            await().atMost(Duration.ofSeconds(10)).until(() -> isTrue(condition(client, "train", "Provisioned")));
            assertThat(groupNodes(client, "gpu")).as("all nodes exist once Provisioned").hasSize(3);
            Map<String, Object> provisioned = condition(client, "train", "Provisioned");
            assertThat(provisioned).containsEntry("reason", "CapacityIsProvisioned");
            assertThat((String) provisioned.get("message")).contains("3 nodes added to node group gpu");
            assertThat(condition(client, "train", "Accepted")).containsEntry("status", "True");
            assertThat(client.nodes().withName("gpu-0").get().getStatus().getAllocatable())
                    .containsEntry("nvidia.com/gpu", new Quantity("8"));
        }
    }

    @Test
    void anAtomicRequestBeyondTheGroupsMaximumGetsNoNodesAndIsRetriedOrFailsWhenToldNotToRetry() {
        try (LocalCluster cluster = start(FAST_SCANS, GPU_ON_DEMAND.withDelay(Duration.ZERO))) {
            KubernetesClient client = cluster.client();
            client.resources(PodTemplate.class).resource(gpuTemplate("worker", 8)).create();
            requests(client).resource(request("too-big", ATOMIC, Map.of("worker", 5))).create();
            GenericKubernetesResource noRetry = request("too-big-once", ATOMIC, Map.of("worker", 5));
            ((Map<String, Object>) noRetry.getAdditionalProperties().get("spec")).put("parameters", Map.of("noRetry", "true"));
            requests(client).resource(noRetry).create();

            await().until(() -> condition(client, "too-big", "Provisioned") != null);
            Map<String, Object> provisioned = condition(client, "too-big", "Provisioned");
            assertThat(provisioned).containsEntry("status", "False").containsEntry("reason", "CapacityIsNotFound");
            assertThat((String) provisioned.get("message")).contains("will try again")
                    .contains("group gpu would need 5 more nodes but has 0 of at most 4");
            assertThat(condition(client, "too-big", "Failed")).isNull();
            await().until(() -> isTrue(condition(client, "too-big-once", "Failed")));
            assertThat(condition(client, "too-big-once", "Failed")).containsEntry("reason", "CapacityIsNotFound");
            assertThat(groupNodes(client, "gpu")).as("all or nothing: no node for part of the pods").isEmpty();
        }
    }

    @Test
    void aRequestForAGroupWhoseProviderRefusesFailsWithItsMessage() {
        try (LocalCluster cluster = start(FAST_SCANS, GPU_ON_DEMAND.withFail(true))) {
            KubernetesClient client = cluster.client();
            client.resources(PodTemplate.class).resource(gpuTemplate("worker", 8)).create();
            requests(client).resource(request("train", ATOMIC, Map.of("worker", 2))).create();

            await().until(() -> isTrue(condition(client, "train", "Failed")));
            assertThat((String) condition(client, "train", "Failed").get("message"))
                    .isEqualTo("Node group gpu refused to add 2 nodes: quota exceeded");
            assertThat(groupNodes(client, "gpu")).isEmpty();
        }
    }

    @Test
    void aGroupThatWorksIsChosenBeforeOneThatFails() {
        NodeGroup failing = NodeGroup.parse("a-gpu=0..4:cpu=32,memory=256Gi,nvidia.com/gpu=8,fail=true");
        try (LocalCluster cluster = start(FAST_SCANS, failing, GPU_ON_DEMAND.withDelay(Duration.ZERO))) {
            KubernetesClient client = cluster.client();
            client.resources(PodTemplate.class).resource(gpuTemplate("worker", 8)).create();
            requests(client).resource(request("train", ATOMIC, Map.of("worker", 2))).create();

            await().until(() -> isTrue(condition(client, "train", "Provisioned")));
            assertThat(groupNodes(client, "gpu")).hasSize(2);
            assertThat(groupNodes(client, "a-gpu")).isEmpty();
        }
    }

    @Test
    void aRequestWhosePodTemplateIsMissingFails() {
        try (LocalCluster cluster = start(FAST_SCANS, GPU_ON_DEMAND)) {
            KubernetesClient client = cluster.client();
            requests(client).resource(request("train", ATOMIC, Map.of("nowhere", 1))).create();

            await().until(() -> isTrue(condition(client, "train", "Failed")));
            assertThat(condition(client, "train", "Failed")).containsEntry("reason", "FailedToCreatePods");
            assertThat((String) condition(client, "train", "Failed").get("message"))
                    .contains("PodTemplate default/nowhere not found");
        }
    }

    @Test
    void checkCapacityIsProvisionedOnlyWhenThePodsFitTheNodesThereAreAndNeverScalesUp() {
        try (LocalCluster cluster = start(FAST_SCANS, GPU_ON_DEMAND.withDelay(Duration.ZERO))) {
            KubernetesClient client = cluster.client();
            client.resources(PodTemplate.class).resource(gpuTemplate("small", 0)).create();
            client.resources(PodTemplate.class).resource(gpuTemplate("gpu", 8)).create();
            requests(client).resource(request("fits", CHECK, Map.of("small", 2))).create();
            requests(client).resource(request("needs-gpus", CHECK, Map.of("gpu", 1))).create();

            await().until(() -> isTrue(condition(client, "fits", "Provisioned")));
            assertThat(condition(client, "fits", "Provisioned")).containsEntry("reason", "CapacityIsFound");
            await().until(() -> condition(client, "needs-gpus", "Provisioned") != null);
            assertThat(condition(client, "needs-gpus", "Provisioned")).containsEntry("status", "False")
                    .containsEntry("reason", "CapacityIsNotFound");
            assertThat(groupNodes(client, "gpu")).isEmpty();
        }
    }

    @Test
    void theBookingOfAProvisionedRequestExpiresAfterTheBookingTime() {
        try (LocalCluster cluster = start(FAST_SCANS.withBookingTime(Duration.ofSeconds(1)), GPU_ON_DEMAND)) {
            KubernetesClient client = cluster.client();
            client.resources(PodTemplate.class).resource(gpuTemplate("small", 0)).create();
            requests(client).resource(request("fits", CHECK, Map.of("small", 1))).create();

            await().until(() -> isTrue(condition(client, "fits", "Provisioned")));
            assertThat(condition(client, "fits", "BookingExpired")).isNull();
            await().atMost(Duration.ofSeconds(10)).until(() -> isTrue(condition(client, "fits", "BookingExpired")));
            assertThat(condition(client, "fits", "BookingExpired")).containsEntry("reason", "CapacityReservationTimeExceeded");
            assertThat(condition(client, "fits", "Provisioned")).containsEntry("status", "True");
        }
    }

    @Test
    void requestsOfAnotherClassAreLeftAlone() {
        try (LocalCluster cluster = start(FAST_SCANS, GPU_ON_DEMAND)) {
            KubernetesClient client = cluster.client();
            client.resources(PodTemplate.class).resource(gpuTemplate("small", 0)).create();
            requests(client).resource(request("queued", "queued-provisioning.gke.io", Map.of("small", 1))).create();
            requests(client).resource(request("fits", CHECK, Map.of("small", 1))).create();

            // Requests are answered in creation order, so once the later one is, the scan has passed the first.
            await().until(() -> isTrue(condition(client, "fits", "Provisioned")));
            assertThat(requests(client).withName("queued").get().getAdditionalProperties()).doesNotContainKey("status");
        }
    }

    @Test
    void unschedulablePodsGrowAGroupThatFitsThemWhoseNodeStaysWhileTheyWaitAndIsRemovedOnceEmptyForTheDelay() {
        NodeGroup cpu = NodeGroup.parse("cpu=1..3:cpu=8,memory=32Gi");
        // The positive control's group: only a pod asking for an FPGA fits it, and nothing else is ever placed there.
        NodeGroup spare = NodeGroup.parse("spare=0..1:cpu=4,memory=8Gi,example.com/fpga=1");
        try (LocalCluster cluster = start(FAST_SCANS, GPU_ON_DEMAND.withDelay(Duration.ZERO), cpu, spare)) {
            KubernetesClient client = cluster.client();
            unschedulable(client, "big", 8);
            unschedulable(client, "huge", 16);

            await().until(() -> groupNodes(client, "gpu").size() == 1);
            assertThat(groupNodes(client, "cpu")).as("the cpu group's minimum, and no more").hasSize(1);
            await().until(() -> event(client, "big") != null);
            assertThat(event(client, "big").getReason()).isEqualTo("TriggeredScaleUp");
            assertThat(event(client, "big").getMessage()).isEqualTo("pod triggered scale-up: [{gpu 0->1 (max: 4)}]");
            assertThat(event(client, "big").getSource().getComponent()).isEqualTo("cluster-autoscaler");
            await().until(() -> event(client, "huge") != null);
            assertThat(event(client, "huge").getReason()).isEqualTo("NotTriggerScaleUp");
            assertThat(event(client, "huge").getMessage()).isEqualTo("pod didn't trigger scale-up: "
                    + "group cpu: the pod does not fit its nodes; group gpu: the pod does not fit its nodes; "
                    + "group spare: the pod does not fit its nodes");

            // Positive control: a twin node, emptied now, is removed after the same scale-down delay; the gpu node,
            // which `big` still waits for, stays all the while and for the window after.
            unschedulable(client, "twin", "example.com/fpga", 1);
            await().until(() -> groupNodes(client, "spare").size() == 1);
            client.pods().withName("twin").withGracePeriod(0).delete();
            await("positive control: the emptied twin node is removed").atMost(Duration.ofSeconds(10))
                    .failFast("the gpu node went while its pod waits", () -> groupNodes(client, "gpu").size() != 1)
                    .until(() -> groupNodes(client, "spare").isEmpty());
            await().during(Duration.ofMillis(1500)).atMost(Duration.ofSeconds(5))
                    .until(() -> groupNodes(client, "gpu").size() == 1);

            client.pods().withName("big").withGracePeriod(0).delete();
            await().atMost(Duration.ofSeconds(10)).until(() -> groupNodes(client, "gpu").isEmpty());
            assertThat(groupNodes(client, "cpu")).as("never below the minimum").extracting(n -> n.getMetadata().getName())
                    .containsExactly("cpu-0");
        }
    }

    @Test
    void theIssuesGangOfFourTimesEightGpusOnTwoGpuNodesAddsTwoNodesAndItsBookingHoldsThemAgainstTheNext() {
        LocalClusterConfig config = Fixtures.FAST.withNodes(2).withNodeGpus(8).withNodeCpu("32").withNodeMemory("256Gi")
                .withAutoscaler(FAST_SCANS.withNodeGroups(List.of(GPU_ON_DEMAND)));
        try (LocalCluster cluster = LocalCluster.start(config)) {
            KubernetesClient client = cluster.client();
            client.resources(PodTemplate.class).resource(gpuTemplate("worker", 8)).create();
            requests(client).resource(request("gang", ATOMIC, Map.of("worker", 4))).create();

            await().atMost(Duration.ofSeconds(10)).until(() -> isTrue(condition(client, "gang", "Provisioned")));
            assertThat(groupNodes(client, "gpu")).extracting(n -> n.getMetadata().getName())
                    .containsExactlyInAnyOrder("gpu-0", "gpu-1");

            requests(client).resource(request("next", ATOMIC, Map.of("worker", 4))).create();
            await().until(() -> condition(client, "next", "Provisioned") != null);
            assertThat((String) condition(client, "next", "Provisioned").get("message"))
                    .as("the first gang's booking takes all four nodes")
                    .contains("group gpu would need 4 more nodes but has 2 of at most 4");
        }
    }

    /** Creates a pod of another scheduler asking for GPUs, and marks it Unschedulable as that scheduler would. */
    private static void unschedulable(KubernetesClient client, String name, int gpus) {
        unschedulable(client, name, "nvidia.com/gpu", gpus);
    }

    /** Creates a pod of another scheduler asking for {@code count} of {@code resource}, marked Unschedulable. */
    private static void unschedulable(KubernetesClient client, String name, String resource, int count) {
        Pod pod = client.pods().resource(new PodBuilder(Fixtures.pod(name)).editSpec().withSchedulerName("other")
                .editFirstContainer().withNewResources().addToRequests(resource, new Quantity(String.valueOf(count)))
                .addToLimits(resource, new Quantity(String.valueOf(count))).endResources().endContainer()
                .endSpec().build()).create();
        pod.getStatus().getConditions().add(new PodConditionBuilder().withType("PodScheduled").withStatus("False")
                .withReason("Unschedulable").withMessage("0/2 nodes are available").build());
        client.pods().resource(pod).updateStatus();
    }

    /** The last Event the autoscaler recorded on a pod, or null. */
    private static Event event(KubernetesClient client, String pod) {
        return client.v1().events().list().getItems().stream()
                .filter(e -> pod.equals(e.getInvolvedObject().getName()))
                .filter(e -> "cluster-autoscaler".equals(e.getSource().getComponent()))
                .reduce((a, b) -> b).orElse(null);
    }

    private static List<Node> groupNodes(KubernetesClient client, String group) {
        return client.nodes().withLabel(NodeGroup.GROUP_LABEL, group).list().getItems();
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> condition(KubernetesClient client, String request, String type) {
        GenericKubernetesResource found = requests(client).withName(request).get();
        Object status = found.getAdditionalProperties().get("status");
        if (!(status instanceof Map<?, ?> map) || !(map.get("conditions") instanceof List<?> conditions)) {
            return null;
        }
        return conditions.stream().map(c -> (Map<String, Object>) c).filter(c -> type.equals(c.get("type")))
                .findFirst().orElse(null);
    }

    private static boolean isTrue(Map<String, Object> condition) {
        return condition != null && "True".equals(condition.get("status"));
    }

    /** A PodTemplate of one container requesting 1 CPU, 1Gi and {@code gpus} GPUs. */
    private static PodTemplate gpuTemplate(String name, int gpus) {
        var resources = new io.fabric8.kubernetes.api.model.ResourceRequirementsBuilder()
                .addToRequests("cpu", new Quantity("1")).addToRequests("memory", new Quantity("1Gi"));
        if (gpus > 0) {
            resources.addToRequests("nvidia.com/gpu", new Quantity(String.valueOf(gpus)))
                    .addToLimits("nvidia.com/gpu", new Quantity(String.valueOf(gpus)));
        }
        return new PodTemplateBuilder().withNewMetadata().withName(name).endMetadata().withNewTemplate().withNewSpec()
                .addNewContainer().withName("main").withImage("busybox").withResources(resources.build()).endContainer()
                .endSpec().endTemplate().build();
    }

    static MixedOperation<GenericKubernetesResource, GenericKubernetesResourceList, Resource<GenericKubernetesResource>> requests(
            KubernetesClient client) {
        return client.genericKubernetesResources("autoscaling.x-k8s.io/v1", "ProvisioningRequest");
    }

    /** A request for {@code counts} pods of each named PodTemplate. */
    static GenericKubernetesResource request(String name, String className, Map<String, Integer> counts) {
        List<Map<String, Object>> podSets = counts.entrySet().stream()
                .map(e -> Map.<String, Object>of("podTemplateRef", Map.of("name", e.getKey()), "count", e.getValue()))
                .toList();
        return new GenericKubernetesResourceBuilder().withApiVersion("autoscaling.x-k8s.io/v1")
                .withKind("ProvisioningRequest").withNewMetadata().withName(name).withNamespace("default").endMetadata()
                .addToAdditionalProperties("spec", new java.util.LinkedHashMap<>(Map.of("provisioningClassName", className,
                        "podSets", podSets)))
                .build();
    }
}
