package dev.muster.manager.e2e;

import dev.muster.api.MusterLabels;
import dev.muster.api.batch.v1alpha1.Job;
import dev.muster.api.batch.v1alpha1.JobPhase;
import dev.muster.api.scheduling.v1alpha1.PodGroup;
import dev.muster.api.scheduling.v1alpha1.PodGroupPhase;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.client.utils.Serialization;
import org.junit.jupiter.api.AutoClose;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

import java.util.List;

import static dev.muster.manager.Patience.PATIENCE;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * What MPI users need: a gang that loses a node mid-run turns its PodGroup Unknown, the Job controller
 * raises the Unknown event, and the job's {@code Unknown → RestartJob} policy restarts the whole gang
 * on the nodes that are left.
 */
@Tag("emulator")
class NodeLossRestartEndToEndTest {
    /** The two-pod gang runs on two of the nodes, the third is spare. */
    @AutoClose
    private final ManagerOnLocalCluster env = new ManagerOnLocalCluster(ManagerOnLocalCluster.threeOnePodNodes());

    private List<Pod> pods() {
        return env.client().pods().inNamespace("default").withLabel(MusterLabels.JOB_NAME, "mpi").list().getItems();
    }

    @Test
    void losingANodeRestartsTheGangByPolicy() {
        env.client().resource(Serialization.unmarshal("""
                apiVersion: batch.muster.dev/v1alpha1
                kind: Job
                metadata: {name: mpi, namespace: default}
                spec:
                  minAvailable: 2
                  maxRetry: 3
                  policies:
                  - {event: Unknown, action: RestartJob}
                  tasks:
                  - name: worker
                    replicas: 2
                    template:
                      metadata:
                        annotations: {local.muster.dev/run-seconds: "600"}
                      spec:
                        restartPolicy: Never
                        containers:
                        - name: w
                          image: busybox
                          resources: {requests: {cpu: "3", memory: 1Gi}}
                """, Job.class)).create();
        var job = env.client().resources(Job.class).inNamespace("default").withName("mpi");
        await().atMost(PATIENCE).until(() -> job.get().getStatus() != null
                && job.get().getStatus().getState().getPhase() == JobPhase.Running);
        String lostNode = pods().get(0).getSpec().getNodeName();

        env.client().nodes().withName(lostNode).delete();

        await().atMost(PATIENCE).untilAsserted(() -> {
            Job j = job.get();
            assertThat(j.getStatus().getRetryCount()).isEqualTo(1);
            assertThat(j.getStatus().getVersion()).isEqualTo(1);
            assertThat(j.getStatus().getState().getPhase()).isEqualTo(JobPhase.Running);
        });
        assertThat(job.get().getStatus().getConditions()).extracting("status").contains(JobPhase.Restarting);
        assertThat(pods()).hasSize(2).allSatisfy(p -> {
            assertThat(p.getSpec().getNodeName()).isNotEqualTo(lostNode);
            assertThat(p.getMetadata().getAnnotations()).containsEntry(MusterLabels.JOB_VERSION, "1");
        });
        PodGroup group = env.client().resources(PodGroup.class).inNamespace("default").withName("mpi").get();
        assertThat(group.getStatus().getPhase()).isIn(PodGroupPhase.Inqueue, PodGroupPhase.Running);
    }
}
