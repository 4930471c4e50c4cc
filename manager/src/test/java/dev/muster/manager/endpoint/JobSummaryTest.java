package dev.muster.manager.endpoint;

import dev.muster.api.batch.v1alpha1.Job;
import dev.muster.api.batch.v1alpha1.JobPhase;
import dev.muster.api.batch.v1alpha1.JobSpec;
import dev.muster.api.batch.v1alpha1.JobState;
import dev.muster.api.batch.v1alpha1.JobStatus;
import dev.muster.api.batch.v1alpha1.TaskSpec;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

class JobSummaryTest {

    @Test
    void showsStateMinimumAndCountsFromStatus() {
        Job job = job(4);
        JobState state = new JobState();
        state.setPhase(JobPhase.Running);
        state.setReason("MinAvailableReached");
        state.setMessage("3/4 pods running or finished, minAvailable 3");
        JobStatus status = new JobStatus();
        status.setState(state);
        status.setMinAvailable(3);
        status.setPending(1);
        status.setRunning(2);
        status.setSucceeded(1);
        status.setFailed(0);
        status.setRetryCount(2);
        job.setStatus(status);

        assertThat(JobSummary.of(job)).isEqualTo(new JobSummary("team-a", "train", "Running", "MinAvailableReached",
                "3/4 pods running or finished, minAvailable 3", 3, 1, 2, 1, 0, 2));
    }

    @Test
    void aJobTheControllerHasNotSeenYetHasNoPhaseAndTheSpecsMinimum() {
        // No job-level minAvailable: the sum of the tasks' (each its replicas when unset).
        assertThat(JobSummary.of(job(4))).isEqualTo(new JobSummary("team-a", "train", null, null, null, 4, 0, 0, 0, 0, 0));
    }

    private static Job job(int workers) {
        TaskSpec task = new TaskSpec();
        task.setName("worker");
        task.setReplicas(workers);
        JobSpec spec = new JobSpec();
        spec.setTasks(List.of(task));
        Job job = new Job();
        job.setMetadata(new ObjectMetaBuilder().withNamespace("team-a").withName("train").build());
        job.setSpec(spec);
        return job;
    }
}
