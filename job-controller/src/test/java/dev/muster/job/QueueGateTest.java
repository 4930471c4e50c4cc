package dev.muster.job;

import dev.muster.api.batch.v1alpha1.Job;
import dev.muster.api.batch.v1alpha1.JobPhase;
import dev.muster.api.batch.v1alpha1.JobState;
import dev.muster.api.batch.v1alpha1.JobStatus;
import dev.muster.api.scheduling.v1alpha1.Queue;
import dev.muster.api.scheduling.v1alpha1.QueueSpec;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import org.junit.jupiter.api.Test;

import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.Set;

import static org.assertj.core.api.Assertions.assertThat;

class QueueGateTest {
    private static final Instant T0 = Instant.parse("2026-01-01T10:00:00Z");

    private static Optional<Queue> queue(String name, String state) {
        Queue queue = new Queue();
        queue.setMetadata(new ObjectMetaBuilder().withName(name).build());
        queue.getSpec().setState(state);
        return Optional.of(queue);
    }

    private static Job job(String queue, JobPhase phase, String reason) {
        Job job = TestJobs.quickstart();
        job.getSpec().setQueue(queue);
        if (phase != null) {
            JobState state = new JobState();
            state.setPhase(phase);
            state.setReason(reason);
            job.setStatus(new JobStatus());
            job.getStatus().setState(state);
        }
        return job;
    }

    @Test
    void aJobThatHasNotStartedWaitsForAQueueItNamesThatDoesNotExist() {
        assertThat(QueueGate.hold(job("research", null, null), Optional.empty())).contains(new Verdict(
                QueueGate.QUEUE_NOT_FOUND, "queue research does not exist; the job starts once it is created"));
        assertThat(QueueGate.hold(job("research", JobPhase.Pending, JobStatusDecider.CREATED), Optional.empty()))
                .map(Verdict::reason).contains(QueueGate.QUEUE_NOT_FOUND);
        assertThat(QueueGate.hold(job("research", null, null), queue("research", null))).isEmpty();
    }

    @Test
    void aJobNamingNoQueueIsInTheDefaultQueueWhichHoldsItOnlyWhenClosed() {
        assertThat(QueueGate.queueOf(job(null, null, null))).isEqualTo(Queue.DEFAULT);
        assertThat(QueueGate.queueOf(job("", null, null))).isEqualTo(Queue.DEFAULT);
        assertThat(QueueGate.hold(job(null, null, null), Optional.empty())).isEmpty();
        assertThat(QueueGate.hold(job(null, null, null), queue(Queue.DEFAULT, QueueSpec.CLOSED))).contains(new Verdict(
                QueueGate.QUEUE_CLOSED, "queue default is Closed: its running jobs go on, new ones wait until it is Open"));
    }

    @Test
    void startedJobsPreemptedJobsAndJobsOfOtherSchedulersAreNotHeld() {
        Optional<Queue> closed = queue("batch", QueueSpec.CLOSED);
        assertThat(QueueGate.hold(job("batch", JobPhase.Running, JobFacts.MIN_AVAILABLE_REACHED), closed)).isEmpty();
        assertThat(QueueGate.hold(job("batch", JobPhase.Pending, JobFacts.PREEMPTED), closed)).isEmpty();
        Job elsewhere = job("batch", null, null);
        elsewhere.getSpec().setSchedulerName("default-scheduler");
        assertThat(QueueGate.hold(elsewhere, closed)).isEmpty();
        assertThat(QueueGate.hold(elsewhere, Optional.empty())).isEmpty();
    }

    @Test
    void aHeldJobSaysWhyAndStartsOverAsCreatedWhenTheHoldEnds() {
        JobStatusDecider decider = new JobStatusDecider(new JobLifecycle());
        Job job = job("batch", null, null);
        Optional<Verdict> hold = QueueGate.hold(job, queue("batch", QueueSpec.CLOSED));

        JobDecision held = decider.decide(job, List.of(), Optional.empty(), Set.of(), Admission.NOT_GATED, List.of(), hold, T0);
        job.setStatus(held.status());
        assertThat(held.phase()).isEqualTo(JobPhase.Pending);
        assertThat(held.queueHold()).isEqualTo(hold);
        assertThat(held.status().getState().getReason()).isEqualTo(QueueGate.QUEUE_CLOSED);

        Optional<Verdict> none = QueueGate.hold(job, queue("batch", QueueSpec.OPEN));
        JobDecision released = decider.decide(job, List.of(), Optional.empty(), Set.of(), Admission.NOT_GATED, List.of(),
                none, T0.plusSeconds(5));
        assertThat(released.queueHold()).isEmpty();
        assertThat(released.status().getState().getReason()).isEqualTo(JobStatusDecider.CREATED);
        assertThat(released.status().getState().getMessage()).isEqualTo("waiting for 4 of 4 pods to start (minAvailable 4)");
        assertThat(released.transition()).as("still Pending: no phase change").isEmpty();
    }
}
