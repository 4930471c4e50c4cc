package dev.muster.job;

import dev.muster.api.batch.v1alpha1.Job;
import dev.muster.api.batch.v1alpha1.JobFixtures;
import dev.muster.api.batch.v1alpha1.JobPhase;
import dev.muster.api.batch.v1alpha1.JobState;
import dev.muster.api.batch.v1alpha1.JobStatus;
import dev.muster.job.decision.Admission;
import dev.muster.job.decision.JobDecision;
import dev.muster.job.lifecycle.Verdict;
import io.fabric8.kubernetes.api.model.Pod;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Optional;
import java.util.Set;

import static org.assertj.core.api.Assertions.assertThat;

/** Which new jobs may have their first status write held back for their PodGroup's admission. */
class FirstStatusWriteTest {
    private static final Admission WAITING = new Admission(Admission.Stage.WAITING, "muster", "train", null);

    @Test
    void aNewPendingJobWaitingOnlyForAdmissionMayWait() {
        assertThat(JobReconciler.mayWaitForAdmission(newJob(), decision(JobPhase.Pending), WAITING, List.of())).isTrue();
    }

    @Test
    void aJobWithAnythingElseToSayIsWrittenAtOnce() {
        Job written = newJob();
        written.setStatus(status(JobPhase.Pending));
        assertThat(JobReconciler.mayWaitForAdmission(written, decision(JobPhase.Pending), WAITING, List.of()))
                .as("already written").isFalse();
        assertThat(JobReconciler.mayWaitForAdmission(newJob(), decision(JobPhase.Pending),
                new Admission(Admission.Stage.WAITING, "muster", "train", "0/3 nodes are available"), List.of()))
                .as("the scheduler says why it cannot fit").isFalse();
        assertThat(JobReconciler.mayWaitForAdmission(newJob(), decision(JobPhase.Pending),
                new Admission(Admission.Stage.ADMITTED, "muster", "train", null), List.of()))
                .as("admitted: its write says so").isFalse();
        assertThat(JobReconciler.mayWaitForAdmission(newJob(), decision(JobPhase.Pending), Admission.NOT_GATED, List.of()))
                .as("not gated").isFalse();
        assertThat(JobReconciler.mayWaitForAdmission(newJob(), decision(JobPhase.Pending), WAITING, List.of("data")))
                .as("a missing claim").isFalse();
        assertThat(JobReconciler.mayWaitForAdmission(newJob(), new JobDecision(status(JobPhase.Pending), Optional.empty(),
                List.of(), Set.of("worker"), Optional.empty(), false, Optional.of(new Verdict("QueueClosed", "closed"))),
                WAITING, List.of())).as("held by its queue").isFalse();
        assertThat(JobReconciler.mayWaitForAdmission(newJob(), decision(JobPhase.Failed), WAITING, List.of()))
                .as("refused").isFalse();
        assertThat(JobReconciler.mayWaitForAdmission(newJob(), new JobDecision(status(JobPhase.Pending), Optional.empty(),
                List.of(new Pod()), Set.of("worker"), Optional.empty(), false, Optional.empty()), WAITING, List.of()))
                .as("pods to delete").isFalse();
    }

    private static Job newJob() {
        Job job = JobFixtures.job("ns", "train");
        job.setStatus(null);
        return job;
    }

    private static JobDecision decision(JobPhase phase) {
        return new JobDecision(status(phase), Optional.empty(), List.of(), Set.of("worker"), Optional.empty(), false,
                Optional.empty());
    }

    private static JobStatus status(JobPhase phase) {
        JobState state = new JobState();
        state.setPhase(phase);
        JobStatus status = new JobStatus();
        status.setState(state);
        return status;
    }
}
