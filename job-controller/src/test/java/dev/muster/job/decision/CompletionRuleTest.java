package dev.muster.job.decision;

import dev.muster.job.TestJobs;
import dev.muster.job.lifecycle.Completion;
import dev.muster.api.batch.v1alpha1.Job;
import io.fabric8.kubernetes.api.model.Pod;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

import static dev.muster.job.TestJobs.job;
import static dev.muster.job.TestJobs.pods;
import static dev.muster.job.TestJobs.task;
import static org.assertj.core.api.Assertions.assertThat;

class CompletionRuleTest {

    private static Optional<Completion> judge(Job job, List<Pod> pods) {
        return CompletionRule.judge(job.getSpec(), TaskStatusCounter.count(pods));
    }

    @Test
    void waitsWhileAnyPodHasNotFinished() {
        Job job = TestJobs.quickstart();
        List<Pod> pods = new ArrayList<>(pods(job, "master", 0, 1, "Succeeded"));
        pods.addAll(pods(job, "worker", 0, 2, "Succeeded"));
        pods.addAll(pods(job, "worker", 2, 1, "Running"));

        assertThat(judge(job, pods)).isEmpty();
        assertThat(judge(job, pods.subList(0, 3))).as("a missing pod has not finished either").isEmpty();
    }

    @Test
    void completesWhenEveryTaskAndTheJobReachTheirMinimum() {
        Job job = TestJobs.quickstart();

        assertThat(judge(job, TestJobs.all(job, "Succeeded"))).contains(Completion.success(
                CompletionRule.TASKS_SUCCEEDED, "4/4 pods succeeded; every task reached its minAvailable"));
    }

    @Test
    void failsNamingEachTaskBelowItsMinimum() {
        Job job = job("j", task("master", 1, null), task("worker", 3, 2), task("ps", 2, null));
        List<Pod> pods = new ArrayList<>(pods(job, "master", 0, 1, "Succeeded"));
        pods.addAll(pods(job, "worker", 0, 1, "Succeeded"));
        pods.addAll(pods(job, "worker", 1, 2, "Failed"));
        pods.addAll(pods(job, "ps", 0, 1, "Succeeded"));
        pods.addAll(pods(job, "ps", 1, 1, "Failed"));

        assertThat(judge(job, pods)).contains(Completion.failure(CompletionRule.TASKS_FAILED,
                "task worker: 1/3 pods succeeded, minAvailable 2; task ps: 1/2 pods succeeded, minAvailable 2"));
    }

    @Test
    void toleratesFailuresAboveTheTaskMinimum() {
        Job job = job("j", task("worker", 3, 2));
        List<Pod> pods = new ArrayList<>(pods(job, "worker", 0, 2, "Succeeded"));
        pods.addAll(pods(job, "worker", 2, 1, "Failed"));

        assertThat(judge(job, pods)).map(Completion::succeeded).contains(true);
    }

    @Test
    void failsWhenTasksAreFineButTheJobMinimumIsNot() {
        Job job = job("j", task("a", 2, 1), task("b", 2, 1));
        job.getSpec().setMinAvailable(3);
        List<Pod> pods = new ArrayList<>(pods(job, "a", 0, 1, "Succeeded"));
        pods.addAll(pods(job, "a", 1, 1, "Failed"));
        pods.addAll(pods(job, "b", 0, 1, "Succeeded"));
        pods.addAll(pods(job, "b", 1, 1, "Failed"));

        assertThat(judge(job, pods)).contains(Completion.failure(CompletionRule.MIN_AVAILABLE_NOT_REACHED,
                "2/4 pods succeeded, minAvailable 3"));
    }

    @Test
    void minSuccessCompletesAtOnceWhileOthersStillRun() {
        Job job = job("j", task("worker", 4, 1));
        job.getSpec().setMinSuccess(2);
        List<Pod> pods = new ArrayList<>(pods(job, "worker", 0, 2, "Succeeded"));
        pods.addAll(pods(job, "worker", 2, 2, "Running"));

        assertThat(judge(job, pods)).contains(Completion.success(CompletionRule.MIN_SUCCESS_REACHED,
                "2/4 pods succeeded, minSuccess 2"));
    }

    @Test
    void minSuccessNotReachedFailsOnceAllFinished() {
        Job job = job("j", task("worker", 3, 1));
        job.getSpec().setMinSuccess(2);
        List<Pod> pods = new ArrayList<>(pods(job, "worker", 0, 1, "Succeeded"));
        pods.addAll(pods(job, "worker", 1, 2, "Failed"));

        assertThat(judge(job, pods)).contains(Completion.failure(CompletionRule.MIN_SUCCESS_NOT_REACHED,
                "1/3 pods succeeded, minSuccess 2"));
    }

    /**
     * Volcano ({@code pkg/controllers/job/state/running.go}): once every pod has finished, the per-task
     * Succeeded check runs only when {@code job.minAvailable >= sum of task minAvailable}; an elastic job
     * completes with {@code minAvailable} Succeeded pods, whichever tasks they belong to.
     */
    @Test
    void anElasticJobCompletesWithMinAvailableSucceededPodsWhateverTheirTasks() {
        Job job = job("j", task("ps", 1, null), task("worker", 6, null));
        job.getSpec().setMinAvailable(3);
        List<Pod> pods = new ArrayList<>(pods(job, "ps", 0, 1, "Failed"));
        pods.addAll(pods(job, "worker", 0, 3, "Succeeded"));
        pods.addAll(pods(job, "worker", 3, 3, "Failed"));

        assertThat(judge(job, pods)).contains(Completion.success(CompletionRule.TASKS_SUCCEEDED,
                "3/7 pods succeeded, minAvailable 3 (elastic: the tasks' minimums are not enforced)"));
    }

    /** Volcano: an elastic job with fewer Succeeded pods than its minAvailable still fails. */
    @Test
    void anElasticJobBelowItsMinAvailableFails() {
        Job job = job("j", task("worker", 6, null));
        job.getSpec().setMinAvailable(3);
        List<Pod> pods = new ArrayList<>(pods(job, "worker", 0, 2, "Succeeded"));
        pods.addAll(pods(job, "worker", 2, 4, "Failed"));

        assertThat(judge(job, pods)).map(c -> c.verdict().reason()).contains(CompletionRule.MIN_AVAILABLE_NOT_REACHED);
    }

    /**
     * Volcano's webhook writes every task minimum, so it cannot tell a written one from a default: an
     * explicit task minimum in an elastic job is not enforced either.
     */
    @Test
    void anExplicitTaskMinimumOfAnElasticJobIsNotEnforcedEither() {
        Job job = job("j", task("ps", 1, 1), task("worker", 4, 4));
        job.getSpec().setMinAvailable(2);
        List<Pod> pods = new ArrayList<>(pods(job, "ps", 0, 1, "Failed"));
        pods.addAll(pods(job, "worker", 0, 2, "Succeeded"));
        pods.addAll(pods(job, "worker", 2, 2, "Failed"));

        assertThat(judge(job, pods)).map(Completion::succeeded).contains(true);
    }

    /** Volcano: a job whose minAvailable equals the sum of its tasks' minimums is not elastic. */
    @Test
    void aJobAtTheSumOfItsTaskMinimumsStillChecksEachTask() {
        Job job = job("j", task("ps", 1, null), task("worker", 6, 2));
        job.getSpec().setMinAvailable(3);
        List<Pod> pods = new ArrayList<>(pods(job, "ps", 0, 1, "Failed"));
        pods.addAll(pods(job, "worker", 0, 6, "Succeeded"));

        assertThat(judge(job, pods)).contains(Completion.failure(CompletionRule.TASKS_FAILED,
                "task ps: 0/1 pods succeeded, minAvailable 1"));
    }
}
