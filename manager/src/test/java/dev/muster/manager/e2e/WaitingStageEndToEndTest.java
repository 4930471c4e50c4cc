package dev.muster.manager.e2e;

import dev.muster.api.MusterLabels;
import dev.muster.api.batch.v1alpha1.Job;
import dev.muster.api.batch.v1alpha1.JobPhase;
import dev.muster.api.scheduling.v1alpha1.PodGroup;
import dev.muster.api.scheduling.v1alpha1.PodGroupCondition;
import dev.muster.api.scheduling.v1alpha1.PodGroupPhase;
import dev.muster.support.Stillness;
import io.fabric8.kubernetes.client.utils.Serialization;
import org.junit.jupiter.api.AutoClose;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

import java.time.Duration;

import static dev.muster.manager.Patience.PATIENCE;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * A running stage whose next stage ({@code dependsOn}) cannot fit yet: the job's {@code Unknown} policy stays
 * quiet, the group never turns Unknown, and it says what waits. Before, the PodGroup turned Unknown, and a
 * RestartJob policy on Unknown restarted a healthy job over and over.
 * <p>
 * The Job controller opens the next stage once the first stage's pod runs, which may come before or after the
 * PodGroup controller has written the group Running: if after, the group stays Running and says the added pods
 * wait for room; if before, it never was Running with the first stage alone and waits, as any gang short of its
 * quorum, for the room of all four. Both are right, and in neither may anything restart.
 */
@Tag("emulator")
class WaitingStageEndToEndTest {
    @AutoClose
    private final ManagerOnLocalCluster env = new ManagerOnLocalCluster(ManagerOnLocalCluster.threeOnePodNodes());

    @Test
    void aLaterStageThatDoesNotFitLeavesTheRunningStageRunningAndSaysWhatWaits() {
        env.client().resource(Serialization.unmarshal("""
                apiVersion: batch.muster.dev/v1alpha1
                kind: Job
                metadata: {name: staged, namespace: default}
                spec:
                  policies:
                  - {event: Unknown, action: RestartJob}
                  tasks:
                  - name: master
                    replicas: 1
                    template:
                      metadata:
                        annotations: {local.muster.dev/run-seconds: "600"}
                      spec:
                        containers: [{name: m, image: busybox, resources: {requests: {cpu: "3"}}}]
                  - name: worker
                    replicas: 3
                    dependsOn: {name: [master]}
                    template:
                      metadata:
                        annotations: {local.muster.dev/run-seconds: "600"}
                      spec:
                        containers: [{name: w, image: busybox, resources: {requests: {cpu: "3"}}}]
                """, Job.class)).create();

        await().atMost(PATIENCE).untilAsserted(() -> {
            PodGroup group = env.client().resources(PodGroup.class).inNamespace("default").withName("staged").get();
            assertThat(group).as("the job's PodGroup").isNotNull();
            assertThat(group.getSpec().getMinMember()).as("the worker stage is open").isEqualTo(4);
            boolean running = group.getStatus().getPhase() == PodGroupPhase.Running;
            assertThat(group.getStatus().getConditions()).anySatisfy(c -> {
                assertThat(c.getType()).isEqualTo(PodGroupCondition.UNSCHEDULABLE);
                assertThat(c.getStatus()).isEqualTo("True");
                assertThat(c.getMessage()).contains("3 Insufficient cpu");
                if (running) {
                    assertThat(c.getMessage()).contains("wait for room");
                }
            });
        });
        Stillness.holds(PATIENCE, "two scheduling cycles", env.twoCyclesFromNow(), Duration.ofSeconds(3), () -> {
            PodGroup group = env.client().resources(PodGroup.class).inNamespace("default").withName("staged").get();
            assertThat(group.getStatus().getPhase()).isNotEqualTo(PodGroupPhase.Unknown);
            Job job = env.client().resources(Job.class).inNamespace("default").withName("staged").get();
            assertThat(job.getStatus().getState().getPhase()).as("waiting for minAvailable 4").isEqualTo(JobPhase.Pending);
            assertThat(job.getStatus().getRetryCount()).isZero();
            assertThat(job.getStatus().getVersion()).isZero();
        });
        assertThat(env.client().pods().inNamespace("default").withLabel(MusterLabels.JOB_NAME, "staged").list()
                .getItems()).filteredOn(p -> p.getSpec().getNodeName() != null).hasSize(1);
    }
}
