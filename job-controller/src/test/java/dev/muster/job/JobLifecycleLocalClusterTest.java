package dev.muster.job;

import dev.muster.api.MusterLabels;
import dev.muster.api.batch.v1alpha1.DependsOn;
import dev.muster.api.batch.v1alpha1.Job;
import dev.muster.api.batch.v1alpha1.JobCondition;
import dev.muster.api.batch.v1alpha1.JobStatus;
import dev.muster.api.batch.v1alpha1.LifecyclePolicy;
import dev.muster.api.batch.v1alpha1.PartitionPolicySpec;
import dev.muster.api.batch.v1alpha1.TaskSpec;
import dev.muster.api.scheduling.v1alpha1.PodGroup;
import io.fabric8.kubernetes.api.model.ContainerStatusBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.api.model.ResourceRequirementsBuilder;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.stream.Collectors;

import static dev.muster.api.batch.v1alpha1.JobPhase.Aborted;
import static dev.muster.api.batch.v1alpha1.JobPhase.Aborting;
import static dev.muster.api.batch.v1alpha1.JobPhase.Completed;
import static dev.muster.api.batch.v1alpha1.JobPhase.Completing;
import static dev.muster.api.batch.v1alpha1.JobPhase.Failed;
import static dev.muster.api.batch.v1alpha1.JobPhase.Pending;
import static dev.muster.api.batch.v1alpha1.JobPhase.Restarting;
import static dev.muster.api.batch.v1alpha1.JobPhase.Running;
import static dev.muster.job.Patience.PATIENCE;
import static dev.muster.job.TestJobs.task;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/** The lifecycle rules of issue 3 as users meet them: policies, retries, suspend, TTL, dependsOn, scaling. */
@Tag("emulator")
class JobLifecycleLocalClusterTest extends LocalClusterTestBase {

    private static LifecyclePolicy policy(String event, Integer exitCode, String action) {
        LifecyclePolicy policy = new LifecyclePolicy();
        policy.setEvent(event);
        policy.setExitCode(exitCode);
        policy.setAction(action);
        return policy;
    }

    @Test
    void exitCodePolicyRestartsTheJobUntilRetryLimitReached() {
        Job job = newJob("retry", null, runFor("0.3", exitWith(3, task("worker", 1, null))));
        job.getSpec().setPolicies(List.of(policy(null, 3, "RestartJob")));
        job.getSpec().setMaxRetry(2);
        create(job);

        JobStatus status = bindUntil("retry", in(Failed));

        assertThat(status.getState().getReason()).isEqualTo("RetryLimitReached");
        assertThat(status.getState().getMessage()).isEqualTo(
                "PodFailed: pod retry-worker-0 exited 3 (Error); action RestartJob refused, 2/2 retries used");
        assertThat(status.getRetryCount()).isEqualTo(2);
        assertThat(status.getVersion()).isEqualTo(2);
        assertThat(status.getConditions()).extracting(JobCondition::getStatus).containsExactly(
                Pending, Running, Restarting, Pending, Running, Restarting, Pending, Running, Failed);
        assertThat(pods("retry")).as("the failed pods of the last run stay for their logs")
                .allSatisfy(p -> assertThat(p.getMetadata().getAnnotations()).containsEntry(MusterLabels.JOB_VERSION, "2"));
        await().atMost(PATIENCE).untilAsserted(() -> assertThat(events("retry"))
                .anySatisfy(e -> {
                    assertThat(e.getType()).isEqualTo("Warning");
                    assertThat(e.getMessage()).isEqualTo("Running -> Restarting (RestartJob): "
                            + "pod retry-worker-0 exited 3 (Error); action RestartJob, retry 1/2");
                }));
    }

    @Test
    void restartPodReplacesOnlyTheFailedPodAndTheJobCompletes() {
        Job job = newJob("flaky", null, runFor("2", task("worker", 3, null)));
        job.getSpec().getTasks().get(0).setPolicies(List.of(policy("PodFailed", null, "RestartPod")));
        create(job);
        await().atMost(PATIENCE).until(() -> pods("flaky").size() == 3);
        // Only this pod fails (the scheduler binds it at once, so it runs long enough for the patch to land first);
        // the one that replaces it is made from the template and succeeds.
        failPodWith("flaky-worker-1", 1);

        JobStatus status = bindUntil("flaky", in(Completed));

        assertThat(status.getRetryCount()).isEqualTo(1);
        assertThat(status.getVersion()).as("a pod restart keeps the version").isZero();
        assertThat(status.getSucceeded()).isEqualTo(3);
        assertThat(status.getConditions()).extracting(JobCondition::getStatus).contains(Restarting);
    }

    @Test
    void restartPartitionReplacesThePodsOfTheFailedPodsPartitionOnlyAndTheJobCompletes() {
        TaskSpec worker = runFor("2", task("worker", 4, null));
        PartitionPolicySpec partitions = TestJobs.partitions(2, 2);
        worker.setPartitionPolicy(partitions);
        worker.setPolicies(List.of(policy("PodFailed", null, "RestartPartition")));
        create(newJob("stages", null, worker));
        await().atMost(PATIENCE).until(() -> pods("stages").size() == 4);
        Map<String, String> uids = uids("stages");
        // As in the RestartPod test: this pod alone fails; the ones made again from the template succeed.
        failPodWith("stages-worker-3", 1);

        JobStatus status = bindUntil("stages", in(Completed));

        assertThat(status.getRetryCount()).isEqualTo(1);
        assertThat(status.getVersion()).as("a partition restart keeps the version").isZero();
        Map<String, String> after = uids("stages");
        assertThat(after).as("partition 0 untouched").containsEntry("stages-worker-0", uids.get("stages-worker-0"))
                .containsEntry("stages-worker-1", uids.get("stages-worker-1"));
        assertThat(after.get("stages-worker-2")).as("partition 1 made again").isNotEqualTo(uids.get("stages-worker-2"));
        assertThat(after.get("stages-worker-3")).isNotEqualTo(uids.get("stages-worker-3"));
    }

    private static Map<String, String> uids(String job) {
        return pods(job).stream().collect(Collectors.toMap(p -> p.getMetadata().getName(), p -> p.getMetadata().getUid()));
    }

    @Test
    void suspendAbortsKeepingTheJobAndResumeDoesNotUseARetry() {
        create(newJob("held", null, runFor("60", task("worker", 2, null))));
        bindUntil("held", in(Running));

        editSpec("held", job -> job.getSpec().setSuspend(true));

        JobStatus aborted = await().atMost(PATIENCE).until(() -> status("held"), in(Aborted));
        assertThat(aborted.getState().getReason()).isEqualTo("Suspended");
        await().atMost(PATIENCE).until(() -> pods("held").isEmpty());
        assertThat(aborted.getRetryCount()).isZero();

        editSpec("held", job -> job.getSpec().setSuspend(false));

        JobStatus resumed = bindUntil("held", in(Running));
        assertThat(resumed.getRetryCount()).as("resume is the user's decision, not a retry").isZero();
        assertThat(resumed.getVersion()).isEqualTo(1);
        assertThat(resumed.getConditions()).extracting(JobCondition::getStatus)
                .containsExactly(Pending, Running, Aborting, Aborted, Restarting, Pending, Running);
        assertThat(pods("held")).allSatisfy(p ->
                assertThat(p.getMetadata().getAnnotations()).containsEntry(MusterLabels.JOB_VERSION, "1"));
        await().atMost(PATIENCE).untilAsserted(() -> assertThat(events("held"))
                .filteredOn(e -> e.getReason().equals("Suspended") || e.getReason().equals("Resumed"))
                .extracting(e -> e.getType()).containsOnly("Normal").hasSizeGreaterThanOrEqualTo(2));
    }

    @Test
    void jobCreatedSuspendedGetsNoPodsUntilReleased() {
        Job job = newJob("queued", null, runFor("0.3", task("worker", 1, null)));
        job.getSpec().setSuspend(true);
        create(job);

        await().atMost(PATIENCE).until(() -> status("queued"), in(Aborted));
        assertThat(pods("queued")).isEmpty();

        editSpec("queued", j -> j.getSpec().setSuspend(false));

        assertThat(bindUntil("queued", in(Completed)).getRetryCount()).isZero();
    }

    @Test
    void ttlDeletesTheJobOnceFinished() {
        Job job = newJob("shortlived", null, runFor("0.3", task("worker", 1, null)));
        // Finish times are whole seconds, as in Kubernetes, so a TTL of n deletes the job between n - 1 and n
        // seconds after it finished: 3 leaves the polls below two seconds at least to see it Completed.
        job.getSpec().setTtlSecondsAfterFinished(3);
        create(job);

        bindUntil("shortlived", in(Completed));

        await().atMost(PATIENCE).until(() -> job("shortlived") == null);
    }

    /**
     * With a TTL of 0 the job is due the moment it finishes: its finished status is written first, so that the
     * delete, checked against the API server's copy, finds it finished (it was never deleted when the decision
     * that finished it also deleted it).
     */
    @Test
    void aTtlOfZeroDeletesTheJobOnceItsFinishedStatusIsWritten() {
        Job job = newJob("instant", null, runFor("0.3", task("worker", 1, null)));
        job.getSpec().setTtlSecondsAfterFinished(0);
        create(job);

        // It may be gone before a poll sees it Completed, so its pods are bound until it is gone.
        await().atMost(PATIENCE).pollInterval(Duration.ofMillis(100)).until(() -> {
            bindUnboundPods("instant");
            return job("instant") == null;
        });
    }

    @Test
    void dependentTaskStartsOnceItsDependencyRunsAndTheGangCountsOnlyWhatCanExist() {
        TaskSpec master = runFor("60", task("master", 1, null));
        TaskSpec worker = runFor("60", task("worker", 2, null));
        DependsOn dependsOn = new DependsOn();
        dependsOn.setName(List.of("master"));
        worker.setDependsOn(dependsOn);
        create(newJob("staged", null, master, worker));

        PodGroup first = await().atMost(PATIENCE).until(() -> podGroup("staged"), Optional::isPresent).get();
        assertThat(first.getSpec().getMinMember()).isEqualTo(1);
        assertThat(first.getSpec().getMinTaskMember()).isEqualTo(Map.of("master", 1));
        // The controller writes the PodGroup before the pods: their creation is awaited, not assumed.
        await().atMost(PATIENCE).untilAsserted(() -> assertThat(podNames("staged")).containsExactly("staged-master-0"));

        bindUntil("staged", in(Running));

        assertThat(podNames("staged")).containsExactly("staged-master-0", "staged-worker-0", "staged-worker-1");
        await().atMost(PATIENCE).until(() -> podGroup("staged").orElseThrow().getSpec().getMinMember() == 3);
    }

    @Test
    void scalingDownDeletesTheExtraPodsAndTheGangFollows() {
        create(newJob("elastic2", null, runFor("60", task("worker", 3, 1))));
        bindUntil("elastic2", in(Running));

        editSpec("elastic2", job -> job.getSpec().getTasks().get(0).setReplicas(2));

        await().atMost(PATIENCE).until(() -> podNames("elastic2"), names -> names.equals(List.of("elastic2-worker-0", "elastic2-worker-1")));
        assertThat(podGroup("elastic2").orElseThrow().getSpec().getMinMember()).isEqualTo(1);

        editSpec("elastic2", job -> job.getSpec().getTasks().get(0).setReplicas(4));

        List<Pod> pods = await().atMost(PATIENCE).until(() -> pods("elastic2"), p -> p.size() == 4);
        assertThat(pods).extracting(p -> p.getMetadata().getName()).contains("elastic2-worker-3");
        assertThat(status("elastic2").getState().getPhase()).isEqualTo(Running);
    }

    @Test
    void changingTheTemplateOfALiveJobFailsItNamingTheField() {
        create(newJob("frozen", null, runFor("60", task("worker", 1, null))));
        bindUntil("frozen", in(Running));

        editSpec("frozen", job -> job.getSpec().getTasks().get(0).getTemplate().getSpec().getContainers().get(0).setImage("busybox:2"));

        JobStatus status = await().atMost(PATIENCE).until(() -> status("frozen"), in(Failed));
        assertThat(status.getState().getReason()).isEqualTo("InvalidSpec");
        assertThat(status.getState().getMessage()).startsWith("spec.tasks[0].template: cannot change on a live job");
    }

    @Test
    void badPolicyIsRefusedByTheControllerWithEveryProblem() {
        Job job = newJob("misconfigured", null, task("worker", 1, null));
        job.getSpec().setPolicies(List.of(policy("PodFailed", 0, "Reboot")));
        createPastAdmission(job);

        JobStatus status = await().atMost(PATIENCE).until(() -> status("misconfigured"), in(Failed));

        assertThat(status.getState().getReason()).isEqualTo("InvalidSpec");
        assertThat(status.getState().getMessage()).isEqualTo("spec.policies[0]: set either event/events or exitCode, not both; "
                + "spec.policies[0].exitCode: must not be 0, which means success; "
                + "spec.policies[0].action: unknown action 'Reboot'; one of AbortJob, RestartJob, RestartTask, RestartPod, "
                + "RestartPartition, TerminateJob, CompleteJob");
        assertThat(pods("misconfigured")).isEmpty();
    }

    @Test
    void pendingTimeoutAbortsAJobWhosePodsCannotBePlaced() {
        TaskSpec worker = task("worker", 2, null);
        worker.getTemplate().getSpec().getContainers().get(0).setResources(new ResourceRequirementsBuilder()
                .addToRequests("cpu", new Quantity("1000")).build());
        Job job = newJob("stuck", null, worker);
        LifecyclePolicy pending = policy("PodPending", null, "AbortJob");
        pending.setTimeout("1s");
        job.getSpec().setPolicies(List.of(pending));
        create(job);

        // No node fits the gang, so it is never admitted and its pods are never created: the wait for admission
        // counts as pending until the timeout runs out and the controller wakes up.
        JobStatus status = await().atMost(PATIENCE).until(() -> status("stuck"), in(Aborted));

        assertThat(status.getState().getReason()).isEqualTo("PodPending");
        assertThat(status.getState().getMessage()).startsWith("task worker: 2 pods not created yet, waiting for "
                + "scheduler muster to admit PodGroup stuck");
        await().atMost(PATIENCE).until(() -> pods("stuck").isEmpty());
    }

    @Test
    void taskCompletedPolicyCompletesTheJobAndStopsTheOtherTasks() {
        TaskSpec master = runFor("0.3", task("master", 1, null));
        master.setPolicies(List.of(policy("TaskCompleted", null, "CompleteJob")));
        create(newJob("leader", null, master, runFor("60", task("worker", 2, null))));

        JobStatus status = bindUntil("leader", in(Completed));

        assertThat(status.getState().getReason()).isEqualTo("TaskCompleted");
        assertThat(status.getConditions()).extracting(JobCondition::getStatus).containsSubsequence(Running, Completing, Completed);
        await().atMost(PATIENCE).until(() -> podNames("leader"), names -> names.equals(List.of("leader-master-0")));
    }

    @Test
    void crashLoopingPodFailsTheJobOnceItRestartedMoreThanItsTasksMaxRetry() {
        TaskSpec worker = task("worker", 1, null);
        worker.getTemplate().getSpec().setRestartPolicy("OnFailure");
        worker.setMaxRetry(2);
        create(newJob("crashy", null, worker));
        await().atMost(PATIENCE).until(() -> pods("crashy").size() == 1);

        // The test stands in for the kubelet of an unbound pod: a container that keeps exiting 1.
        client.pods().withName("crashy-worker-0").editStatus(pod -> {
            pod.getStatus().setPhase("Running");
            pod.getStatus().setContainerStatuses(List.of(new ContainerStatusBuilder().withName("main").withRestartCount(3)
                    .withNewLastState().withNewTerminated().withExitCode(1).endTerminated().endLastState().build()));
            return pod;
        });

        JobStatus status = await().atMost(PATIENCE).until(() -> status("crashy"), in(Failed));
        assertThat(status.getState().getReason()).isEqualTo("TaskFailed");
        assertThat(status.getState().getMessage()).isEqualTo("pod crashy-worker-0 restarted 3 times, more than task worker's maxRetry 2");
    }

    /**
     * job-api.md: a task's {@code maxRetry} is the restarts in place a pod may take, and one more raises
     * TaskFailed, which with no policy fails the job (job-lifecycle.md). Here the simulated kubelet restarts the
     * container itself, as {@code restartPolicy: OnFailure} asks: two restarts are taken in stride, the third fails
     * the job, and no retry of the job is used.
     */
    @Test
    void aPodTheKubeletRestartsInPlaceFailsTheJobOnItsRestartBeyondTheTasksMaxRetry() {
        TaskSpec worker = runFor("0.2", exitWith(1, task("worker", 1, null)));
        worker.getTemplate().getSpec().setRestartPolicy("OnFailure");
        worker.setMaxRetry(2);
        create(newJob("in-place", null, worker));

        List<String> seen = new CopyOnWriteArrayList<>();
        JobStatus status = await().atMost(PATIENCE).pollInterval(Duration.ofMillis(50)).until(() -> {
            JobStatus current = status("in-place");
            pods("in-place").forEach(pod -> seen.add(restarts(pod) + " " + phaseOf(current)));
            return current;
        }, in(Failed));

        assertThat(seen).as("restarts within maxRetry leave the job running").contains("1 Running", "2 Running");
        assertThat(status.getState().getReason()).isEqualTo("TaskFailed");
        assertThat(status.getState().getMessage())
                .isEqualTo("pod in-place-worker-0 restarted 3 times, more than task worker's maxRetry 2");
        assertThat(status.getConditions()).extracting(JobCondition::getStatus).doesNotContain(Restarting);
        assertThat(status.getRetryCount()).as("restarts in place are not the job's retries").isIn(null, 0);
    }

    private static int restarts(Pod pod) {
        return pod.getStatus() == null ? 0 : pod.getStatus().getContainerStatuses().stream()
                .mapToInt(s -> s.getRestartCount() == null ? 0 : s.getRestartCount()).max().orElse(0);
    }
}
