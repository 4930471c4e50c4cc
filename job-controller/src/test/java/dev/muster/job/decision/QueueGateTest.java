package dev.muster.job.decision;

import dev.muster.job.TestJobs;
import dev.muster.job.lifecycle.JobFacts;
import dev.muster.job.lifecycle.JobLifecycle;
import dev.muster.job.lifecycle.Verdict;
import dev.muster.api.PodPreemption;
import dev.muster.api.batch.v1alpha1.Job;
import dev.muster.api.batch.v1alpha1.JobPhase;
import dev.muster.api.batch.v1alpha1.JobState;
import dev.muster.api.batch.v1alpha1.JobStatus;
import dev.muster.api.scheduling.v1alpha1.Queue;
import dev.muster.api.scheduling.v1alpha1.QueueAccess;
import dev.muster.api.scheduling.v1alpha1.QueueSpec;
import io.fabric8.kubernetes.api.model.LabelSelectorBuilder;
import org.junit.jupiter.api.Test;

import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

import static org.assertj.core.api.Assertions.assertThat;

/** The Job controller's side of {@link QueueAccess}: which jobs it holds, and how a held job waits. */
class QueueGateTest {
    private static final Instant T0 = Instant.parse("2026-01-01T10:00:00Z");

    private static Map<String, QueueSpec> queue(String name, String state) {
        QueueSpec spec = new QueueSpec();
        spec.setState(state);
        return Map.of(name, spec);
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

    private static Optional<Verdict> hold(Job job, Map<String, QueueSpec> queues) {
        return QueueGate.hold(job, queues, Map.of());
    }

    @Test
    void aJobThatHasNotStartedWaitsForAQueueItNamesThatDoesNotExist() {
        assertThat(hold(job("research", null, null), Map.of())).contains(new Verdict(
                QueueAccess.NOT_FOUND, "queue research does not exist; it waits until the queue is created"));
        assertThat(hold(job("research", JobPhase.Pending, JobStatusDecider.CREATED), Map.of()))
                .map(Verdict::reason).contains(QueueAccess.NOT_FOUND);
        assertThat(hold(job("research", null, null), queue("research", null))).isEmpty();
    }

    @Test
    void aJobNamingNoQueueIsInTheDefaultQueueWhichHoldsItOnlyWhenClosed() {
        assertThat(QueueGate.queueOf(job(null, null, null))).isEqualTo(Queue.DEFAULT);
        assertThat(QueueGate.queueOf(job("", null, null))).isEqualTo(Queue.DEFAULT);
        assertThat(hold(job(null, null, null), Map.of())).isEmpty();
        assertThat(hold(job(null, null, null), queue(Queue.DEFAULT, QueueSpec.CLOSED))).contains(new Verdict(
                QueueAccess.CLOSED, "queue default is Closed: its running jobs go on, new ones wait until it is Open"));
    }

    /** The disagreement issue 23 names: the controller let a job into a parent queue the scheduler never served. */
    @Test
    void aJobNamingAParentQueueWaitsAsTheSchedulerWouldHoldItsGang() {
        QueueSpec child = new QueueSpec();
        child.setParent("org");
        Map<String, QueueSpec> queues = Map.of("org", new QueueSpec(), "team", child);

        assertThat(hold(job("org", null, null), queues)).contains(new Verdict(QueueAccess.NOT_LEAF,
                "queue org has child queues (team); only leaf queues take jobs: name one of its leaves"));
        assertThat(hold(job("team", null, null), queues)).isEmpty();
    }

    @Test
    void aJobOfANamespaceTheQueueDoesNotSelectWaitsNamingQueueAndNamespace() {
        QueueSpec spec = new QueueSpec();
        spec.setNamespaceSelector(new LabelSelectorBuilder().addToMatchLabels("team", "a").build());
        Job job = job("gpu", null, null);

        assertThat(QueueGate.hold(job, Map.of("gpu", spec), Map.of("team", "b"))).contains(new Verdict(QueueAccess.FORBIDDEN,
                "namespace " + job.getMetadata().getNamespace() + " may not use queue gpu: the queue's "
                        + "spec.namespaceSelector does not select it; it waits until it does"));
        assertThat(QueueGate.hold(job, Map.of("gpu", spec), Map.of("team", "a"))).isEmpty();
    }

    @Test
    void startedJobsPreemptedJobsAndJobsOfOtherSchedulersAreNotHeld() {
        Map<String, QueueSpec> closed = queue("batch", QueueSpec.CLOSED);
        assertThat(hold(job("batch", JobPhase.Running, JobFacts.MIN_AVAILABLE_REACHED), closed)).isEmpty();
        assertThat(hold(job("batch", JobPhase.Pending, PodPreemption.PREEMPTED), closed)).isEmpty();
        Job elsewhere = job("batch", null, null);
        elsewhere.getSpec().setSchedulerName("default-scheduler");
        assertThat(hold(elsewhere, closed)).isEmpty();
        assertThat(hold(elsewhere, Map.of())).isEmpty();
    }

    @Test
    void aHeldJobSaysWhyAndStartsOverAsCreatedWhenTheHoldEnds() {
        JobStatusDecider decider = new JobStatusDecider(new JobLifecycle());
        Job job = job("batch", null, null);
        Optional<Verdict> hold = hold(job, queue("batch", QueueSpec.CLOSED));

        JobDecision held = decider.decide(job, List.of(), Optional.empty(), Set.of(), Admission.NOT_GATED, List.of(), hold, List.of(), T0);
        job.setStatus(held.status());
        assertThat(held.phase()).isEqualTo(JobPhase.Pending);
        assertThat(held.queueHold()).isEqualTo(hold);
        assertThat(held.status().getState().getReason()).isEqualTo(QueueAccess.CLOSED);
        assertThat(QueueGate.isHold(held.status().getState().getReason())).isTrue();

        Optional<Verdict> none = hold(job, queue("batch", QueueSpec.OPEN));
        JobDecision released = decider.decide(job, List.of(), Optional.empty(), Set.of(), Admission.NOT_GATED, List.of(),
                none, List.of(), T0.plusSeconds(5));
        assertThat(released.queueHold()).isEmpty();
        assertThat(released.status().getState().getReason()).isEqualTo(JobStatusDecider.CREATED);
        assertThat(released.status().getState().getMessage()).isEqualTo("waiting for 4 of 4 pods to start (minAvailable 4)");
        assertThat(released.transition()).as("still Pending: no phase change").isEmpty();
    }
}
