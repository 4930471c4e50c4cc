package dev.muster.job;

import dev.muster.api.batch.v1alpha1.Job;
import dev.muster.api.batch.v1alpha1.JobStatus;
import dev.muster.api.batch.v1alpha1.TaskSpec;
import dev.muster.api.scheduling.v1alpha1.PodGroup;
import dev.muster.job.lifecycle.JobFacts;
import io.fabric8.kubernetes.api.model.LimitRangeBuilder;
import io.fabric8.kubernetes.api.model.NamespaceBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.api.model.ResourceRequirementsBuilder;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

import java.util.Map;

import static dev.muster.api.batch.v1alpha1.JobPhase.Completed;
import static dev.muster.api.batch.v1alpha1.JobPhase.Failed;
import static dev.muster.api.batch.v1alpha1.JobPhase.Running;
import static dev.muster.job.Patience.PATIENCE;
import static dev.muster.job.TestJobs.task;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Jobs in namespaces with LimitRanges (the local cluster's LimitRanger defaults and bounds pods as kube-apiserver's):
 * a Job whose template asks for nothing is admitted for the default requests its pods will get, and a template
 * outside a LimitRange's bounds fails its Job before the Job holds room.
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

    @Test
    void aTemplateOutsideItsNamespacesLimitRangeFailsTheJobBeforeItHasAPodGroup() {
        client.namespaces().resource(new NamespaceBuilder().withNewMetadata().withName("bounded").endMetadata().build())
                .create();
        client.limitRanges().inNamespace("bounded").resource(new LimitRangeBuilder().withNewMetadata()
                .withName("bounds").endMetadata().withNewSpec().addNewLimit().withType("Container")
                .withMax(Map.of("cpu", new Quantity("2"))).endLimit().endSpec().build()).create();
        TaskSpec big = task("worker", 1, null);
        big.getTemplate().getSpec().getContainers().get(0).setResources(new ResourceRequirementsBuilder()
                .addToLimits("cpu", new Quantity("4")).build());
        Job job = newJob("big", 1, big);
        job.getMetadata().setNamespace("bounded");
        create(job);

        JobStatus failed = await().atMost(PATIENCE).until(() -> {
            Job now = client.resources(Job.class).inNamespace("bounded").withName("big").get();
            return now == null ? null : now.getStatus();
        }, status -> status != null && status.getState() != null && status.getState().getPhase() == Failed);

        assertThat(failed.getState().getReason()).isEqualTo(JobFacts.INVALID_SPEC);
        assertThat(failed.getState().getMessage()).startsWith("spec.tasks[0].template: the API server refused pod "
                + "big-worker-0 in a dry run: pods \"big-worker-0\" is forbidden: maximum cpu usage per Container is 2, "
                + "but limit is 4");
        assertThat(client.resources(PodGroup.class).inNamespace("bounded").withName("big").get()).isNull();
    }
}
