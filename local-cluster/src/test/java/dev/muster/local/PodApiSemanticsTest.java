package dev.muster.local;

import dev.muster.api.batch.v1alpha1.Job;
import dev.muster.api.batch.v1alpha1.JobPhase;
import dev.muster.api.batch.v1alpha1.JobStatus;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodStatusBuilder;
import io.fabric8.kubernetes.client.dsl.base.PatchContext;
import io.fabric8.kubernetes.client.dsl.base.PatchType;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * kube-apiserver's object semantics for pods and custom resources, on a cluster without kubelets (a pod bound to
 * a node stays Terminating after a graceful DELETE, as when its node is gone): deletion options and
 * preconditions, writes to a Terminating pod, the status subresource of pods, and {@code metadata.generation}.
 */
@Tag("emulator")
class PodApiSemanticsTest extends ApiOnlyClusterTests {
    private static final String PODS = "/api/v1/namespaces/default/pods/";

    /** {@code rest.BeforeDelete}: a second DELETE may shorten the grace period, never lengthen it. */
    @Test
    void aSecondDeleteMayShortenTheGracePeriodButNeverLengthenIt() {
        client.resource(boundPod("shortened")).create();

        RawApi.Response first = api.delete(PODS + "shortened", Map.of("gracePeriodSeconds", 60));
        RawApi.Response longer = api.delete(PODS + "shortened", Map.of("gracePeriodSeconds", 120));
        RawApi.Response shorter = api.delete(PODS + "shortened", Map.of("gracePeriodSeconds", 10));

        assertThat(first.code()).isEqualTo(200);
        assertThat(first.body().at("/metadata/deletionGracePeriodSeconds").asLong()).isEqualTo(60);
        assertThat(longer.body().at("/metadata/deletionGracePeriodSeconds").asLong()).isEqualTo(60);
        assertThat(longer.body().at("/metadata/deletionTimestamp")).isEqualTo(first.body().at("/metadata/deletionTimestamp"));
        assertThat(shorter.body().at("/metadata/deletionGracePeriodSeconds").asLong()).isEqualTo(10);
        assertThat(shorter.body().at("/metadata/deletionTimestamp").asText())
                .isLessThan(first.body().at("/metadata/deletionTimestamp").asText());
        assertThat(api.delete(PODS + "shortened", Map.of("gracePeriodSeconds", 0)).code()).isEqualTo(200);
        assertThat(client.pods().withName("shortened").get()).isNull();
    }

    /** The pod strategy's {@code CheckGracefulDelete}: an unbound or a finished pod is deleted at once. */
    @Test
    void unboundAndFinishedPodsAreRemovedAtOnce() {
        client.resource(Fixtures.pod("never-bound")).create();
        Pod finished = boundPod("finished");
        finished.setStatus(new PodStatusBuilder().withPhase("Succeeded").build());
        client.resource(finished).create();

        client.pods().withName("never-bound").delete();
        client.pods().withName("finished").delete();

        assertThat(client.pods().withName("never-bound").get()).isNull();
        assertThat(client.pods().withName("finished").get()).isNull();
    }

    /** DeleteOptions preconditions: a DELETE on a stale resourceVersion or another uid is a 409 Conflict. */
    @Test
    void aDeleteWithAFailedPreconditionIsAConflict() {
        Pod created = client.resource(Fixtures.pod("guarded")).create();

        RawApi.Response staleVersion = api.delete(PODS + "guarded",
                Map.of("preconditions", Map.of("resourceVersion", "1")));
        RawApi.Response otherUid = api.delete(PODS + "guarded", Map.of("preconditions", Map.of("uid", "not-the-uid")));
        RawApi.Response matching = api.delete(PODS + "guarded",
                Map.of("preconditions", Map.of("uid", created.getMetadata().getUid())));

        assertThat(staleVersion.code()).isEqualTo(409);
        assertThat(staleVersion.body().path("reason").asText()).isEqualTo("Conflict");
        assertThat(otherUid.code()).isEqualTo(409);
        assertThat(matching.code()).isEqualTo(200);
        assertThat(client.pods().withName("guarded").get()).isNull();
    }

    /**
     * kube-apiserver keeps {@code deletionTimestamp} through updates and removes an object on update only when
     * its last finalizer goes and no grace period is left: status and label writes leave a Terminating pod.
     */
    @Test
    void writesToATerminatingPodLeaveItTerminating() {
        client.resource(boundPod("terminating")).create();
        client.pods().withName("terminating").delete();
        Pod terminating = client.pods().withName("terminating").get();

        terminating.setStatus(new PodStatusBuilder().withPhase("Running").build());
        client.resource(terminating).updateStatus();
        client.pods().withName("terminating").edit(p -> {
            p.getMetadata().setLabels(Map.of("edited", "yes"));
            p.getMetadata().setDeletionTimestamp(null);
            return p;
        });

        Pod stored = client.pods().withName("terminating").get();
        assertThat(stored.getMetadata().getLabels()).containsEntry("edited", "yes");
        assertThat(stored.getMetadata().getDeletionTimestamp()).isEqualTo(terminating.getMetadata().getDeletionTimestamp());
        assertThat(stored.getStatus().getPhase()).isEqualTo("Running");
    }

    /** The pod status subresource: a write to the main resource (update, JSON or merge patch) keeps the stored status. */
    @Test
    void writesToAPodsMainResourceKeepItsStatus() {
        Pod created = client.resource(Fixtures.pod("main-writes")).create();
        created.setStatus(new PodStatusBuilder().withPhase("Running").build());
        created.getMetadata().setLabels(Map.of("updated", "yes"));

        Pod updated = client.resource(created).update();
        client.pods().withName("main-writes").patch(PatchContext.of(PatchType.JSON),
                "[{\"op\":\"replace\",\"path\":\"/status/phase\",\"value\":\"Failed\"}]");
        client.pods().withName("main-writes").patch(PatchContext.of(PatchType.JSON_MERGE),
                "{\"status\":{\"phase\":\"Succeeded\"}}");

        assertThat(updated.getMetadata().getLabels()).containsEntry("updated", "yes");
        assertThat(updated.getStatus().getPhase()).isEqualTo("Pending");
        assertThat(client.pods().withName("main-writes").get().getStatus().getPhase()).isEqualTo("Pending");
    }

    /** The pod status subresource: a status write changes the status and nothing else. */
    @Test
    void aPodStatusWriteChangesOnlyTheStatus() {
        Pod created = client.resource(Fixtures.pod("status-writes")).create();
        created.setStatus(new PodStatusBuilder().withPhase("Running").build());
        created.getMetadata().setLabels(Map.of("sneaked", "in"));
        created.getSpec().getContainers().get(0).setImage("changed");

        client.resource(created).updateStatus();

        Pod stored = client.pods().withName("status-writes").get();
        assertThat(stored.getStatus().getPhase()).isEqualTo("Running");
        assertThat(stored.getMetadata().getLabels()).isNullOrEmpty();
        assertThat(stored.getSpec().getContainers().get(0).getImage()).isEqualTo("busybox");
    }

    /** kube-apiserver moves {@code metadata.generation} on spec changes only, not on metadata or status changes. */
    @Test
    void aPodsGenerationMovesOnSpecChangesOnly() {
        Pod created = client.resource(Fixtures.pod("generations")).create();
        assertThat(created.getMetadata().getGeneration()).isEqualTo(1L);

        Pod labelled = client.pods().withName("generations").edit(p -> {
            p.getMetadata().setLabels(Map.of("a", "b"));
            return p;
        });
        labelled.setStatus(new PodStatusBuilder().withPhase("Running").build());
        Pod withStatus = client.resource(labelled).updateStatus();
        Pod respecified = client.pods().withName("generations").edit(p -> {
            p.getSpec().getContainers().get(0).setImage("busybox:2");
            return p;
        });

        assertThat(labelled.getMetadata().getGeneration()).isEqualTo(1L);
        assertThat(withStatus.getMetadata().getGeneration()).isEqualTo(1L);
        assertThat(respecified.getMetadata().getGeneration()).isEqualTo(2L);
    }

    /** The same for a custom resource with a status subresource. */
    @Test
    void aJobsGenerationMovesOnSpecChangesOnly() {
        client.resource(Fixtures.job("job-generations")).create();

        Job labelled = client.resources(Job.class).withName("job-generations").edit(j -> {
            j.getMetadata().setLabels(Map.of("a", "b"));
            return j;
        });
        JobStatus status = new JobStatus();
        status.getState().setPhase(JobPhase.Running);
        labelled.setStatus(status);
        Job withStatus = client.resource(labelled).updateStatus();
        Job respecified = client.resources(Job.class).withName("job-generations").edit(j -> {
            j.getSpec().setMaxRetry(5);
            return j;
        });

        assertThat(labelled.getMetadata().getGeneration()).isEqualTo(1L);
        assertThat(withStatus.getMetadata().getGeneration()).isEqualTo(1L);
        assertThat(respecified.getMetadata().getGeneration()).isEqualTo(2L);
    }

    /** A pod bound to a node that has no kubelet, so that nothing stops it once it is deleted. */
    private static Pod boundPod(String name) {
        Pod pod = Fixtures.pod(name);
        pod.getSpec().setNodeName("node-without-kubelet");
        return pod;
    }
}
