package dev.muster.job.decision;

import dev.muster.job.TestJobs;
import dev.muster.job.lifecycle.JobFacts;
import dev.muster.job.lifecycle.JobLifecycle;
import dev.muster.job.lifecycle.PhaseTransition;
import dev.muster.gang.JobAdmissionRule;
import dev.muster.api.batch.v1alpha1.Job;
import dev.muster.api.batch.v1alpha1.JobCondition;
import dev.muster.api.batch.v1alpha1.JobStatus;
import dev.muster.api.scheduling.v1alpha1.PodGroup;
import dev.muster.api.scheduling.v1alpha1.PodGroupCondition;
import dev.muster.api.scheduling.v1alpha1.PodGroupPhase;
import dev.muster.api.scheduling.v1alpha1.PodGroupStatus;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.client.utils.Serialization;
import org.junit.jupiter.api.Test;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

import static dev.muster.api.batch.v1alpha1.JobPhase.Completed;
import static dev.muster.api.batch.v1alpha1.JobPhase.Failed;
import static dev.muster.api.batch.v1alpha1.JobPhase.Pending;
import static dev.muster.api.batch.v1alpha1.JobPhase.Running;
import static dev.muster.job.TestJobs.all;
import static dev.muster.job.TestJobs.job;
import static dev.muster.job.TestJobs.pods;
import static dev.muster.job.TestJobs.task;
import static org.assertj.core.api.Assertions.assertThat;

class JobStatusDeciderTest {
    private static final Instant T0 = Instant.parse("2026-01-01T10:00:00.400Z");
    private static final Instant T1 = Instant.parse("2026-01-01T10:00:05Z");
    private static final Instant T2 = Instant.parse("2026-01-01T10:01:15Z");

    private final JobStatusDecider decider = new JobStatusDecider(new JobLifecycle());

    /** Decides and stores the result as the job's status, as a successful status write would. */
    private JobDecision step(Job job, List<Pod> pods, Instant now) {
        JobDecision decision = decider.decide(job, pods, now);
        job.setStatus(decision.status());
        return decision;
    }

    @Test
    void newJobIsPendingWithReasonAndCondition() {
        Job job = TestJobs.quickstart();

        JobDecision decision = decider.decide(job, List.of(), T0);

        JobStatus status = decision.status();
        assertThat(status.getState().getPhase()).isEqualTo(Pending);
        assertThat(status.getState().getReason()).isEqualTo(JobStatusDecider.CREATED);
        assertThat(status.getState().getMessage()).isEqualTo("waiting for 4 of 4 pods to start (minAvailable 4)");
        assertThat(status.getState().getLastTransitionTime()).isEqualTo("2026-01-01T10:00:00Z");
        assertThat(status.getConditions()).extracting(JobCondition::getStatus).containsExactly(Pending);
        assertThat(status.getMinAvailable()).isEqualTo(4);
        assertThat(status.getVersion()).isZero();
        assertThat(status.getRetryCount()).isZero();
        assertThat(status.getRunningDuration()).isNull();
        assertThat(decision.runsPods()).isTrue();
        assertThat(decision.transition()).map(PhaseTransition::to).contains(Pending);
    }

    @Test
    void invalidJobFailsAtOnceWithEveryProblemByFieldPath() {
        Job job = job("bad", task("worker", 2, 3));
        job.getSpec().setMinAvailable(5);

        JobDecision decision = decider.decide(job, List.of(), T0);

        assertThat(decision.phase()).isEqualTo(Failed);
        assertThat(decision.status().getState().getReason()).isEqualTo(JobFacts.INVALID_SPEC);
        assertThat(decision.status().getState().getMessage())
                .contains("spec.tasks[0].minAvailable: must not exceed replicas (2), was 3")
                .contains("spec.minAvailable: must not exceed the total replicas of all tasks (2), was 5");
        assertThat(decision.status().getConditions()).extracting(JobCondition::getStatus).containsExactly(Failed);
        assertThat(decision.runsPods()).isFalse();
        assertThat(decision.podsToDelete()).isEmpty();
    }

    @Test
    void pendingJobStaysPendingUntilMinAvailablePodsStart() {
        Job job = TestJobs.quickstart();
        step(job, List.of(), T0);
        List<Pod> pods = new ArrayList<>(pods(job, "master", 0, 1, "Running"));
        pods.addAll(pods(job, "worker", 0, 2, "Running"));
        pods.addAll(pods(job, "worker", 2, 1, "Pending"));

        JobDecision decision = step(job, pods, T1);

        assertThat(decision.transition()).isEmpty();
        assertThat(decision.status().getState().getLastTransitionTime()).isEqualTo("2026-01-01T10:00:00Z");
        assertThat(decision.status().getRunning()).isEqualTo(3);
        assertThat(decision.status().getPending()).isEqualTo(1);
    }

    @Test
    void walksPendingRunningCompletedWithReasonsConditionsAndDuration() {
        Job job = TestJobs.quickstart();
        step(job, List.of(), T0);

        JobDecision running = step(job, all(job, "Running"), T1);
        assertThat(running.phase()).isEqualTo(Running);
        assertThat(running.status().getState().getReason()).isEqualTo(JobFacts.MIN_AVAILABLE_REACHED);
        assertThat(running.status().getState().getMessage()).isEqualTo("4/4 pods running or finished, minAvailable 4");
        assertThat(running.status().getRunningDuration()).isEqualTo("0s");

        JobDecision completed = step(job, all(job, "Succeeded"), T2);
        JobStatus status = completed.status();
        assertThat(status.getState().getPhase()).isEqualTo(Completed);
        assertThat(status.getState().getReason()).isEqualTo(CompletionRule.TASKS_SUCCEEDED);
        assertThat(status.getState().getMessage()).isEqualTo("4/4 pods succeeded; every task reached its minAvailable");
        assertThat(status.getState().getLastTransitionTime()).isEqualTo("2026-01-01T10:01:15Z");
        assertThat(status.getConditions()).extracting(JobCondition::getStatus).containsExactly(Pending, Running, Completed);
        assertThat(status.getTaskStatusCount().get("master").getPhase()).containsExactly(Map.entry("Succeeded", 1));
        assertThat(status.getTaskStatusCount().get("worker").getPhase()).containsExactly(Map.entry("Succeeded", 3));
        assertThat(status.getSucceeded()).isEqualTo(4);
        assertThat(status.getRunningDuration()).isEqualTo("1m10s");
        assertThat(completed.runsPods()).isFalse();
        assertThat(completed.podsToDelete()).as("finished pods stay for their logs").isEmpty();
    }

    @Test
    void runningJobFailsNamingTheTaskThatFellShort() {
        Job job = job("train", task("master", 1, null), task("worker", 3, null));
        step(job, List.of(), T0);
        step(job, all(job, "Running"), T1);
        List<Pod> pods = new ArrayList<>(pods(job, "master", 0, 1, "Succeeded"));
        pods.addAll(pods(job, "worker", 0, 2, "Succeeded"));
        pods.addAll(pods(job, "worker", 2, 1, "Failed"));

        JobDecision failed = step(job, pods, T2);

        assertThat(failed.phase()).isEqualTo(Failed);
        assertThat(failed.status().getState().getReason()).isEqualTo(CompletionRule.TASKS_FAILED);
        assertThat(failed.status().getState().getMessage()).isEqualTo("task worker: 2/3 pods succeeded, minAvailable 3");
    }

    @Test
    void sameObservationGivesTheSameStatusSoNothingIsRewritten() {
        Job job = TestJobs.quickstart();
        step(job, List.of(), T0);
        step(job, all(job, "Running"), T1);
        JobStatus before = Serialization.clone(job.getStatus());

        JobDecision later = decider.decide(job, all(job, "Running"), T2);

        assertThat(later.transition()).isEmpty();
        assertThat(Serialization.asJson(later.status())).isEqualTo(Serialization.asJson(before));
    }

    @Test
    void runningDurationIsRefreshedWhenCountsChange() {
        Job job = TestJobs.quickstart();
        step(job, List.of(), T0);
        step(job, all(job, "Running"), T1);
        List<Pod> pods = new ArrayList<>(all(job, "Running"));
        pods.set(0, TestJobs.pod(job, "master", 0, "Succeeded"));

        assertThat(decider.decide(job, pods, T2).status().getRunningDuration()).isEqualTo("1m10s");
    }

    @Test
    void keepsVersionAndRetryCountAndNeverMutatesTheCachedStatus() {
        Job job = TestJobs.quickstart();
        step(job, List.of(), T0);
        job.getStatus().setVersion(2);
        job.getStatus().setRetryCount(1);
        String cached = Serialization.asJson(job.getStatus());

        JobDecision decision = decider.decide(job, all(job, "Running"), T1);

        assertThat(decision.status().getVersion()).isEqualTo(2);
        assertThat(decision.status().getRetryCount()).isEqualTo(1);
        assertThat(Serialization.asJson(job.getStatus())).isEqualTo(cached);
    }

    @Test
    void finishedJobKeepsItsPhaseAndCountsFollowThePods() {
        Job job = TestJobs.quickstart();
        step(job, List.of(), T0);
        step(job, all(job, "Running"), T1);
        step(job, all(job, "Succeeded"), T2);

        JobDecision decision = decider.decide(job, List.of(), T2.plusSeconds(60));

        assertThat(decision.phase()).isEqualTo(Completed);
        assertThat(decision.transition()).isEmpty();
        assertThat(decision.status().getSucceeded()).isZero();
        assertThat(decision.status().getRunningDuration()).as("measured to the finish, not to now").isEqualTo("1m10s");
    }

    /** Decides as the reconciler does with the gate of scheduler {@code muster}, and stores the status. */
    private JobDecision gatedStep(Job job, List<Pod> pods, Optional<PodGroup> group, Instant now) {
        Admission admission = new AdmissionGate(JobAdmissionRule.ON).check(job, group);
        JobDecision decision = decider.decide(job, pods, group, Set.of(), admission, now);
        job.setStatus(decision.status());
        return decision;
    }

    private static Optional<PodGroup> podGroup(Job job, PodGroupPhase phase, String unschedulable) {
        PodGroup group = PodGroupPlanner.desiredPodGroup(job, NetworkTopologyTiers.NONE);
        group.setStatus(new PodGroupStatus());
        group.getStatus().setPhase(phase);
        if (unschedulable != null) {
            PodGroupCondition condition = new PodGroupCondition();
            condition.setType(PodGroupCondition.UNSCHEDULABLE);
            condition.setStatus("True");
            condition.setMessage(unschedulable);
            group.getStatus().setConditions(List.of(condition));
        }
        return Optional.of(group);
    }

    @Test
    void gatedJobStaysPendingSayingWhatItWaitsForUntilAdmitted() {
        Job job = TestJobs.quickstart();

        JobDecision created = gatedStep(job, List.of(), Optional.empty(), T0);
        assertThat(created.phase()).isEqualTo(Pending);
        assertThat(created.status().getState().getReason()).isEqualTo(JobStatusDecider.CREATED);
        assertThat(created.status().getState().getMessage()).isEqualTo("waiting for scheduler muster to admit PodGroup qs");
        assertThat(created.transition()).map(t -> t.verdict().message())
                .as("the Created event keeps the transition's own message")
                .contains("waiting for 4 of 4 pods to start (minAvailable 4)");
        assertThat(created.runsPods()).as("the PodGroup is created meanwhile").isTrue();

        JobDecision unschedulable = gatedStep(job, List.of(), podGroup(job, PodGroupPhase.Pending,
                "0/3 nodes are available: 3 Insufficient nvidia.com/gpu."), T1);
        assertThat(unschedulable.transition()).isEmpty();
        assertThat(unschedulable.status().getState().getMessage()).isEqualTo(
                "waiting for scheduler muster to admit PodGroup qs: 0/3 nodes are available: 3 Insufficient nvidia.com/gpu.");
        assertThat(unschedulable.status().getState().getLastTransitionTime()).isEqualTo("2026-01-01T10:00:00Z");

        JobDecision admitted = gatedStep(job, List.of(), podGroup(job, PodGroupPhase.Inqueue, null), T2);
        assertThat(admitted.phase()).isEqualTo(Pending);
        assertThat(admitted.status().getState().getReason()).isEqualTo(JobStatusDecider.CREATED);
        assertThat(admitted.status().getState().getMessage()).isEqualTo(
                "PodGroup qs admitted by scheduler muster; waiting for 4 of 4 pods to start (minAvailable 4)");
        assertThat(admitted.status().getConditions()).extracting(JobCondition::getStatus).containsExactly(Pending);

        JobDecision running = gatedStep(job, all(job, "Running"), podGroup(job, PodGroupPhase.Running, null), T2);
        assertThat(running.phase()).isEqualTo(Running);
        assertThat(running.status().getState().getMessage()).isEqualTo("4/4 pods running or finished, minAvailable 4");
    }

    @Test
    void waitingJobWithNothingNewGetsTheSameStatusSoNothingIsRewritten() {
        Job job = TestJobs.quickstart();
        Optional<PodGroup> group = podGroup(job, PodGroupPhase.Pending, "0/1 nodes are available: 1 Insufficient cpu.");
        gatedStep(job, List.of(), group, T0);
        JobStatus before = Serialization.clone(job.getStatus());

        JobDecision later = decider.decide(job, List.of(), group, Set.of(), new AdmissionGate(JobAdmissionRule.ON).check(job, group), T2);

        assertThat(Serialization.asJson(later.status())).isEqualTo(Serialization.asJson(before));
    }

    @Test
    void runningJobKeepsItsMessageWhateverItsPodGroupSays() {
        Job job = TestJobs.quickstart();
        gatedStep(job, List.of(), podGroup(job, PodGroupPhase.Inqueue, null), T0);
        gatedStep(job, all(job, "Running"), podGroup(job, PodGroupPhase.Running, null), T1);

        JobDecision decision = gatedStep(job, all(job, "Running"), podGroup(job, PodGroupPhase.Pending, null), T2);

        assertThat(decision.phase()).isEqualTo(Running);
        assertThat(decision.status().getState().getMessage()).isEqualTo("4/4 pods running or finished, minAvailable 4");
    }

    @Test
    void jobOfAnotherSchedulerSaysItsPodsAreNotMustersWhileTheyWait() {
        Job job = TestJobs.quickstart();
        job.getSpec().setSchedulerName("volcano");

        JobDecision decision = gatedStep(job, List.of(), Optional.empty(), T0);

        assertThat(decision.status().getState().getMessage()).isEqualTo("waiting for 4 of 4 pods to start "
                + "(minAvailable 4); its pods are for scheduler 'volcano', not Muster's ('muster'), which neither "
                + "admits nor binds them");
    }

    @Test
    void aTaskWhoseTemplateNamesAnotherSchedulerIsNamedInTheMessage() {
        // As Volcano's createJobPod, a template's own schedulerName is kept, so those pods are not Muster's.
        Job job = TestJobs.quickstart();
        job.getSpec().getTasks().get(1).getTemplate().getSpec().setSchedulerName("default-scheduler");

        JobDecision decision = decider.decide(job, List.of(), T0);

        assertThat(decision.status().getState().getMessage()).isEqualTo("waiting for 4 of 4 pods to start "
                + "(minAvailable 4); the pods of task worker are for scheduler 'default-scheduler', not Muster's "
                + "('muster'), which neither admits nor binds them");
    }

    @Test
    void jobWithoutSpecFailsAsInvalid() {
        Job job = TestJobs.quickstart();
        job.setSpec(null);

        JobDecision decision = decider.decide(job, List.of(), T0);

        assertThat(decision.phase()).isEqualTo(Failed);
        assertThat(decision.status().getState().getMessage()).isEqualTo("spec.tasks: must list at least one task");
    }
}
