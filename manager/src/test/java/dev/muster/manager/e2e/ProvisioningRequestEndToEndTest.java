package dev.muster.manager.e2e;

import dev.muster.api.MusterLabels;
import dev.muster.api.batch.v1alpha1.Job;
import dev.muster.api.batch.v1alpha1.JobPhase;
import dev.muster.local.LocalCluster;
import dev.muster.local.LocalClusterConfig;
import dev.muster.scheduler.autoscaling.ProvisioningRequestApi;
import dev.muster.support.Stillness;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.NodeBuilder;
import io.fabric8.kubernetes.api.model.PodTemplate;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceDefinitionBuilder;
import io.fabric8.kubernetes.api.model.apiextensions.v1.JSONSchemaPropsBuilder;
import io.fabric8.kubernetes.client.utils.Serialization;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.springframework.context.ConfigurableApplicationContext;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The scheduler's side of the cluster autoscaler with every component of the manager, on a local cluster that
 * serves the ProvisioningRequest API, the test playing Cluster Autoscaler: it adds the nodes and sets the
 * conditions through the status subresource, as Cluster Autoscaler does.
 */
@Tag("emulator")
class ProvisioningRequestEndToEndTest {
    private static final Duration PATIENCE = Duration.ofSeconds(60);

    private LocalCluster cluster;
    private ConfigurableApplicationContext manager;
    private final List<Integer> exits = new CopyOnWriteArrayList<>();

    @AfterEach
    void stop() {
        if (manager != null) {
            manager.close();
        }
        if (cluster != null) {
            cluster.close();
        }
    }

    @Test
    void aGangThatDoesNotFitGetsOneRequestForItsQuorumRunsOnTheNewNodesAndTheRequestGoes() {
        start(Map.of());
        create(job("train", 4, 8, null));

        GenericKubernetesResource request = awaitRequest("train-1");
        Map<?, ?> spec = (Map<?, ?>) request.getAdditionalProperties().get("spec");
        assertThat(spec.get("provisioningClassName")).isEqualTo(ProvisioningRequestApi.BEST_EFFORT_ATOMIC);
        assertThat(spec.get("podSets")).isEqualTo(
                List.of(Map.of("podTemplateRef", Map.of("name", "train-1-worker"), "count", 4)));
        PodTemplate template = cluster.client().resources(PodTemplate.class).inNamespace("default")
                .withName("train-1-worker").get();
        assertThat(template.getTemplate().getSpec().getContainers().get(0).getResources().getRequests())
                .containsEntry("nvidia.com/gpu", new Quantity("8"));
        assertThat(request.getMetadata().getOwnerReferences()).singleElement()
                .satisfies(owner -> assertThat(owner.getKind()).isEqualTo("PodGroup"));
        await().atMost(PATIENCE).untilAsserted(() -> assertThat(message("train"))
                .contains("Waiting for ProvisioningRequest default/train-1 (Requested"));

        setConditions("train-1", condition("Accepted", "True", "Accepted", "accepted"),
                condition("Provisioned", "False", "CapacityIsNotFound", "adding 2 nodes"));
        await().atMost(PATIENCE).untilAsserted(() -> assertThat(message("train"))
                .contains("Waiting for ProvisioningRequest default/train-1 (Accepted: CapacityIsNotFound: adding 2 nodes)."));

        addGpuNode("gpu-a");
        addGpuNode("gpu-b");
        setConditions("train-1", condition("Accepted", "True", "Accepted", "accepted"),
                condition("Provisioned", "True", "Provisioned", "capacity is available"));

        await().atMost(PATIENCE).untilAsserted(() -> assertThat(cluster.client().pods().inNamespace("default")
                .withLabel(MusterLabels.JOB_NAME, "train").list().getItems()).hasSize(4)
                .allSatisfy(pod -> assertThat(pod.getMetadata().getAnnotations())
                        .containsEntry("autoscaling.x-k8s.io/consume-provisioning-request", "train-1")
                        .containsEntry("autoscaling.x-k8s.io/provisioning-class-name",
                                ProvisioningRequestApi.BEST_EFFORT_ATOMIC)));
        await().atMost(PATIENCE).until(() -> phase("train") == JobPhase.Completed);
        await().atMost(PATIENCE).untilAsserted(() -> {
            assertThat(requests()).isEmpty();
            assertThat(cluster.client().resources(PodTemplate.class).inNamespace("default").list().getItems())
                    .isEmpty();
        });
    }

    @Test
    void aFailedRequestLeavesTheAutoscalersMessageOnTheJobAndANewOneIsMadeAfterTheBackoff() {
        start(Map.of("muster.scheduler.provisioning-retry-backoff", "3s"));
        create(job("train", 4, 8, null));
        awaitRequest("train-1");

        setConditions("train-1", condition("Failed", "True", "NoNodeGroupFits", "no node group has room for 4 pods"));

        await().atMost(PATIENCE).untilAsserted(() -> assertThat(message("train")).contains(
                "Waiting for ProvisioningRequest default/train-1 (Failed: NoNodeGroupFits: no node group has room "
                        + "for 4 pods); a new request at "));
        await().atMost(PATIENCE).untilAsserted(() -> assertThat(names(requests())).containsExactly("train-2"));
        assertThat(phase("train")).isEqualTo(JobPhase.Pending);
    }

    @Test
    void aGangOverItsQueuesLimitCausesNoRequest() {
        start(Map.of());
        create(Serialization.unmarshal("""
                apiVersion: scheduling.muster.dev/v1alpha1
                kind: Queue
                metadata: {name: small}
                spec:
                  limit: {nvidia.com/gpu: "16"}
                """, GenericKubernetesResource.class));
        create(job("big", 4, 8, "small"));

        await().atMost(PATIENCE).untilAsserted(() -> assertThat(message("big")).contains("limit"));
        Stillness.holds(PATIENCE, "two scheduling cycles", ManagerOnLocalCluster.twoCyclesFrom(manager), Duration.ofSeconds(3),
                () -> assertThat(requests()).isEmpty());
    }

    @Test
    void aDeletedJobsRequestIsDeleted() {
        start(Map.of());
        create(job("train", 4, 8, null));
        awaitRequest("train-1");

        cluster.client().resources(Job.class).inNamespace("default").withName("train").delete();

        await().atMost(PATIENCE).untilAsserted(() -> assertThat(requests()).isEmpty());
    }

    /** Two nodes of 8 GPUs on a cluster serving ProvisioningRequests, and the manager with its defaults. */
    private void start(Map<String, Object> properties) {
        cluster = LocalCluster.start(LocalClusterConfig.defaults().withNodes(2).withNodeGpus(8).withNodeCpu("32")
                .withNodeMemory("256Gi"));
        cluster.client().apiextensions().v1().customResourceDefinitions().resource(provisioningRequestCrd()).create();
        manager = ManagerOnLocalCluster.startManager(cluster, properties, exits::add);
    }

    /**
     * Cluster Autoscaler's CRD, reduced to what the emulator needs to serve it: its names, its version and the
     * status subresource the autoscaler writes conditions through.
     */
    private static io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceDefinition provisioningRequestCrd() {
        return new CustomResourceDefinitionBuilder().withNewMetadata()
                .withName(ProvisioningRequestApi.PLURAL + "." + ProvisioningRequestApi.GROUP).endMetadata()
                .withNewSpec().withGroup(ProvisioningRequestApi.GROUP).withScope("Namespaced")
                .withNewNames().withKind(ProvisioningRequestApi.KIND).withPlural(ProvisioningRequestApi.PLURAL)
                .withSingular("provisioningrequest").withListKind("ProvisioningRequestList").addToShortNames("provreq")
                .endNames()
                .addNewVersion().withName(ProvisioningRequestApi.VERSION).withServed(true).withStorage(true)
                .withNewSubresources().withNewStatus().endStatus().endSubresources()
                .withNewSchema().withNewOpenAPIV3Schema().withType("object")
                .addToProperties("spec", new JSONSchemaPropsBuilder().withType("object")
                        .withXKubernetesPreserveUnknownFields(true).build())
                .addToProperties("status", new JSONSchemaPropsBuilder().withType("object")
                        .withXKubernetesPreserveUnknownFields(true).build())
                .endOpenAPIV3Schema().endSchema().endVersion().endSpec().build();
    }

    /** A job of {@code pods} workers of {@code gpus} GPUs each, all needed at once, running 2 seconds. */
    private static GenericKubernetesResource job(String name, int pods, int gpus, String queue) {
        return Serialization.unmarshal("""
                apiVersion: batch.muster.dev/v1alpha1
                kind: Job
                metadata: {name: %s, namespace: default}
                spec:
                  minAvailable: %d
                  %s
                  tasks:
                    - name: worker
                      replicas: %d
                      template:
                        metadata:
                          annotations: {local.muster.dev/run-seconds: "2"}
                        spec:
                          restartPolicy: Never
                          containers:
                            - name: trainer
                              image: trainer
                              resources:
                                requests: {cpu: "4", memory: 16Gi, nvidia.com/gpu: "%d"}
                                limits: {nvidia.com/gpu: "%d"}
                """.formatted(name, pods, queue == null ? "" : "queue: " + queue, pods, gpus, gpus),
                GenericKubernetesResource.class);
    }

    private void create(GenericKubernetesResource object) {
        cluster.client().resource(object).create();
    }

    private void addGpuNode(String name) {
        cluster.addSimulatedNode(new NodeBuilder().withNewMetadata().withName(name).endMetadata().build());
    }

    private GenericKubernetesResource awaitRequest(String name) {
        await().atMost(PATIENCE).untilAsserted(() -> assertThat(names(requests())).containsExactly(name));
        return requests().get(0);
    }

    private List<GenericKubernetesResource> requests() {
        return cluster.client().genericKubernetesResources(ProvisioningRequestApi.CONTEXT).inNamespace("default")
                .list().getItems();
    }

    private static List<String> names(List<GenericKubernetesResource> objects) {
        return objects.stream().map(o -> o.getMetadata().getName()).toList();
    }

    /** Sets the request's conditions through the status subresource, as Cluster Autoscaler does. */
    @SafeVarargs
    private void setConditions(String name, Map<String, Object>... conditions) {
        var resource = cluster.client().genericKubernetesResources(ProvisioningRequestApi.CONTEXT)
                .inNamespace("default").withName(name);
        GenericKubernetesResource request = resource.get();
        request.getAdditionalProperties().put("status", Map.of("conditions", new ArrayList<>(List.of(conditions))));
        resource.updateStatus(request);
    }

    private static Map<String, Object> condition(String type, String status, String reason, String message) {
        return Map.of("type", type, "status", status, "reason", reason, "message", message,
                "lastTransitionTime", Instant.now().toString());
    }

    private Job job(String name) {
        return cluster.client().resources(Job.class).inNamespace("default").withName(name).get();
    }

    private JobPhase phase(String name) {
        Job job = job(name);
        return job == null || job.getStatus() == null || job.getStatus().getState() == null ? null
                : job.getStatus().getState().getPhase();
    }

    private String message(String name) {
        Job job = job(name);
        return job == null || job.getStatus() == null || job.getStatus().getState() == null ? null
                : job.getStatus().getState().getMessage();
    }
}
