package dev.muster.job;

import dev.muster.api.batch.v1alpha1.JobPhase;
import dev.muster.api.batch.v1alpha1.JobState;
import dev.muster.api.batch.v1alpha1.JobStatus;
import dev.muster.api.batch.v1alpha1.TaskState;
import org.junit.jupiter.api.Test;

import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/** Which Job status changes are counts only, and so may wait for the write pacer. */
class JobCountersTest {

    private static JobStatus status(JobPhase phase, String message, int running, int succeeded) {
        JobStatus status = new JobStatus();
        JobState state = new JobState();
        state.setPhase(phase);
        state.setReason("MinAvailableReached");
        state.setMessage(message);
        status.setState(state);
        status.setRunning(running);
        status.setSucceeded(succeeded);
        TaskState task = new TaskState();
        task.setPhase(Map.of("Running", running, "Succeeded", succeeded));
        status.setTaskStatusCount(Map.of("worker", task));
        return status;
    }

    @Test
    void podsMovingOnWithinAPhaseAreCountsOnlyEvenWhenTheMessageCountsThem() {
        assertThat(JobCounters.countersOnly(status(JobPhase.Running, "16 running", 16, 0),
                status(JobPhase.Running, "15 running", 15, 1))).isTrue();
    }

    @Test
    void aPhaseChangeOrNoChangeIsNotCountsOnly() {
        assertThat(JobCounters.countersOnly(status(JobPhase.Running, "m", 1, 15),
                status(JobPhase.Completed, "m", 0, 16))).as("phase").isFalse();
        assertThat(JobCounters.countersOnly(status(JobPhase.Running, "m", 4, 0),
                status(JobPhase.Running, "m", 4, 0))).as("nothing").isFalse();
        JobStatus restarted = status(JobPhase.Running, "m", 3, 0);
        restarted.setVersion(2);
        assertThat(JobCounters.countersOnly(status(JobPhase.Running, "m", 4, 0), restarted)).as("version").isFalse();
    }
}
