package dev.muster.job;

import dev.muster.job.lifecycle.JobFacts;
import dev.muster.api.batch.v1alpha1.Job;
import dev.muster.api.batch.v1alpha1.JobStatus;
import io.fabric8.kubernetes.client.KubernetesClientException;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

import java.time.Instant;
import java.util.Optional;

import static dev.muster.api.batch.v1alpha1.JobPhase.Failed;
import static dev.muster.api.batch.v1alpha1.JobPhase.Running;
import static dev.muster.job.Patience.PATIENCE;
import static dev.muster.job.TestJobs.task;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

/** {@code spec.maxRuntime} with the production controller, PodGroup controller and gang scheduler. */
@Tag("emulator")
class MaxRuntimeLocalClusterTest extends LocalClusterTestBase {

    @Test
    void aJobRunningLongerThanItsMaxRuntimeFailsWithItsPodsDeletedAndThePodGroupKnowsTheBound() {
        Job job = newJob("bounded", null, runFor("600", task("worker", 2, null)));
        job.getSpec().setMaxRuntime("2s");
        create(job);

        await().atMost(PATIENCE).until(() -> podGroup("bounded"), Optional::isPresent);
        assertThat(podGroup("bounded").get().getSpec().getMaxRuntime()).isEqualTo("2s");
        JobStatus running = await().atMost(PATIENCE).until(() -> status("bounded"), in(Running));
        Instant since = Instant.parse(running.getState().getLastTransitionTime());

        JobStatus failed = await().atMost(PATIENCE).until(() -> status("bounded"), in(Failed));

        assertThat(failed.getState().getReason()).isEqualTo(JobFacts.MAX_RUNTIME_EXCEEDED);
        assertThat(failed.getState().getMessage()).startsWith("the job ran longer than spec.maxRuntime 2s (Running since ");
        assertThat(Instant.parse(failed.getState().getLastTransitionTime())).isAfterOrEqualTo(since.plusSeconds(2));
        assertThat(failed.getRetryCount()).isZero();
        await().atMost(PATIENCE).until(() -> pods("bounded").isEmpty());
        assertThat(eventReasons("bounded")).contains(JobFacts.MAX_RUNTIME_EXCEEDED);
    }

    @Test
    void aMaxRuntimeThatIsNotADurationIsRefusedByTheApiServer() {
        Job job = newJob("unbounded", null, task("worker", 1, null));
        job.getSpec().setMaxRuntime("a while");

        assertThatThrownBy(() -> create(job)).isInstanceOf(KubernetesClientException.class)
                .hasMessageContaining("spec.maxRuntime");
    }
}
