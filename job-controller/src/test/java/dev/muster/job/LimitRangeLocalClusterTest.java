package dev.muster.job;

import dev.muster.api.batch.v1alpha1.JobStatus;
import io.fabric8.kubernetes.api.model.LimitRangeBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.Quantity;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

import java.util.Map;

import static dev.muster.api.batch.v1alpha1.JobPhase.Completed;
import static dev.muster.api.batch.v1alpha1.JobPhase.Running;
import static dev.muster.job.Patience.PATIENCE;
import static dev.muster.job.TestJobs.task;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * A Job whose template asks for nothing, in a namespace whose LimitRange gives containers a default request, is
 * admitted for the requests its pods will have once the API server (the local cluster's LimitRanger) defaults them:
 * while a first Job's pod takes most of the node, the second waits for room without creating a pod.
 */
@Tag("emulator")
class LimitRangeLocalClusterTest extends LocalClusterTestBase {

    @Test
    void aJobIsAdmittedForTheDefaultRequestsItsPodsWillGet() {
        client.limitRanges().resource(new LimitRangeBuilder().withNewMetadata().withName("defaults").endMetadata()
                .withNewSpec().addNewLimit().withType("Container").withDefault(Map.of("cpu", new Quantity("10")))
                .endLimit().endSpec().build()).create();
        create(newJob("first", 1, runFor("3", task("worker", 1, null))));
        await().atMost(PATIENCE).until(() -> status("first"), in(Running));
        Pod first = pods("first").get(0);
        assertThat(first.getSpec().getContainers().get(0).getResources().getRequests())
                .containsEntry("cpu", new Quantity("10"));

        // The node has 16 cpu: the second Job's pod, defaulted to 10, does not fit beside the first.
        create(newJob("second", 1, runFor("1", task("worker", 1, null))));

        JobStatus waiting = await().atMost(PATIENCE).until(() -> status("second"),
                s -> s != null && s.getState() != null && s.getState().getMessage() != null
                        && s.getState().getMessage().contains("Insufficient cpu"));
        assertThat(pods("second")).as("no pod is created before the gang is admitted").isEmpty();
        assertThat(waiting.getState().getPhase()).isNotEqualTo(Running);
        await().atMost(PATIENCE).until(() -> status("second"), in(Completed));
    }
}
