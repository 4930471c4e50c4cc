package dev.muster.api.batch.v1alpha1;

import org.junit.jupiter.api.Test;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

class TaskPodsTest {

    private static TaskSpec task(String name, Integer replicas) {
        TaskSpec task = new TaskSpec();
        task.setName(name);
        task.setReplicas(replicas);
        return task;
    }

    @Test
    void everyReplicaOfEveryTaskInSpecOrderThenIndexOrder() {
        List<TaskPods.TaskPod> pods = TaskPods.of(JobFixtures.job("ns", "train", task("master", null), task("worker", 2)),
                task -> true);

        assertThat(pods).extracting(TaskPods.TaskPod::name)
                .containsExactly("train-master-0", "train-worker-0", "train-worker-1");
        assertThat(pods).extracting(TaskPods.TaskPod::index).containsExactly(0, 0, 1);
        assertThat(pods.get(2).task().getName()).isEqualTo("worker");
    }

    @Test
    void onlyTheOpenTasksAndNoNullEntries() {
        Job job = JobFixtures.job("ns", "train", task("master", 1), null, task("worker", 2));

        assertThat(TaskPods.of(job, "worker"::equals)).extracting(TaskPods.TaskPod::name)
                .containsExactly("train-worker-0", "train-worker-1");
    }

    @Test
    void aJobWithoutSpecHasNoPods() {
        Job job = JobFixtures.job("ns", "train");
        job.setSpec(null);

        assertThat(TaskPods.of(job, task -> true)).isEmpty();
    }
}
