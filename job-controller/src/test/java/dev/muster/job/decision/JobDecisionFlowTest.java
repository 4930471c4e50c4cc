package dev.muster.job.decision;

import dev.muster.job.TestJobs;
import dev.muster.job.lifecycle.JobLifecycle;
import dev.muster.api.MusterLabels;
import dev.muster.api.batch.v1alpha1.Job;
import dev.muster.api.batch.v1alpha1.JobCondition;
import dev.muster.api.batch.v1alpha1.LifecyclePolicy;
import dev.muster.api.batch.v1alpha1.PartitionPolicySpec;
import dev.muster.api.batch.v1alpha1.SpecFingerprint;
import dev.muster.api.batch.v1alpha1.TaskSpec;
import io.fabric8.kubernetes.api.model.Pod;
import org.junit.jupiter.api.Test;

import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;

import static dev.muster.api.batch.v1alpha1.JobPhase.Aborted;
import static dev.muster.api.batch.v1alpha1.JobPhase.Aborting;
import static dev.muster.api.batch.v1alpha1.JobPhase.Completed;
import static dev.muster.api.batch.v1alpha1.JobPhase.Completing;
import static dev.muster.api.batch.v1alpha1.JobPhase.Failed;
import static dev.muster.api.batch.v1alpha1.JobPhase.Pending;
import static dev.muster.api.batch.v1alpha1.JobPhase.Restarting;
import static dev.muster.api.batch.v1alpha1.JobPhase.Running;
import static dev.muster.job.TestJobs.all;
import static dev.muster.job.TestJobs.pod;
import static org.assertj.core.api.Assertions.assertThat;

/** {@link JobStatusDecider} through whole flows: restarts, retries, versions, suspend, TTL, scaling. */
class JobDecisionFlowTest {
    private static final Instant T0 = Instant.parse("2026-01-01T10:00:00Z");

    private final JobStatusDecider decider = new JobStatusDecider(new JobLifecycle());

    private JobDecision step(Job job, List<Pod> pods, Set<String> deleted, Instant now) {
        JobDecision decision = decider.decide(job, pods, Optional.empty(), deleted, now);
        job.setStatus(decision.status());
        return decision;
    }

    private JobDecision step(Job job, List<Pod> pods) {
        return step(job, pods, Set.of(), T0);
    }

    private static Job running(Job job, JobDecisionFlowTest test) {
        test.step(job, List.of());
        test.step(job, all(job, "Running"));
        assertThat(job.getStatus().getState().getPhase()).isEqualTo(Running);
        return job;
    }

    private static LifecyclePolicy onPodFailed(String action) {
        LifecyclePolicy policy = new LifecyclePolicy();
        policy.setEvent("PodFailed");
        policy.setAction(action);
        return policy;
    }

    private static List<Pod> withFailedWorker(Job job, String version) {
        List<Pod> pods = new ArrayList<>(all(job, "Running"));
        pods.set(2, pod(job, "worker", 1, "Failed"));
        pods.forEach(p -> p.getMetadata().getAnnotations().put(MusterLabels.JOB_VERSION, version));
        return pods;
    }

    private static List<Pod> atVersion(List<Pod> pods, String version) {
        pods.forEach(p -> p.getMetadata().getAnnotations().put(MusterLabels.JOB_VERSION, version));
        return pods;
    }

    private static List<String> names(List<Pod> pods) {
        return pods.stream().map(p -> p.getMetadata().getName()).toList();
    }

    @Test
    void restartJobBumpsTheVersionDeletesEveryPodAndWaitsForThemToGo() {
        Job job = TestJobs.quickstart();
        job.getSpec().setPolicies(List.of(onPodFailed("RestartJob")));
        running(job, this);
        List<Pod> pods = withFailedWorker(job, "0");

        JobDecision restart = step(job, pods);
        assertThat(restart.phase()).isEqualTo(Restarting);
        assertThat(restart.status().getVersion()).isEqualTo(1);
        assertThat(restart.status().getRetryCount()).isEqualTo(1);
        assertThat(restart.status().getState().getReason()).isEqualTo("PodFailed");
        assertThat(restart.status().getState().getMessage()).isEqualTo("pod qs-worker-1 failed; action RestartJob, retry 1/3");
        assertThat(names(restart.podsToDelete())).containsExactlyInAnyOrder("qs-master-0", "qs-worker-0", "qs-worker-1", "qs-worker-2");

        Set<String> deleted = Set.copyOf(pods.stream().map(p -> p.getMetadata().getUid()).toList());
        JobDecision waiting = step(job, pods, deleted, T0);
        assertThat(waiting.phase()).as("the cache still shows the deleted pods").isEqualTo(Restarting);
        assertThat(waiting.podsToDelete()).as("not deleted twice").isEmpty();
        assertThat(waiting.status().getTerminating()).isEqualTo(4);

        JobDecision pending = step(job, List.of());
        assertThat(pending.phase()).isEqualTo(Pending);
        assertThat(pending.status().getState().getReason()).isEqualTo("Restarted");
        assertThat(pending.runsPods()).isTrue();
        assertThat(pending.status().getRetryCount()).isEqualTo(1);
    }

    @Test
    void podsOfAnOlderVersionTriggerNothingAndAreDeleted() {
        Job job = TestJobs.quickstart();
        job.getSpec().setPolicies(List.of(onPodFailed("RestartJob")));
        running(job, this);
        job.getStatus().setVersion(1);
        List<Pod> pods = atVersion(new ArrayList<>(all(job, "Running")), "1");
        Pod straggler = pod(job, "worker", 1, "Failed");
        straggler.getMetadata().setUid("uid-old");
        pods.add(straggler);

        JobDecision decision = step(job, pods);

        assertThat(decision.phase()).isEqualTo(Running);
        assertThat(decision.status().getRetryCount()).isZero();
        assertThat(decision.podsToDelete()).containsExactly(straggler);
        assertThat(decision.status().getFailed()).as("it counts as leaving, not as a failure").isZero();
        assertThat(decision.status().getTerminating()).isEqualTo(1);
    }

    @Test
    void restartTaskDeletesOnlyThatTasksPodsAndKeepsTheVersion() {
        Job job = TestJobs.quickstart();
        job.getSpec().getTasks().get(1).setPolicies(List.of(onPodFailed("RestartTask")));
        running(job, this);

        JobDecision restart = step(job, withFailedWorker(job, "0"));

        assertThat(restart.phase()).isEqualTo(Restarting);
        assertThat(restart.status().getVersion()).isZero();
        assertThat(restart.status().getRetryCount()).isEqualTo(1);
        assertThat(names(restart.podsToDelete())).containsExactlyInAnyOrder("qs-worker-0", "qs-worker-1", "qs-worker-2");
    }

    @Test
    void restartPodDeletesOnlyThatPod() {
        Job job = TestJobs.quickstart();
        job.getSpec().setPolicies(List.of(onPodFailed("RestartPod")));
        running(job, this);

        assertThat(names(step(job, withFailedWorker(job, "0")).podsToDelete())).containsExactly("qs-worker-1");
    }

    /** A master and four workers in two partitions of two, Running but for the pods named failed. */
    private static List<Pod> partitioned(Job job, Set<String> failed) {
        List<Pod> pods = new ArrayList<>(List.of(pod(job, "master", 0, failed.contains("pp-master-0") ? "Failed" : "Running")));
        for (int i = 0; i < 4; i++) {
            Pod worker = pod(job, "worker", i, failed.contains("pp-worker-" + i) ? "Failed" : "Running");
            Map<String, String> labels = new HashMap<>(worker.getMetadata().getLabels());
            labels.put(MusterLabels.PARTITION_ID, Integer.toString(i / 2));
            worker.getMetadata().setLabels(labels);
            pods.add(worker);
        }
        return pods;
    }

    @Test
    void restartPartitionDeletesThePodsOfTheFailedPodsPartitionAndAPodWithoutPartitionsAlone() {
        PartitionPolicySpec partitions = TestJobs.partitions(2, 2);
        TaskSpec workers = TestJobs.task("worker", 4, null);
        workers.setPartitionPolicy(partitions);
        Job job = TestJobs.job("pp", TestJobs.task("master", 1, null), workers);
        job.getSpec().setPolicies(List.of(onPodFailed("RestartPartition")));
        step(job, List.of());
        step(job, partitioned(job, Set.of()));
        assertThat(job.getStatus().getState().getPhase()).isEqualTo(Running);

        JobDecision restarted = step(job, partitioned(job, Set.of("pp-worker-3")));

        assertThat(restarted.phase()).isEqualTo(Restarting);
        assertThat(restarted.status().getRetryCount()).isEqualTo(1);
        assertThat(names(restarted.podsToDelete())).containsExactlyInAnyOrder("pp-worker-2", "pp-worker-3");

        Job other = TestJobs.job("pp", TestJobs.task("master", 1, null), workers);
        other.getSpec().setPolicies(List.of(onPodFailed("RestartPartition")));
        step(other, List.of());
        step(other, partitioned(other, Set.of()));
        assertThat(names(step(other, partitioned(other, Set.of("pp-master-0"))).podsToDelete()))
                .containsExactly("pp-master-0");
    }

    @Test
    void restartWithoutRetriesLeftFailsAndKeepsTheFailedPodForItsLogs() {
        Job job = TestJobs.quickstart();
        job.getSpec().setPolicies(List.of(onPodFailed("RestartJob")));
        job.getSpec().setMaxRetry(0);
        running(job, this);

        JobDecision failed = step(job, withFailedWorker(job, "0"));

        assertThat(failed.phase()).isEqualTo(Failed);
        assertThat(failed.status().getState().getReason()).isEqualTo("RetryLimitReached");
        assertThat(failed.status().getRetryCount()).isZero();
        assertThat(names(failed.podsToDelete())).containsExactlyInAnyOrder("qs-master-0", "qs-worker-0", "qs-worker-2");
    }

    @Test
    void completeJobStopsTheRestThenCompletes() {
        Job job = TestJobs.quickstart();
        LifecyclePolicy policy = new LifecyclePolicy();
        policy.setEvent("TaskCompleted");
        policy.setAction("CompleteJob");
        job.getSpec().getTasks().get(0).setPolicies(List.of(policy));
        running(job, this);
        List<Pod> pods = new ArrayList<>(all(job, "Running"));
        pods.set(0, pod(job, "master", 0, "Succeeded"));

        JobDecision completing = step(job, pods);
        assertThat(completing.phase()).isEqualTo(Completing);
        assertThat(names(completing.podsToDelete())).containsExactlyInAnyOrder("qs-worker-0", "qs-worker-1", "qs-worker-2");

        JobDecision completed = step(job, List.of(pods.get(0)));
        assertThat(completed.phase()).isEqualTo(Completed);
        assertThat(completed.status().getState().getReason()).isEqualTo("TaskCompleted");
    }

    @Test
    void suspendAbortsAndResumeRestartsWithoutARetry() {
        Job job = TestJobs.quickstart();
        running(job, this);
        job.getStatus().setRetryCount(2);
        job.getSpec().setSuspend(true);

        JobDecision aborting = step(job, all(job, "Running"));
        assertThat(aborting.phase()).isEqualTo(Aborting);
        assertThat(aborting.status().getState().getReason()).isEqualTo("Suspended");
        assertThat(aborting.podsToDelete()).hasSize(4);
        assertThat(step(job, List.of()).phase()).isEqualTo(Aborted);
        assertThat(step(job, List.of()).transition()).as("stays aborted while suspended").isEmpty();

        job.getSpec().setSuspend(false);
        JobDecision resumed = step(job, List.of());
        assertThat(resumed.phase()).isEqualTo(Restarting);
        assertThat(resumed.status().getState().getReason()).isEqualTo("Resumed");
        assertThat(resumed.status().getVersion()).isEqualTo(1);
        assertThat(resumed.status().getRetryCount()).isEqualTo(2);
        assertThat(step(job, List.of()).phase()).isEqualTo(Pending);
    }

    @Test
    void jobAbortedByAPolicyIsResumedOnlyAfterASuspendAndRelease() {
        Job job = TestJobs.quickstart();
        job.getSpec().setPolicies(List.of(onPodFailed("AbortJob")));
        running(job, this);
        step(job, withFailedWorker(job, "0"));
        assertThat(step(job, List.of()).phase()).isEqualTo(Aborted);
        assertThat(step(job, List.of()).transition()).as("an unset suspend does not resume it").isEmpty();

        job.getSpec().setSuspend(true);
        assertThat(step(job, List.of()).status().getState().getReason()).isEqualTo("Suspended");
        job.getSpec().setSuspend(false);

        assertThat(step(job, List.of()).phase()).isEqualTo(Restarting);
    }

    @Test
    void ttlExpiresAfterTheJobFinishedButNotForAbortedJobs() {
        Job job = TestJobs.quickstart();
        job.getSpec().setTtlSecondsAfterFinished(30);
        running(job, this);
        JobDecision completed = step(job, all(job, "Succeeded"));
        assertThat(completed.phase()).isEqualTo(Completed);
        assertThat(completed.wakeAt()).contains(T0.plusSeconds(30));
        assertThat(completed.expired()).isFalse();

        assertThat(decider.decide(job, List.of(), Optional.empty(), Set.of(), T0.plusSeconds(30)).expired()).isTrue();

        job.getStatus().getState().setPhase(Aborted);
        assertThat(decider.decide(job, List.of(), Optional.empty(), Set.of(), T0.plusSeconds(300)).expired()).isFalse();
    }

    @Test
    void scalingDownDeletesThePodsBeyondTheNewReplicas() {
        Job job = TestJobs.quickstart();
        running(job, this);
        job.getSpec().getTasks().get(1).setReplicas(1);

        JobDecision decision = step(job, all(job, "Running"));

        assertThat(decision.phase()).isEqualTo(Running);
        assertThat(names(decision.podsToDelete())).containsExactlyInAnyOrder("qs-worker-1", "qs-worker-2");
        assertThat(decision.status().getMinAvailable()).isEqualTo(2);
    }

    @Test
    void conditionsKeepOnlyTheNewestEntries() {
        Job job = TestJobs.quickstart();
        job.getSpec().setPolicies(List.of(onPodFailed("RestartPod")));
        job.getSpec().setMaxRetry(100);
        running(job, this);
        for (int i = 0; i < 15; i++) {
            step(job, withFailedWorker(job, "0"));
            step(job, List.of());
            step(job, all(job, "Running"));
        }

        List<JobCondition> conditions = job.getStatus().getConditions();
        assertThat(conditions).hasSize(JobStatusDecider.MAX_CONDITIONS);
        assertThat(conditions.get(conditions.size() - 1).getStatus()).isEqualTo(Running);
        assertThat(job.getStatus().getRetryCount()).isEqualTo(15);
    }

    @Test
    void changingAnythingButTheScalingFieldsFailsALiveJobNamingTheField() {
        Job job = TestJobs.quickstart();
        job.getMetadata().setGeneration(1L);
        running(job, this);
        job.getMetadata().setGeneration(2L);
        job.getSpec().setQueue("other");
        job.getSpec().getTasks().get(1).getTemplate().getSpec().getContainers().get(0).setImage("busybox:2");

        JobDecision failed = step(job, all(job, "Running"));

        assertThat(failed.phase()).isEqualTo(Failed);
        assertThat(failed.status().getState().getReason()).isEqualTo("InvalidSpec");
        assertThat(failed.status().getState().getMessage()).isEqualTo(
                "spec.queue: cannot change on a live job; only " + SpecFingerprint.MUTABLE + " can; "
                        + "spec.tasks[1].template: cannot change on a live job; only " + SpecFingerprint.MUTABLE + " can");
        assertThat(failed.podsToDelete()).hasSize(4);
    }

    @Test
    void changingThePriorityClassOfALiveJobIsAccepted() {
        // Volcano pkg/webhooks/admission/jobs/validate/admit_job.go validateJobUpdate lets priorityClassName
        // change (with minAvailable and the replicas); the PodGroup and the pods created after it follow.
        Job job = TestJobs.quickstart();
        job.getSpec().setPriorityClassName("low");
        job.getMetadata().setGeneration(1L);
        running(job, this);
        job.getMetadata().setGeneration(2L);
        job.getSpec().setPriorityClassName("high");

        JobDecision changed = step(job, all(job, "Running"));

        assertThat(changed.phase()).isEqualTo(Running);
        assertThat(changed.status().getAcceptedGeneration()).isEqualTo(2L);
        // A job accepted by an earlier version has the class among its fingerprints: that is no change either.
        Map<String, String> accepted = new TreeMap<>(changed.status().getAcceptedSpec());
        accepted.put("spec.priorityClassName", "0123456789abcdef");
        assertThat(SpecFingerprint.changed(accepted, SpecFingerprint.of(job.getSpec()))).isEmpty();
    }

    @Test
    void scalingALiveJobIsAcceptedAndRecordedWithItsGeneration() {
        Job job = TestJobs.quickstart();
        job.getMetadata().setGeneration(1L);
        running(job, this);
        job.getMetadata().setGeneration(2L);
        job.getSpec().getTasks().get(1).setReplicas(5);

        JobDecision scaled = step(job, all(job, "Running"));

        assertThat(scaled.phase()).isEqualTo(Running);
        assertThat(scaled.status().getAcceptedGeneration()).isEqualTo(2L);
    }

    @Test
    void aSuspendedJobMayChangeItsTemplateBeforeItResumesAsKueueDoes() {
        Job job = TestJobs.quickstart();
        job.getMetadata().setGeneration(1L);
        job.getSpec().setSuspend(true);
        step(job, List.of());
        assertThat(step(job, List.of()).phase()).isEqualTo(Aborted);
        job.getMetadata().setGeneration(2L);
        job.getSpec().setSuspend(false);
        job.getSpec().getTasks().get(1).getTemplate().getSpec().setNodeSelector(Map.of("flavor", "a100"));

        JobDecision resumed = step(job, List.of());

        assertThat(resumed.phase()).isEqualTo(Restarting);
        assertThat(resumed.status().getState().getReason()).isEqualTo("Resumed");
        assertThat(step(job, List.of()).phase()).isEqualTo(Pending);
    }
}
