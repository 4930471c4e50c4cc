package dev.muster.job;

import dev.muster.api.batch.v1alpha1.Job;
import dev.muster.local.LocalCluster;
import dev.muster.local.LocalClusterConfig;
import dev.muster.support.event.EventRecorder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.dsl.base.PatchContext;
import io.fabric8.kubernetes.client.dsl.base.PatchType;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.OptionalInt;
import java.util.Set;

import static dev.muster.job.TestJobs.job;
import static dev.muster.job.TestJobs.task;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * The Job controller's writer against the local cluster: pods are created only for a job known to be current.
 * A decision that wrote no status was not checked by optimistic locking, and a cache that lags behind the job
 * (its newer version not seen yet) would otherwise create again the pods of a version already stopped.
 */
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
}
