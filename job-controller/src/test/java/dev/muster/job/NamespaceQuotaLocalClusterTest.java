package dev.muster.job;

import dev.muster.api.batch.v1alpha1.JobStatus;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.api.model.ResourceQuotaBuilder;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

import static dev.muster.api.batch.v1alpha1.JobPhase.Completed;
import static dev.muster.api.batch.v1alpha1.JobPhase.Running;
import static dev.muster.job.Patience.PATIENCE;
import static dev.muster.job.TestJobs.task;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * A Job whose pods its namespace's ResourceQuota would refuse is not admitted until they fit (the local cluster
 * keeps the quota's {@code used} and refuses pods beyond it, as kube-apiserver and kube-controller-manager do): it
 * waits Pending with the quota named, creates no pod the API server would refuse, and runs once the pods before it
 * are done.
 */
@Tag("emulator")
class NamespaceQuotaLocalClusterTest extends LocalClusterTestBase {

    @Test
    void aJobWhosePodsTheQuotaWouldRefuseWaitsNamingItAndRunsWhenThereIsRoom() {
        client.resourceQuotas().resource(new ResourceQuotaBuilder().withNewMetadata().withName("one-pod").endMetadata()
                .withNewSpec().addToHard("pods", new Quantity("1")).endSpec().build()).create();
        create(newJob("first", 1, runFor("3", task("worker", 1, null))));
        await().atMost(PATIENCE).until(() -> status("first"), in(Running));

        create(newJob("second", 1, runFor("1", task("worker", 1, null))));

        JobStatus waiting = await().atMost(PATIENCE).until(() -> status("second"),
                s -> s != null && s.getState() != null && s.getState().getMessage() != null
                        && s.getState().getMessage().contains("exceeded quota"));
        assertThat(waiting.getState().getMessage()).contains("(exceeded quota: one-pod, requested: pods=1, used: pods=1, "
                + "limited: pods=1)");
        assertThat(pods("second")).isEmpty();
        await().atMost(PATIENCE).until(() -> status("second"), in(Completed));
        assertThat(eventReasons("second")).doesNotContain("FailedCreatePod");
    }
}
