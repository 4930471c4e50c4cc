package dev.muster.manager.e2e;

import dev.muster.api.MusterLabels;
import dev.muster.api.batch.v1alpha1.Job;
import dev.muster.api.batch.v1alpha1.JobPhase;
import dev.muster.api.scheduling.v1alpha1.PodGroup;
import dev.muster.local.LocalCluster;
import dev.muster.local.LocalClusterConfig;
import dev.muster.local.autoscaler.NodeGroup;
import dev.muster.local.manifest.ManifestLoader;
import dev.muster.scheduler.autoscaling.ProvisioningRequestApi;
import dev.muster.support.autoscaling.PodsForAutoscaler;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.client.utils.Serialization;
import io.micrometer.core.instrument.MeterRegistry;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.springframework.context.ConfigurableApplicationContext;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The manager on a local cluster with the simulated cluster autoscaler (two nodes of 8 GPUs and a group that can
 * add four more), which Muster does not know is simulated: it sees the ProvisioningRequest API and nodes that
 * come and go. Production defaults, but for the retry backoff where the point is the retry.
 */
@Tag("emulator")
class ClusterAutoscalerEndToEndTest {
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
    void aGangOfFourEightGpuPodsGetsOneRequestTwoNodesAtOnceRunsAndTheRequestGoes() throws Exception {
        start("gpu=0..4:cpu=32,memory=256Gi,nvidia.com/gpu=8,delay=2s", Map.of());
        Set<String> requestsSeen = ConcurrentHashMap.newKeySet();
        // examples/autoscaling.yaml: 4 pods of 8 GPUs, all needed at once.
        ManifestLoader.load(List.of(Path.of("../examples/autoscaling.yaml")))
                .forEach(manifest -> cluster.client().resource(manifest.object()).inNamespace("default").create());

        await().atMost(PATIENCE).untilAsserted(() -> {
            requests().forEach(r -> requestsSeen.add(r.getMetadata().getName()));
            assertThat(phase("train")).isEqualTo(JobPhase.Running);
        });
        List<Node> added = groupNodes();
        assertThat(added).extracting(n -> n.getMetadata().getName()).containsExactlyInAnyOrder("gpu-0", "gpu-1");
        // All at once: the autoscaler adds a request's nodes together, and the gang's 4 pods start on the 2 old
        // and 2 new nodes, having waited for both.
        assertThat(pods("train")).extracting(p -> p.getSpec().getNodeName()).containsExactlyInAnyOrder(
                "gpu-0", "gpu-1", nodeName(0), nodeName(1));
        assertThat(pods("train")).allSatisfy(pod -> assertThat(pod.getMetadata().getAnnotations())
                .containsEntry("autoscaling.x-k8s.io/consume-provisioning-request", "train-1"));

        await().atMost(PATIENCE).until(() -> phase("train") == JobPhase.Completed);
        await().atMost(PATIENCE).untilAsserted(() -> assertThat(requests()).isEmpty());
        assertThat(requestsSeen).containsExactly("train-1");
        MeterRegistry meters = manager.getBean(MeterRegistry.class);
        assertThat(meters.counter("muster.autoscaling.requests", "outcome", "created").count()).isEqualTo(1);
        assertThat(meters.counter("muster.autoscaling.requests", "outcome", "provisioned").count()).isEqualTo(1);
        assertThat(meters.counter("muster.autoscaling.requests", "outcome", "deleted").count()).isEqualTo(1);
    }

    @Test
    void anAutoscalerThatFailsTheRequestLeavesItsMessageOnTheJobAndANewRequestComesAfterTheBackoff() {
        start("gpu=0..4:cpu=32,memory=256Gi,nvidia.com/gpu=8,fail=true",
                Map.of("muster.scheduler.provisioning-retry-backoff", "3s"));
        create(job("train", 4));

        await().atMost(PATIENCE).untilAsserted(() -> assertThat(message("train")).contains(
                "Waiting for ProvisioningRequest default/train-1 (Failed: ", "refused to add 2 nodes: quota exceeded",
                "a new request at "));
        await().atMost(PATIENCE).untilAsserted(() -> assertThat(requests())
                .extracting(r -> r.getMetadata().getName()).containsExactly("train-2"));
        assertThat(phase("train")).isEqualTo(JobPhase.Pending);
        assertThat(pods("train")).isEmpty();
        assertThat(groupNodes()).isEmpty();
    }

    @Test
    void inPendingPodsModeTheGangsPodsWaitUnschedulableTheAutoscalerAddsNodesAndTheGangIsBoundAllAtOnce() {
        start("gpu=0..4:cpu=32,memory=256Gi,nvidia.com/gpu=8,delay=3s",
                Map.of("muster.scheduler.autoscaling", "pending-pods"));
        create(job("train", 4));

        // Before the nodes come, all four pods exist unbound, as kube-scheduler leaves pods that fit nowhere; two
        // of them would fit the two old nodes, and none is bound alone.
        await().atMost(PATIENCE).untilAsserted(() -> assertThat(pods("train")).hasSize(4).allSatisfy(pod -> {
            assertThat(pod.getSpec().getNodeName()).isNull();
            assertThat(pod.getStatus().getConditions()).anySatisfy(condition -> {
                assertThat(condition.getType()).isEqualTo("PodScheduled");
                assertThat(condition.getStatus()).isEqualTo("False");
                assertThat(condition.getReason()).isEqualTo("Unschedulable");
            });
        }));
        assertThat(groupNodes()).isEmpty();

        await().atMost(PATIENCE).until(() -> phase("train") == JobPhase.Running);
        assertThat(pods("train")).extracting(p -> p.getSpec().getNodeName()).containsExactlyInAnyOrder(
                "gpu-0", "gpu-1", nodeName(0), nodeName(1));
        assertThat(requests()).isEmpty();
        await().atMost(PATIENCE).untilAsserted(() -> assertThat(cluster.client().resources(PodGroup.class)
                .inNamespace("default").withName("train").get().getMetadata().getAnnotations())
                .as("placed, the gang is no longer marked for pending pods")
                .doesNotContainKey(PodsForAutoscaler.ANNOTATION));
        await().atMost(PATIENCE).until(() -> phase("train") == JobPhase.Completed);
    }

    private void start(String nodeGroup, Map<String, Object> properties) {
        cluster = LocalCluster.start(LocalClusterConfig.defaults().withNodes(2).withNodeGpus(8).withNodeCpu("32")
                .withNodeMemory("256Gi").withNodeGroups(NodeGroup.parse(nodeGroup)));
        manager = ManagerOnLocalCluster.startManager(cluster, properties, exits::add);
    }

    /** A job of {@code pods} workers of 8 GPUs each, all needed at once, running 2 seconds. */
    private static GenericKubernetesResource job(String name, int pods) {
        return Serialization.unmarshal("""
                apiVersion: batch.muster.dev/v1alpha1
                kind: Job
                metadata: {name: %s, namespace: default}
                spec:
                  minAvailable: %d
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
                                requests: {cpu: "4", memory: 16Gi, nvidia.com/gpu: "8"}
                                limits: {nvidia.com/gpu: "8"}
                """.formatted(name, pods, pods), GenericKubernetesResource.class);
    }

    private void create(GenericKubernetesResource object) {
        cluster.client().resource(object).create();
    }

    private String nodeName(int index) {
        return cluster.client().nodes().list().getItems().stream()
                .filter(n -> !n.getMetadata().getLabels().containsKey("local.muster.dev/node-group"))
                .map(n -> n.getMetadata().getName()).sorted().toList().get(index);
    }

    private List<Node> groupNodes() {
        return cluster.client().nodes().withLabel("local.muster.dev/node-group", "gpu").list().getItems();
    }

    private List<Pod> pods(String job) {
        return cluster.client().pods().inNamespace("default").withLabel(MusterLabels.JOB_NAME, job).list().getItems();
    }

    private List<GenericKubernetesResource> requests() {
        return cluster.client().genericKubernetesResources(ProvisioningRequestApi.CONTEXT).inNamespace("default")
                .list().getItems();
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
