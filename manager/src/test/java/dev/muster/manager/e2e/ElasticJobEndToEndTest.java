package dev.muster.manager.e2e;

import dev.muster.api.MusterLabels;
import dev.muster.api.batch.v1alpha1.Job;
import dev.muster.api.batch.v1alpha1.JobPhase;
import dev.muster.api.scheduling.v1alpha1.PodGroup;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.client.utils.Serialization;
import org.junit.jupiter.api.AutoClose;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;

import static dev.muster.manager.Patience.PATIENCE;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * An elastic job, as Volcano has them: {@code minAvailable: 3} with one task of 6 replicas (its minimum
 * defaulting to 6) is a gang of any 3 pods. On three nodes that each fit one pod it starts with 3 running
 * and 3 pending, the others run as room frees, and it completes once every pod has finished, as Volcano's
 * job controller completes it.
 */
@Tag("emulator")
class ElasticJobEndToEndTest {
    @AutoClose
    private final ManagerOnLocalCluster env = new ManagerOnLocalCluster(ManagerOnLocalCluster.threeOnePodNodes());

    private static Job elasticJob() {
        return Serialization.unmarshal("""
                apiVersion: batch.muster.dev/v1alpha1
                kind: Job
                metadata: {name: elastic, namespace: default}
                spec:
                  minAvailable: 3
                  tasks:
                  - name: worker
                    replicas: 6
                    template:
                      metadata:
                        annotations: {local.muster.dev/run-seconds: "5"}
                      spec:
                        restartPolicy: Never
                        containers:
                        - name: w
                          image: busybox
                          resources: {requests: {cpu: "3", memory: 1Gi}}
                """, Job.class);
    }

    private List<Pod> pods() {
        return env.client().pods().inNamespace("default").withLabel(MusterLabels.JOB_NAME, "elastic").list().getItems();
    }

    private static String phase(Pod pod) {
        return pod.getStatus() == null ? null : pod.getStatus().getPhase();
    }

    @Test
    void aThreeOfSixJobStartsWithThreeGrowsAsRoomFreesAndCompletes() {
        env.client().resource(elasticJob()).create();

        await().atMost(PATIENCE).untilAsserted(() -> {
            List<Pod> pods = pods();
            assertThat(pods).hasSize(6);
            assertThat(pods).filteredOn(p -> "Running".equals(phase(p))).hasSize(3);
            assertThat(pods).filteredOn(p -> "Pending".equals(phase(p)) && p.getSpec().getNodeName() == null)
                    .hasSize(3);
        });
        PodGroup group = env.client().resources(PodGroup.class).inNamespace("default").withName("elastic").get();
        assertThat(group.getSpec().getMinMember()).isEqualTo(3);
        assertThat(group.getSpec().getMinTaskMember()).isEqualTo(Map.of("worker", 0));

        Job done = await().atMost(PATIENCE).until(
                () -> env.client().resources(Job.class).inNamespace("default").withName("elastic").get(),
                job -> job.getStatus() != null && job.getStatus().getState() != null
                        && job.getStatus().getState().getPhase() == JobPhase.Completed);
        assertThat(done.getStatus().getState().getMessage()).isEqualTo(
                "6/6 pods succeeded, minAvailable 3 (elastic: the tasks' minimums are not enforced)");
        assertThat(pods()).extracting(ElasticJobEndToEndTest::phase).containsOnly("Succeeded");
    }
}
