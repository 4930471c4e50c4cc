package dev.muster.gang;

import dev.muster.api.batch.v1alpha1.Job;
import dev.muster.api.batch.v1alpha1.JobPhase;
import dev.muster.api.batch.v1alpha1.JobSpec;
import dev.muster.api.batch.v1alpha1.JobState;
import dev.muster.api.batch.v1alpha1.JobStatus;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class JobAdmissionRuleTest {

    private static Job job(JobPhase phase) {
        Job job = new Job();
        job.setMetadata(new ObjectMetaBuilder().withNamespace("ns").withName("train").build());
        job.setSpec(new JobSpec());
        if (phase != null) {
            JobState state = new JobState();
            state.setPhase(phase);
            JobStatus status = new JobStatus();
            status.setState(state);
            job.setStatus(status);
        }
        return job;
    }

    @Test
    void aNewJobOfMusterWaitsWhenTheRuleIsOnAndNeverWhenOff() {
        assertThat(JobAdmissionRule.ON.waitsForAdmission(job(null))).isTrue();
        assertThat(JobAdmissionRule.OFF.waitsForAdmission(job(null))).isFalse();
    }

    @ParameterizedTest
    @EnumSource(JobPhase.class)
    void onlyAPendingJobWaits(JobPhase phase) {
        assertThat(JobAdmissionRule.ON.waitsForAdmission(job(phase))).isEqualTo(phase == JobPhase.Pending);
    }

    @Test
    void aJobOfAnotherSchedulerASuspendedJobAndAJobBeingDeletedDoNotWait() {
        Job other = job(JobPhase.Pending);
        other.getSpec().setSchedulerName("default-scheduler");
        Job suspended = job(JobPhase.Pending);
        suspended.getSpec().setSuspend(true);
        Job deleting = job(JobPhase.Pending);
        deleting.getMetadata().setDeletionTimestamp("2026-11-25T00:00:00Z");

        assertThat(JobAdmissionRule.ON.waitsForAdmission(other)).isFalse();
        assertThat(JobAdmissionRule.ON.waitsForAdmission(suspended)).isFalse();
        assertThat(JobAdmissionRule.ON.waitsForAdmission(deleting)).isFalse();
    }
}
