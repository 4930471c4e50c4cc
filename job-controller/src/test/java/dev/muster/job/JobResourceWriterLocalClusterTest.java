package dev.muster.job;

import dev.muster.api.batch.v1alpha1.Job;
import dev.muster.api.batch.v1alpha1.JobOwnership;
import dev.muster.api.batch.v1alpha1.JobPhase;
import dev.muster.api.batch.v1alpha1.JobState;
import dev.muster.api.batch.v1alpha1.JobStatus;
import dev.muster.api.MusterLabels;
import io.fabric8.kubernetes.api.model.Event;
import io.fabric8.kubernetes.api.model.NamespaceBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.api.model.ResourceQuotaBuilder;
import io.fabric8.kubernetes.api.model.PodBuilder;
import dev.muster.local.LocalCluster;
import dev.muster.local.LocalClusterConfig;
import dev.muster.support.event.EventRecorder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.dsl.base.PatchContext;
import io.fabric8.kubernetes.client.dsl.base.PatchType;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

import java.time.Instant;
import java.util.List;
import java.util.OptionalInt;
import java.util.Set;

import static dev.muster.job.TestJobs.job;
import static dev.muster.job.TestJobs.task;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The Job controller's writer against the local cluster: pods are created only for a job known to be current.
 * A decision that wrote no status was not checked by optimistic locking, and a cache that lags behind the job
 * (its newer version not seen yet) would otherwise create again the pods of a version already stopped.
 */
@Tag("emulator")
class JobResourceWriterLocalClusterTest {
    private static LocalCluster cluster;
    private static KubernetesClient client;
    private static JobResourceWriter writer;

    @BeforeAll
    static void start() {
        cluster = LocalCluster.start(LocalClusterConfig.defaults().withNodes(1));
        client = cluster.client();
        writer = new JobResourceWriter(client, new EventRecorder(client, "test"), Runnable::run);
    }

    @AfterAll
    static void stop() {
        cluster.close();
    }

    @Test
    void aJobCachedAtAnOlderVersionCreatesNoPodUntilTheCacheCatchesUp() {
        Job created = client.resource(job("lagging", task("worker", 2, null))).create();
        Job newer = client.resources(Job.class).inNamespace(created.getMetadata().getNamespace())
                .withName("lagging").patch(PatchContext.of(PatchType.JSON_MERGE), "{\"metadata\":{\"labels\":{\"seen\":\"later\"}}}");

        assertThat(writer.isCurrent(created)).isFalse();
        assertThat(writer.isCurrent(newer)).isTrue();

        OptionalInt fromStale = writer.createMissingPods(created, 0, List.of(), Set.of("worker"),
                () -> writer.isCurrent(created));
        assertThat(fromStale).isEmpty();
        assertThat(client.pods().inNamespace(created.getMetadata().getNamespace()).list().getItems()).isEmpty();

        OptionalInt fromCurrent = writer.createMissingPods(newer, 0, List.of(), Set.of("worker"),
                () -> writer.isCurrent(newer));
        assertThat(fromCurrent).hasValue(2);
        assertThat(client.pods().inNamespace(created.getMetadata().getNamespace()).list().getItems())
                .extracting(pod -> pod.getMetadata().getName()).containsExactlyInAnyOrder("lagging-worker-0", "lagging-worker-1");
    }

    @Test
    void aPodCreatedAndNotYetCachedIsNotSentAgainToAQuotaItHasFilled() {
        // A namespace of its own: the quota counts every pod in it.
        String namespace = "quota-filled";
        client.namespaces().resource(new NamespaceBuilder().withNewMetadata().withName(namespace).endMetadata().build())
                .create();
        Job unsaved = job("filled", task("worker", 1, null));
        unsaved.getMetadata().setNamespace(namespace);
        Job job = client.resource(unsaved).create();
        client.resourceQuotas().inNamespace(namespace).resource(new ResourceQuotaBuilder().withNewMetadata()
                .withName("one-pod").endMetadata().withNewSpec().addToHard("pods", new Quantity("1")).endSpec().build())
                .create();
        try {
            assertThat(writer.createMissingPods(job, 0, List.of(), Set.of("worker"), () -> true)).hasValue(1);

            // The cache has not shown the pod yet. Sent again, the creation would meet the quota before the name
            // taken: kube-apiserver answers "exceeded quota", not AlreadyExists.
            assertThat(writer.createMissingPods(job, 0, List.of(), Set.of("worker"), () -> true)).hasValue(0);

            assertThat(client.pods().inNamespace(namespace).withLabel(MusterLabels.JOB_NAME, "filled").list().getItems())
                    .extracting(pod -> pod.getMetadata().getName()).containsExactly("filled-worker-0");
            assertThat(client.v1().events().inNamespace(namespace).list().getItems())
                    .extracting(Event::getReason).doesNotContain("FailedCreatePod");
        } finally {
            client.resourceQuotas().inNamespace(namespace).withName("one-pod").delete();
        }
    }

    @Test
    void aNameTakenByAnEarlierJobsPodIsNotExpectedToShowInTheNewJobsCache() {
        // The pod of an earlier job of the same name, still being deleted: the new job's cache never shows it as its own.
        Job earlier = job("again", task("worker", 1, null));
        earlier.getMetadata().setUid("uid-of-the-earlier-job");
        client.resource(new PodBuilder(pod("again-worker-0")).editMetadata()
                .withOwnerReferences(JobOwnership.ownerReference(earlier)).endMetadata().build()).create();
        Job job = client.resource(job("again", task("worker", 1, null))).create();

        assertThat(writer.createMissingPods(job, 0, List.of(), Set.of("worker"), () -> true)).hasValue(0);

        assertThat(writer.unseenCreations(job)).as("its pod is made as soon as the name is free").isEmpty();
    }

    @Test
    void anExpiredJobIsDeletedOnItsFreshCopy() {
        Job cached = finished("expired", 1);

        assertThat(writer.deleteExpiredJob(cached, Instant.now())).isTrue();

        assertThat(client.resources(Job.class).inNamespace(cached.getMetadata().getNamespace()).withName("expired").get()).isNull();
    }

    @Test
    void aJobWhoseTtlWasJustRaisedIsNotDeleted() {
        Job cached = finished("raised", 1);
        client.resources(Job.class).inNamespace(cached.getMetadata().getNamespace()).withName("raised")
                .patch(PatchContext.of(PatchType.JSON_MERGE), "{\"spec\":{\"ttlSecondsAfterFinished\":3600}}");

        assertThat(writer.deleteExpiredJob(cached, Instant.now())).isFalse();

        assertThat(client.resources(Job.class).inNamespace(cached.getMetadata().getNamespace()).withName("raised").get()).isNotNull();
    }

    @Test
    void aJobReCreatedUnderTheSameNameIsNotDeleted() {
        Job cached = finished("recreated", 1);
        String namespace = cached.getMetadata().getNamespace();
        client.resources(Job.class).inNamespace(namespace).withName("recreated").withGracePeriod(0).delete();
        await().until(() -> client.resources(Job.class).inNamespace(namespace).withName("recreated").get() == null);
        Job again = finished("recreated", 1);

        assertThat(writer.deleteExpiredJob(cached, Instant.now())).isFalse();

        assertThat(client.resources(Job.class).inNamespace(namespace).withName("recreated").get().getMetadata().getUid())
                .isEqualTo(again.getMetadata().getUid());
    }

    @Test
    void aPodReCreatedUnderTheSameNameIsNotDeleted() {
        Pod seen = client.resource(pod("reborn")).create();
        client.pods().inNamespace(seen.getMetadata().getNamespace()).withName("reborn").withGracePeriod(0).delete();
        await().until(() -> client.pods().inNamespace(seen.getMetadata().getNamespace()).withName("reborn").get() == null);
        Pod again = client.resource(pod("reborn")).create();

        assertThat(writer.deletePod(seen)).isFalse();

        assertThat(client.pods().inNamespace(seen.getMetadata().getNamespace()).withName("reborn").get())
                .satisfies(pod -> {
                    assertThat(pod.getMetadata().getUid()).isEqualTo(again.getMetadata().getUid());
                    assertThat(pod.getMetadata().getDeletionTimestamp()).isNull();
                });
        assertThat(writer.deletePod(again)).isTrue();
    }

    /** A job Completed a minute ago with the given TTL, as the API server has it. */
    private static Job finished(String name, int ttlSeconds) {
        Job job = job(name, task("worker", 1, null));
        job.getSpec().setTtlSecondsAfterFinished(ttlSeconds);
        Job created = client.resource(job).create();
        JobState state = new JobState();
        state.setPhase(JobPhase.Completed);
        state.setReason("TasksSucceeded");
        state.setLastTransitionTime(Instant.now().minusSeconds(60).truncatedTo(java.time.temporal.ChronoUnit.SECONDS).toString());
        JobStatus status = new JobStatus();
        status.setState(state);
        created.setStatus(status);
        return client.resource(created).updateStatus();
    }

    private static Pod pod(String name) {
        return new PodBuilder().withNewMetadata().withName(name).endMetadata()
                .withNewSpec().addNewContainer().withName("main").withImage("busybox").endContainer().endSpec().build();
    }
}
