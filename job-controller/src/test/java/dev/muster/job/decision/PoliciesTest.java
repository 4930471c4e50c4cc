package dev.muster.job.decision;

import dev.muster.job.TestJobs;
import dev.muster.job.lifecycle.JobAction;
import dev.muster.job.lifecycle.Trigger;
import dev.muster.job.lifecycle.Verdict;
import dev.muster.api.batch.v1alpha1.Job;
import dev.muster.api.batch.v1alpha1.LifecyclePolicy;
import dev.muster.api.scheduling.v1alpha1.PodGroup;
import dev.muster.api.scheduling.v1alpha1.PodGroupPhase;
import dev.muster.api.scheduling.v1alpha1.PodGroupStatus;
import io.fabric8.kubernetes.api.model.ContainerStatusBuilder;
import io.fabric8.kubernetes.api.model.PodSpecBuilder;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import org.junit.jupiter.api.Test;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

import static dev.muster.job.TestJobs.job;
import static dev.muster.job.TestJobs.pod;
import static dev.muster.job.TestJobs.task;
import static org.assertj.core.api.Assertions.assertThat;

/** {@link PolicyEventObserver} and {@link PolicyMatcher} together: from pods to the action to take. */
class PoliciesTest {
    private static final Instant T0 = Instant.parse("2026-01-01T10:00:00Z");

    private static LifecyclePolicy policy(String action, String... events) {
        LifecyclePolicy policy = new LifecyclePolicy();
        policy.setAction(action);
        policy.setEvents(List.of(events));
        return policy;
    }

    private static LifecyclePolicy exitCode(int code, String action) {
        LifecyclePolicy policy = new LifecyclePolicy();
        policy.setAction(action);
        policy.setExitCode(code);
        return policy;
    }

    private static LifecyclePolicy after(String timeout, LifecyclePolicy policy) {
        policy.setTimeout(timeout);
        return policy;
    }

    /** A pod whose containers exited with the given codes, the last at {@code finishedAt}. */
    private static Pod exited(Job job, String task, int index, String phase, Instant finishedAt, int... codes) {
        Pod pod = pod(job, task, index, phase);
        for (int i = 0; i < codes.length; i++) {
            pod.getStatus().getContainerStatuses().add(new ContainerStatusBuilder().withName("c" + i).withRestartCount(0)
                    .withNewState().withNewTerminated().withExitCode(codes[i]).withReason(codes[i] == 137 ? "OOMKilled" : "Error")
                    .withFinishedAt(finishedAt.toString()).endTerminated().endState().build());
        }
        return pod;
    }

    private static PolicyOutcome decide(Job job, List<Pod> pods, Optional<PodGroup> group, Instant now) {
        return PolicyMatcher.match(job, PolicyEventObserver.observe(job, pods, TaskStatusCounter.count(pods), group, Optional.empty()), now);
    }

    private static Job trainJob() {
        return job("train", task("master", 1, null), task("worker", 3, null));
    }

    private static List<Pod> running(Job job) {
        return new ArrayList<>(TestJobs.all(job, "Running"));
    }

    @Test
    void exitCodePolicyMatchesAnyContainerAndSaysWhichCode() {
        Job job = trainJob();
        job.getSpec().setPolicies(List.of(exitCode(137, "RestartJob")));
        List<Pod> pods = running(job);
        pods.set(3, exited(job, "worker", 2, "Failed", T0, 0, 137));

        Optional<Trigger> trigger = decide(job, pods, Optional.empty(), T0).trigger();

        assertThat(trigger).contains(new Trigger(JobAction.RestartJob,
                new Verdict("PodFailed", "pod train-worker-2 exited 137 (OOMKilled)"), Optional.of("worker"), Optional.of("train-worker-2")));
    }

    @Test
    void otherExitCodesDoNotMatch() {
        Job job = trainJob();
        job.getSpec().setPolicies(List.of(exitCode(137, "RestartJob")));
        List<Pod> pods = running(job);
        pods.set(3, exited(job, "worker", 2, "Failed", T0, 1));

        assertThat(decide(job, pods, Optional.empty(), T0)).isEqualTo(PolicyOutcome.NOTHING);
    }

    @Test
    void taskLevelPolicyWinsOverTheJobs() {
        Job job = trainJob();
        job.getSpec().setPolicies(List.of(policy("AbortJob", "PodFailed")));
        job.getSpec().getTasks().get(1).setPolicies(List.of(policy("RestartTask", "PodFailed")));
        List<Pod> pods = running(job);
        pods.set(2, exited(job, "worker", 1, "Failed", T0, 1));

        Trigger trigger = decide(job, pods, Optional.empty(), T0).trigger().orElseThrow();

        assertThat(trigger.action()).isEqualTo(JobAction.RestartTask);
        assertThat(trigger.task()).contains("worker");
    }

    @Test
    void jobLevelPolicyAppliesWhenTheTaskHasNone() {
        Job job = trainJob();
        job.getSpec().setPolicies(List.of(policy("AbortJob", "PodFailed")));
        List<Pod> pods = running(job);
        pods.set(0, exited(job, "master", 0, "Failed", T0, 2));

        assertThat(decide(job, pods, Optional.empty(), T0).trigger()).map(Trigger::action).contains(JobAction.AbortJob);
    }

    @Test
    void evictedPodRaisesPodEvictedNotPodFailed() {
        Job job = trainJob();
        job.getSpec().setPolicies(List.of(policy("AbortJob", "PodFailed"), policy("RestartPod", "PodEvicted")));
        List<Pod> pods = running(job);
        pods.get(1).getStatus().setPhase("Failed");
        pods.get(1).getStatus().setReason("Evicted");
        pods.get(1).getStatus().setMessage("node ran out of memory");

        Trigger trigger = decide(job, pods, Optional.empty(), T0).trigger().orElseThrow();

        assertThat(trigger.action()).isEqualTo(JobAction.RestartPod);
        assertThat(trigger.verdict()).isEqualTo(new Verdict("PodEvicted", "pod train-worker-0 was evicted: node ran out of memory"));
    }

    @Test
    void podDeletedBySomeoneElseIsEvicted() {
        Job job = trainJob();
        job.getSpec().setPolicies(List.of(policy("RestartJob", "PodEvicted")));
        List<Pod> pods = running(job);
        pods.get(1).getMetadata().setDeletionTimestamp(T0.toString());

        assertThat(decide(job, pods, Optional.empty(), T0).trigger()).map(t -> t.verdict().message())
                .contains("pod train-worker-0 was deleted while Running");

        pods.set(1, pod(job, "worker", 0, "Succeeded"));
        pods.get(1).getMetadata().setDeletionTimestamp(T0.toString());
        assertThat(decide(job, pods, Optional.empty(), T0).trigger()).as("a finished pod cleaned up is not evicted").isEmpty();
    }

    @Test
    void pendingTimeoutFiresOnlyAfterTheTimeoutAndAskToBeWokenThen() {
        Job job = trainJob();
        job.getSpec().setPolicies(List.of(after("5m", policy("AbortJob", "PodPending"))));
        List<Pod> pods = running(job);
        pods.set(1, pod(job, "worker", 0, "Pending"));
        pods.get(1).getMetadata().setCreationTimestamp(T0.toString());

        PolicyOutcome early = decide(job, pods, Optional.empty(), T0.plusSeconds(60));
        assertThat(early.trigger()).isEmpty();
        assertThat(early.wakeAt()).contains(T0.plusSeconds(300));

        assertThat(decide(job, pods, Optional.empty(), T0.plusSeconds(300)).trigger()).map(Trigger::action).contains(JobAction.AbortJob);
    }

    @Test
    void aLaterEventCancelsAPendingTimeout() {
        Job job = trainJob();
        job.getSpec().setPolicies(List.of(after("5m", policy("AbortJob", "PodPending"))));

        PolicyOutcome outcome = decide(job, running(job), Optional.empty(), T0.plusSeconds(600));

        assertThat(outcome).as("the pod runs now, so nothing is pending any more").isEqualTo(PolicyOutcome.NOTHING);
    }

    @Test
    void anyEventMatchesEverythingButPodPending() {
        Job job = trainJob();
        job.getSpec().setPolicies(List.of(policy("TerminateJob", "*")));
        List<Pod> pods = running(job);
        pods.set(1, pod(job, "worker", 0, "Pending"));
        assertThat(decide(job, pods, Optional.empty(), T0).trigger()).isEmpty();

        pods.set(2, exited(job, "worker", 1, "Failed", T0, 1));
        assertThat(decide(job, pods, Optional.empty(), T0).trigger()).map(Trigger::action).contains(JobAction.TerminateJob);
    }

    @Test
    void taskCompletedWhenEveryPodOfTheTaskSucceeded() {
        Job job = trainJob();
        job.getSpec().getTasks().get(0).setPolicies(List.of(policy("CompleteJob", "TaskCompleted")));
        List<Pod> pods = running(job);
        pods.set(0, exited(job, "master", 0, "Succeeded", T0, 0));

        Trigger trigger = decide(job, pods, Optional.empty(), T0).trigger().orElseThrow();

        assertThat(trigger.action()).isEqualTo(JobAction.CompleteJob);
        assertThat(trigger.verdict()).isEqualTo(new Verdict("TaskCompleted", "task master: 1/1 pods succeeded"));
    }

    @Test
    void taskFailedWhenItCanNoLongerReachItsMinimum() {
        Job job = job("train", task("worker", 3, 2));
        job.getSpec().setPolicies(List.of(policy("AbortJob", "TaskFailed")));
        List<Pod> pods = new ArrayList<>(TestJobs.pods(job, "worker", 0, 3, "Running"));
        pods.set(0, exited(job, "worker", 0, "Failed", T0, 1));
        assertThat(decide(job, pods, Optional.empty(), T0).trigger()).as("one failure still leaves 2 of 3").isEmpty();

        pods.set(1, exited(job, "worker", 1, "Failed", T0, 1));
        assertThat(decide(job, pods, Optional.empty(), T0).trigger()).map(t -> t.verdict().message())
                .contains("task worker: 2/3 pods failed, minAvailable 2 can no longer succeed");
    }

    /**
     * Volcano raises TaskFailed only for restarts; Muster also raises it when a task can no longer reach its
     * minimum. An elastic job's tasks have none (Volcano's running state skips them), so failures alone
     * raise nothing.
     */
    @Test
    void anElasticJobsTaskNeverFailsForWantOfItsMinimum() {
        Job job = job("train", task("worker", 6, null));
        job.getSpec().setMinAvailable(3);
        job.getSpec().setPolicies(List.of(policy("AbortJob", "TaskFailed")));
        List<Pod> pods = new ArrayList<>(TestJobs.pods(job, "worker", 0, 6, "Running"));
        pods.set(0, exited(job, "worker", 0, "Failed", T0, 1));
        pods.set(1, exited(job, "worker", 1, "Failed", T0, 1));

        assertThat(decide(job, pods, Optional.empty(), T0).trigger()).isEmpty();
    }

    @Test
    void unknownPodGroupRaisesUnknown() {
        Job job = trainJob();
        job.getSpec().setPolicies(List.of(policy("RestartJob", "Unknown")));
        PodGroup group = new PodGroup();
        group.setMetadata(new ObjectMetaBuilder().withName("train").withCreationTimestamp(T0.toString()).build());
        group.setStatus(new PodGroupStatus());
        group.getStatus().setPhase(PodGroupPhase.Unknown);

        assertThat(decide(job, running(job), Optional.of(group), T0).trigger()).map(t -> t.verdict().reason()).contains("Unknown");
        assertThat(decide(job, TestJobs.all(job, "Pending"), Optional.of(group), T0).trigger())
                .as("after a restart no pod runs yet: the phase is stale").isEmpty();
    }

    @Test
    void crashLoopBeyondTheTasksMaxRetryFailsTheTaskOrTheJob() {
        Job job = trainJob();
        job.getSpec().getTasks().get(1).setMaxRetry(2);
        List<Pod> pods = running(job);
        pods.get(2).getStatus().getContainerStatuses().add(new ContainerStatusBuilder().withName("main").withRestartCount(3)
                .withNewLastState().withNewTerminated().withExitCode(1).withFinishedAt(T0.toString()).endTerminated().endLastState()
                .build());

        PolicyOutcome unhandled = decide(job, pods, Optional.empty(), T0);
        assertThat(unhandled.crashLoop()).contains(new Verdict("TaskFailed",
                "pod train-worker-1 restarted 3 times, more than task worker's maxRetry 2"));

        job.getSpec().setPolicies(List.of(policy("RestartTask", "TaskFailed")));
        PolicyOutcome handled = decide(job, pods, Optional.empty(), T0);
        assertThat(handled.crashLoop()).isEmpty();
        assertThat(handled.trigger()).map(Trigger::action).contains(JobAction.RestartTask);
    }

    @Test
    void restartsWithinTheBudgetAreNotACrashLoopButTheirExitCodesCount() {
        Job job = trainJob();
        job.getSpec().setPolicies(List.of(exitCode(42, "RestartPod")));
        List<Pod> pods = running(job);
        pods.get(2).getStatus().getContainerStatuses().add(new ContainerStatusBuilder().withName("main").withRestartCount(1)
                .withNewLastState().withNewTerminated().withExitCode(42).withFinishedAt(T0.toString()).endTerminated().endLastState()
                .build());

        PolicyOutcome outcome = decide(job, pods, Optional.empty(), T0);

        assertThat(outcome.crashLoop()).isEmpty();
        assertThat(outcome.trigger()).map(Trigger::pod).contains(Optional.of("train-worker-1"));
    }
    @Test
    void aSidecarsExitCodesAndRestartsSayNothingOfTheTaskButAnInitContainersDo() {
        Job job = trainJob();
        job.getSpec().setPolicies(List.of(exitCode(143, "RestartJob")));
        List<Pod> pods = running(job);
        Pod pod = pods.get(2);
        pod.setSpec(new PodSpecBuilder().addNewInitContainer().withName("log-shipper").withImage("shipper")
                .withRestartPolicy("Always").endInitContainer().build());
        pod.getStatus().setInitContainerStatuses(new ArrayList<>(List.of(new ContainerStatusBuilder().withName("log-shipper")
                .withRestartCount(5).withNewLastState().withNewTerminated().withExitCode(143).withFinishedAt(T0.toString())
                .endTerminated().endLastState().build())));

        assertThat(decide(job, pods, Optional.empty(), T0)).isEqualTo(PolicyOutcome.NOTHING);

        pod.getSpec().getInitContainers().get(0).setRestartPolicy(null);
        assertThat(decide(job, pods, Optional.empty(), T0).trigger()).map(Trigger::action).contains(JobAction.RestartJob);
    }
}
