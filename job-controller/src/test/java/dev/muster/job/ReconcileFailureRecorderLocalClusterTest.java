package dev.muster.job;

import dev.muster.api.batch.v1alpha1.Job;
import dev.muster.support.controller.ObjectKey;
import io.fabric8.kubernetes.api.model.Condition;
import io.fabric8.kubernetes.client.Watch;
import io.fabric8.kubernetes.client.Watcher;
import io.fabric8.kubernetes.client.WatcherException;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

import java.time.Clock;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.CopyOnWriteArrayList;

import static dev.muster.job.Patience.PATIENCE;
import static dev.muster.job.TestJobs.task;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/** The ReconcileFailing condition is written once per distinct failure and cleared by the next reconcile that succeeds. */
@Tag("emulator")
class ReconcileFailureRecorderLocalClusterTest extends LocalClusterTestBase {

    @Test
    void conditionIsWrittenOnceAndClearedByTheNextSuccessfulReconcile() throws Exception {
        create(newJob("flaky", 1, task("worker", 1, null)));
        await().atMost(PATIENCE).until(() -> status("flaky") != null);
        List<List<Condition>> seen = new CopyOnWriteArrayList<>();
        JobCache cache = new JobCache(informers);
        await().atMost(PATIENCE).until(informers::hasSynced);
        ReconcileFailureRecorder recorder = new ReconcileFailureRecorder(client, cache, Clock.systemUTC());
        ObjectKey key = new ObjectKey(TestJobs.NAMESPACE, "flaky");

        try (Watch ignored = client.resources(Job.class).withName("flaky").watch(new Watcher<>() {
            @Override
            public void eventReceived(Action action, Job job) {
                seen.add(job.getStatus() == null ? null : job.getStatus().getControllerConditions());
            }

            @Override
            public void onClose(WatcherException cause) {
            }
        })) {
            recorder.record(key, new IllegalStateException("the API server said no"));

            await().atMost(PATIENCE).until(() -> seen.stream().filter(Objects::nonNull).count() == 1
                    && status("flaky").getControllerConditions() == null);
        }
        Condition written = seen.stream().filter(Objects::nonNull).findFirst().orElseThrow().get(0);
        assertThat(written.getType()).isEqualTo(ReconcileFailureRecorder.TYPE);
        assertThat(written.getStatus()).isEqualTo("True");
        assertThat(written.getReason()).isEqualTo("IllegalStateException");
        assertThat(written.getMessage()).endsWith("latest: the API server said no");
        assertThat(status("flaky").getRetryCount()).as("the job itself is not touched").isZero();
    }

}
