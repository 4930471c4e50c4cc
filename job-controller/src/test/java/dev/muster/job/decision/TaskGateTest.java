package dev.muster.job.decision;

import dev.muster.job.TestJobs;
import dev.muster.api.batch.v1alpha1.DependsOn;
import dev.muster.api.batch.v1alpha1.Job;
import dev.muster.api.batch.v1alpha1.TaskSpec;
import dev.muster.rendering.VolcanoPodLabels;
import io.fabric8.kubernetes.api.model.Pod;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;

import static dev.muster.job.TestJobs.job;
import static dev.muster.job.TestJobs.pods;
import static dev.muster.job.TestJobs.task;
import static org.assertj.core.api.Assertions.assertThat;

class TaskGateTest {

    private static TaskSpec dependsOn(TaskSpec task, String iteration, String... names) {
        DependsOn dependsOn = new DependsOn();
        dependsOn.setName(List.of(names));
        dependsOn.setIteration(iteration);
        task.setDependsOn(dependsOn);
        return task;
    }

    private static Job psWorkerJob(String iteration) {
        return job("tf", task("ps", 2, null), task("chief", 1, null),
                dependsOn(task("worker", 4, 2), iteration, "ps", "chief"));
    }

    @Test
    void allNeedsEveryDependencyUpToItsMinimum() {
        Job job = psWorkerJob(null);
        List<Pod> pods = new ArrayList<>(pods(job, "ps", 0, 2, "Running"));
        pods.addAll(pods(job, "chief", 0, 1, "Pending"));
        assertThat(TaskGate.open(job.getSpec(), TaskStatusCounter.count(pods))).containsExactly("ps", "chief");

        pods.set(2, TestJobs.pod(job, "chief", 0, "Running"));
        assertThat(TaskGate.open(job.getSpec(), TaskStatusCounter.count(pods))).containsExactly("ps", "chief", "worker");
    }

    @Test
    void anyNeedsOneDependencyAndSucceededCountsAsUp() {
        Job job = psWorkerJob("any");
        List<Pod> pods = new ArrayList<>(pods(job, "chief", 0, 1, "Succeeded"));

        assertThat(TaskGate.open(job.getSpec(), TaskStatusCounter.count(pods))).contains("worker");
    }

    @Test
    void aTaskWithPodsStaysInTheGangWhenWhatItDependsOnGoesDown() {
        Job job = psWorkerJob(null);
        List<Pod> pods = new ArrayList<>(pods(job, "worker", 0, 4, "Running"));

        assertThat(TaskGate.open(job.getSpec(), TaskStatusCounter.count(pods))).contains("worker");
    }

    @Test
    void theGangCountsOnlyOpenTasks() {
        Job job = psWorkerJob(null);
        job.getSpec().setMinAvailable(5);

        var spec = PodGroupPlanner.desiredPodGroup(job, Set.of("ps", "chief"), NetworkTopologyTiers.NONE).getSpec();

        assertThat(spec.getMinTaskMember()).isEqualTo(Map.of("ps", 2, "chief", 1));
        assertThat(spec.getMinMember()).as("at most the 3 pods that can exist").isEqualTo(3);
        assertThat(JobPodPlanner.missingPods(job, 0, Set.of(), Set.of("ps", "chief"), VolcanoPodLabels.DEFAULT))
                .extracting(p -> p.getMetadata().getName()).containsExactly("tf-ps-0", "tf-ps-1", "tf-chief-0");
    }
}
