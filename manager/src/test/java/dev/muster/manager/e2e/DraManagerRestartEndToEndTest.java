package dev.muster.manager.e2e;

import dev.muster.api.MusterLabels;
import dev.muster.api.batch.v1alpha1.Job;
import dev.muster.api.batch.v1alpha1.JobPhase;
import dev.muster.local.dra.GpuApi;
import dev.muster.local.LocalClusterConfig;
import dev.muster.manager.Patience;
import dev.muster.support.Stillness;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.client.utils.Serialization;
import org.junit.jupiter.api.AutoClose;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * A manager restart keeps every device allocation: the new manager's scheduler reads them back from the claims'
 * status, so it neither hands the devices of a running pod to another gang nor forgets them once they are freed.
 * Two nodes of 8 GPUs offered only as DRA devices.
 */
@Tag("emulator")
class DraManagerRestartEndToEndTest {
    @AutoClose
    private final ManagerOnLocalCluster env = new ManagerOnLocalCluster(LocalClusterConfig.defaults().withNodes(2)
            .withNodeGpus(8).withGpuApi(GpuApi.DRA).withGpuCliqueSize(2));

    @Test
    void aRestartedManagerKeepsTheRunningGangsDevicesAndHandsThemOnOnlyOnceFreed() {
        create(claimTemplate());
        create(job("first", 1, 600));
        await().atMost(Patience.PATIENCE).until(() -> env.phase("first") == JobPhase.Running);
        Object before = allocationOf(pods("first").get(0));

        env.restartManager();
        create(job("second", 2, 1));

        // 16 devices in all, 8 of them the running pod's: a scheduler that forgot them would admit the gang of two.
        await().atMost(Patience.PATIENCE).until(() -> messageOf("second").contains("Insufficient "
                + "deviceclass.resource.kubernetes.io/gpu.example.com"));
        Stillness.holds(Patience.PATIENCE, "two scheduling cycles", env.twoCyclesFromNow(), Duration.ofSeconds(3), () -> {
            assertThat(pods("second")).isEmpty();
            assertThat(allocationOf(pods("first").get(0))).isEqualTo(before);
        });

        env.client().resources(Job.class).inNamespace("default").withName("first").delete();

        await().atMost(Patience.PATIENCE).until(() -> env.phase("second") == JobPhase.Completed);
        assertThat(env.exits).isEmpty();
    }

    private void create(GenericKubernetesResource object) {
        env.client().resource(object).create();
    }

    private String messageOf(String name) {
        Job job = env.job(name);
        return job == null || job.getStatus() == null || job.getStatus().getState() == null
                || job.getStatus().getState().getMessage() == null ? "" : job.getStatus().getState().getMessage();
    }

    private List<Pod> pods(String job) {
        return env.client().pods().inNamespace("default").withLabel(MusterLabels.JOB_NAME, job).list().getItems();
    }

    /** The devices allocated to the pod's one claim, as its status says. */
    private Object allocationOf(Pod pod) {
        String claim = pod.getStatus().getResourceClaimStatuses().get(0).getResourceClaimName();
        GenericKubernetesResource stored = env.client().genericKubernetesResources("resource.k8s.io/v1",
                "ResourceClaim").inNamespace("default").withName(claim).get();
        Object allocation = stored.getAdditionalProperties().get("status") instanceof Map<?, ?> status
                ? status.get("allocation") : null;
        assertThat(allocation).as("claim %s is allocated", claim).isNotNull();
        return allocation;
    }

    private static GenericKubernetesResource claimTemplate() {
        return Serialization.unmarshal("""
                apiVersion: resource.k8s.io/v1
                kind: ResourceClaimTemplate
                metadata: {name: eight-gpus, namespace: default}
                spec:
                  spec:
                    devices:
                      requests: [{name: gpus, exactly: {deviceClassName: gpu.example.com, count: 8}}]
                """, GenericKubernetesResource.class);
    }

    /** A job of {@code pods} pods, all needed at once, each claiming 8 GPUs and running {@code seconds}. */
    private static GenericKubernetesResource job(String name, int pods, int seconds) {
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
                          annotations: {local.muster.dev/run-seconds: "%d"}
                        spec:
                          restartPolicy: Never
                          resourceClaims: [{name: gpus, resourceClaimTemplateName: eight-gpus}]
                          containers: [{name: main, image: busybox, resources: {requests: {cpu: "1"}, claims: [{name: gpus}]}}]
                """.formatted(name, pods, pods, seconds), GenericKubernetesResource.class);
    }
}
