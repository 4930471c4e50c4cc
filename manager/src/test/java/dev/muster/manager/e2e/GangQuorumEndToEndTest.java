package dev.muster.manager.e2e;

import dev.muster.api.MusterLabels;
import dev.muster.api.batch.v1alpha1.Job;
import dev.muster.api.batch.v1alpha1.JobPhase;
import dev.muster.api.scheduling.v1alpha1.PodGroup;
import dev.muster.api.scheduling.v1alpha1.PodGroupCondition;
import dev.muster.support.Stillness;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.client.utils.Serialization;
import org.junit.jupiter.api.AutoClose;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.List;

import static dev.muster.manager.Patience.PATIENCE;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * On three nodes that each fit one of the job's pods, a job that needs four at once gets none, and says
 * why on its PodGroup; the same job needing three gets exactly three, and they run.
 */
@Tag("emulator")
class GangQuorumEndToEndTest {
    @AutoClose
    private final ManagerOnLocalCluster env = new ManagerOnLocalCluster(ManagerOnLocalCluster.threeOnePodNodes());

    private Job job(String name, int minAvailable) {
        return Serialization.unmarshal("""
                apiVersion: batch.muster.dev/v1alpha1
                kind: Job
                metadata: {name: %s, namespace: default}
                spec:
                  minAvailable: %d
                  tasks:
                  - name: worker
                    replicas: 4
                    minAvailable: %d
                    template:
                      metadata:
                        annotations: {local.muster.dev/run-seconds: "600"}
                      spec:
                        restartPolicy: Never
                        containers:
                        - name: w
                          image: busybox
                          resources: {requests: {cpu: "3", memory: 1Gi}}
                """.formatted(name, minAvailable, minAvailable), Job.class);
    }

    private List<Pod> pods(String job) {
        return env.client().pods().inNamespace("default").withLabel(MusterLabels.JOB_NAME, job).list().getItems();
    }

    private static boolean bound(Pod p) {
        return p.getSpec().getNodeName() != null;
    }

    @Test
    void quorumOfFourDoesNotFitSoTheJobIsNotAdmittedAndCreatesNoPods() {
        env.client().resource(job("big", 4)).create();

        await().atMost(PATIENCE).untilAsserted(() -> {
            PodGroup group = env.client().resources(PodGroup.class).inNamespace("default").withName("big").get();
            assertThat(group).isNotNull();
            assertThat(group.getStatus()).isNotNull();
            assertThat(group.getStatus().getConditions()).anySatisfy(c -> {
                assertThat(c.getType()).isEqualTo(PodGroupCondition.UNSCHEDULABLE);
                assertThat(c.getStatus()).isEqualTo("True");
                assertThat(c.getReason()).isEqualTo(PodGroupCondition.REASON_NOT_ENOUGH_RESOURCES);
                assertThat(c.getMessage()).contains("Insufficient cpu");
            });
        });
        // The gang is not admitted, so the job creates no pods at all, and its status says why.
        Stillness.holds(PATIENCE, "two scheduling cycles", env.twoCyclesFromNow(), Duration.ofSeconds(3),
                () -> assertThat(pods("big")).isEmpty());
        Job job = env.client().resources(Job.class).inNamespace("default").withName("big").get();
        assertThat(job.getStatus().getState().getPhase()).isEqualTo(JobPhase.Pending);
        assertThat(job.getStatus().getState().getMessage())
                .startsWith("waiting for scheduler muster to admit PodGroup big: ")
                .contains("Insufficient cpu");
    }

    @Test
    void quorumOfThreeGetsExactlyThreeBoundAndRunning() {
        env.client().resource(job("fits", 3)).create();

        await().atMost(PATIENCE).untilAsserted(() -> assertThat(pods("fits"))
                .filteredOn(p -> "Running".equals(p.getStatus().getPhase())).hasSize(3));
        Stillness.holds(PATIENCE, "two scheduling cycles", env.twoCyclesFromNow(), Duration.ofSeconds(3),
                () -> assertThat(pods("fits")).filteredOn(GangQuorumEndToEndTest::bound).hasSize(3));
        assertThat(pods("fits")).filteredOn(GangQuorumEndToEndTest::bound)
                .extracting(p -> p.getSpec().getNodeName()).doesNotHaveDuplicates();
    }
}
