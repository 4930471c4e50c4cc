package dev.muster.job.decision;

import dev.muster.job.TestJobs;
import dev.muster.job.lifecycle.Effect;
import dev.muster.job.lifecycle.JobFacts;
import dev.muster.job.lifecycle.JobLifecycle;
import dev.muster.job.lifecycle.PhaseTransition;
import dev.muster.api.PodPreemption;
import dev.muster.api.batch.v1alpha1.Job;
import dev.muster.api.batch.v1alpha1.LifecyclePolicy;
import dev.muster.api.scheduling.v1alpha1.PodGroup;
import dev.muster.api.scheduling.v1alpha1.PodGroupPhase;
import dev.muster.api.scheduling.v1alpha1.PodGroupStatus;
import dev.muster.gang.JobAdmissionRule;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import org.junit.jupiter.api.Test;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;

import static dev.muster.api.batch.v1alpha1.JobPhase.Failed;
import static dev.muster.api.batch.v1alpha1.JobPhase.Pending;
import static dev.muster.api.batch.v1alpha1.JobPhase.Running;
import static dev.muster.job.TestJobs.all;
import static org.assertj.core.api.Assertions.assertThat;

/** The decider on {@code spec.maxRuntime} and on pods a preempting scheduler marked. */
class MaxRuntimeAndPreemptionDecisionTest {
    private static final Instant T0 = Instant.parse("2026-01-01T10:00:00Z");
    private static final Instant T1 = Instant.parse("2026-01-01T10:00:05Z");
    private static final String PREEMPTOR = "preempted by ml/urgent (reclaim by queue prod)";

    private final JobStatusDecider decider = new JobStatusDecider(new JobLifecycle());

    private JobDecision step(Job job, List<Pod> pods, Instant now) {
        JobDecision decision = decider.decide(job, pods, now);
        job.setStatus(decision.status());
        return decision;
    }

    /** Quickstart, running since T1, with policies that would restart it on an evicted or failed pod. */
    private static Job running(JobStatusDecider decider, String maxRuntime) {
        Job job = TestJobs.quickstart();
        job.getSpec().setMaxRuntime(maxRuntime);
        job.getSpec().setMinAvailable(3);
        LifecyclePolicy restart = new LifecyclePolicy();
        restart.setEvents(List.of("PodEvicted", "PodFailed"));
        restart.setAction("RestartJob");
        job.getSpec().setPolicies(List.of(restart));
        job.setStatus(decider.decide(job, List.of(), T0).status());
        job.setStatus(decider.decide(job, all(job, "Running"), T1).status());
        assertThat(job.getStatus().getState().getPhase()).isEqualTo(Running);
        return job;
    }

    private static Pod preempted(Pod pod) {
        return new PodBuilder(pod).editStatus().addNewCondition().withType(PodPreemption.DISRUPTION_TARGET)
                .withStatus("True").withReason(PodPreemption.PREEMPTION_BY_SCHEDULER).withMessage(PREEMPTOR)
                .endCondition().endStatus().build();
    }

    @Test
    void aRunningJobWakesAtItsMaxRuntimeAndFailsThenDeletingItsPods() {
        Job job = running(decider, "1m");

        JobDecision before = step(job, all(job, "Running"), T1.plusSeconds(59));
        assertThat(before.phase()).isEqualTo(Running);
        assertThat(before.wakeAt()).contains(T1.plusSeconds(60));

        JobDecision after = step(job, all(job, "Running"), T1.plusSeconds(60));
        assertThat(after.phase()).isEqualTo(Failed);
        assertThat(after.status().getState().getReason()).isEqualTo(JobFacts.MAX_RUNTIME_EXCEEDED);
        assertThat(after.status().getState().getMessage()).isEqualTo(
                "the job ran longer than spec.maxRuntime 1m (Running since 2026-01-01T10:00:05Z); its pods are deleted");
        assertThat(after.podsToDelete()).hasSize(4);
        assertThat(after.status().getRetryCount()).isZero();
        assertThat(after.wakeAt()).isEmpty();
    }

    @Test
    void withoutMaxRuntimeARunningJobIsNotWoken() {
        Job job = running(decider, null);

        assertThat(step(job, all(job, "Running"), T1.plusSeconds(3600)).wakeAt()).isEmpty();
    }

    @Test
    void aWholePreemptedGangGoesBackToPendingNamingThePreemptorWithoutRetryAndWaitsForAFreshAdmission() {
        Job job = TestJobs.job("qs", TestJobs.task("master", 1, null), TestJobs.task("worker", 4, 3));
        step(job, List.of(), T0);
        List<Pod> pods = new ArrayList<>(all(job, "Running"));
        pods.add(TestJobs.pod(job, "worker", 3, "Pending"));
        assertThat(step(job, pods, T1).phase()).isEqualTo(Running);
        pods = new ArrayList<>(all(job, "Running").stream().map(MaxRuntimeAndPreemptionDecisionTest::preempted).toList());
        pods.add(TestJobs.pod(job, "worker", 3, "Pending"));

        JobDecision decision = step(job, pods, T1.plusSeconds(30));

        assertThat(decision.phase()).isEqualTo(Pending);
        assertThat(decision.preempted()).isTrue();
        assertThat(decision.transition()).map(PhaseTransition::effect).contains(Effect.PREEMPTED);
        assertThat(decision.status().getState().getReason()).isEqualTo(PodPreemption.PREEMPTED);
        assertThat(decision.status().getState().getMessage()).isEqualTo("the scheduler preempted the gang (4 pods): "
                + PREEMPTOR + "; the job keeps its PodGroup and its place in the queue, and creates its pods again"
                + " once the gang is admitted again");
        assertThat(decision.status().getRetryCount()).isZero();
        assertThat(decision.status().getVersion()).isZero();
        assertThat(decision.status().getTerminating()).as("the victims are on their way out").isEqualTo(4);
        assertThat(decision.podsToDelete()).as("the victims are the scheduler's to evict; the pod it left goes")
                .extracting(p -> p.getMetadata().getName()).containsExactly("qs-worker-3");

        AdmissionGate gate = new AdmissionGate(JobAdmissionRule.ON);
        assertThat(gate.check(job, group(job, PodGroupPhase.Running)).allowsPods()).as("the old gang's phase").isFalse();
        assertThat(gate.check(job, group(job, PodGroupPhase.Pending)).allowsPods()).isFalse();
        assertThat(gate.check(job, group(job, PodGroupPhase.Inqueue)).allowsPods()).as("admitted again").isTrue();

        Optional<PodGroup> readmitted = group(job, PodGroupPhase.Inqueue);
        JobDecision waiting = decider.decide(job, List.of(), readmitted, Set.of(), gate.check(job, readmitted), T1.plusSeconds(40));
        assertThat(waiting.transition()).isEmpty();
        assertThat(waiting.status().getState().getMessage()).as("the preemptor stays named until the job runs again")
                .isEqualTo(decision.status().getState().getMessage());
    }

    @Test
    void evictedSurplusMembersFireNoPolicyAndTheJobKeepsRunning() {
        Job job = running(decider, null);
        List<Pod> pods = new ArrayList<>(all(job, "Running"));
        pods.set(3, preempted(pods.get(3)));

        JobDecision decision = step(job, pods, T1.plusSeconds(30));

        assertThat(decision.phase()).isEqualTo(Running);
        assertThat(decision.transition()).isEmpty();
        assertThat(decision.status().getRunning()).isEqualTo(3);
        assertThat(decision.podsToDelete()).isEmpty();
        assertThat(decision.status().getRetryCount()).isZero();
    }

    @Test
    void aPreemptedPodThatEndsFailedCountsAsLeavingNotAsAFailure() {
        Job job = running(decider, null);
        List<Pod> pods = new ArrayList<>(all(job, "Running"));
        pods.set(3, preempted(TestJobs.pod(job, "worker", 2, "Failed")));

        JobDecision decision = step(job, pods, T1.plusSeconds(30));

        assertThat(decision.phase()).isEqualTo(Running);
        assertThat(decision.status().getFailed()).isZero();
        assertThat(decision.status().getRetryCount()).isZero();
    }

    private static Optional<PodGroup> group(Job job, PodGroupPhase phase) {
        PodGroup group = PodGroupPlanner.desiredPodGroup(job, NetworkTopologyTiers.NONE);
        group.setStatus(new PodGroupStatus());
        group.getStatus().setPhase(phase);
        return Optional.of(group);
    }
}
