package dev.muster.manager.e2e;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.muster.api.MusterLabels;
import dev.muster.api.batch.v1alpha1.Job;
import dev.muster.api.batch.v1alpha1.JobPhase;
import dev.muster.api.scheduling.v1alpha1.PodGroup;
import dev.muster.api.scheduling.v1alpha1.PodGroupPhase;
import dev.muster.local.dra.GpuApi;
import dev.muster.local.LocalClusterConfig;
import dev.muster.local.manifest.ManifestLoader;
import dev.muster.support.Stillness;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.client.utils.Serialization;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.AutoClose;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * DRA with every component of the manager, on four nodes of 8 GPUs offered only as DRA devices (two nodes
 * per NVLink clique): a Job's claims, made from templates once its pods exist, are counted when its gang
 * is admitted and allocated with the gang.
 */
@Tag("emulator")
class DraEndToEndTest {
    private static final Duration PATIENCE = Duration.ofSeconds(60);

    @AutoClose
    private final ManagerOnLocalCluster env = new ManagerOnLocalCluster(LocalClusterConfig.defaults().withNodes(4)
            .withNodeGpus(8).withGpuApi(GpuApi.DRA).withGpuCliqueSize(2));

    /**
     * Waits for the manager's first scheduling cycle: the emulator's first DRA write is slow on a cold JVM,
     * and made while the manager starts its components it can delay the lease's renewal past its deadline.
     */
    @BeforeEach
    void awaitTheScheduler() {
        await().atMost(PATIENCE).ignoreExceptions()
                .until(() -> env.actuator().json("queue").path("queues").size() > 0);
    }

    @Test
    void theExampleGangTakesEightGpusOfOneCliqueOnEachOfFourNodesAndCompletes() throws Exception {
        ManifestLoader.load(List.of(Path.of("../examples/dra-gang.yaml")))
                .forEach(m -> env.client().resource(m.object()).create());

        await().atMost(PATIENCE).until(() -> env.phase("dra-train") == JobPhase.Completed);
        assertThat(pods("dra-train")).hasSize(4)
                .extracting(pod -> pod.getSpec().getNodeName()).doesNotHaveDuplicates().doesNotContainNull();
    }

    @Test
    void aJobThatFitsByCpuButNotByDevicesIsNotAdmittedAndNamesTheClaim() {
        env.client().resource(Serialization.unmarshal("""
                apiVersion: resource.k8s.io/v1
                kind: ResourceClaimTemplate
                metadata: {name: nine-gpus, namespace: default}
                spec:
                  spec:
                    devices:
                      requests: [{name: gpus, exactly: {deviceClassName: gpu.example.com, count: 9}}]
                """, GenericKubernetesResource.class)).create();
        env.client().resource(Serialization.unmarshal("""
                apiVersion: batch.muster.dev/v1alpha1
                kind: Job
                metadata: {name: big, namespace: default}
                spec:
                  minAvailable: 2
                  tasks:
                    - name: worker
                      replicas: 2
                      template:
                        spec:
                          restartPolicy: Never
                          resourceClaims: [{name: gpus, resourceClaimTemplateName: nine-gpus}]
                          containers: [{name: main, image: busybox, resources: {requests: {cpu: "1"}, claims: [{name: gpus}]}}]
                """, Job.class)).create();

        String waiting = "waiting for scheduler muster to admit PodGroup big: 0/4 nodes are available: 4 Insufficient "
                + "deviceclass.resource.kubernetes.io/gpu.example.com (claim gpus of pod default/big-worker-0 "
                + "(template nine-gpus): 9 device(s) of class gpu.example.com). The gang needs 2 pod(s) "
                + "placed at once for minMember 2.";
        await().atMost(PATIENCE).until(() -> env.job("big").getStatus() != null
                && waiting.equals(env.job("big").getStatus().getState().getMessage()));
        Stillness.holds(PATIENCE, "two scheduling cycles", env.twoCyclesFromNow(), Duration.ofSeconds(2), () -> {
            assertThat(pods("big")).isEmpty();
            assertThat(env.client().resources(PodGroup.class).inNamespace("default").withName("big").get()
                    .getStatus().getPhase()).isEqualTo(PodGroupPhase.Pending);
            assertThat(env.job("big").getStatus().getState().getMessage()).isEqualTo(waiting);
        });
    }

    private List<Pod> pods(String job) {
        return env.client().pods().inNamespace("default").withLabel(MusterLabels.JOB_NAME, job).list().getItems();
    }
}
