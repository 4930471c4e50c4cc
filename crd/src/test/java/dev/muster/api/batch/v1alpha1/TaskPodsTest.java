package dev.muster.api.batch.v1alpha1;

import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import org.junit.jupiter.api.Test;

import java.util.Arrays;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

class TaskPodsTest {

    private static TaskSpec task(String name, Integer replicas) {
        TaskSpec task = new TaskSpec();
        task.setName(name);
        task.setReplicas(replicas);
        return task;
    }

    private static Job job(TaskSpec... tasks) {
        Job job = new Job();
        job.setMetadata(new ObjectMetaBuilder().withNamespace("ns").withName("train").build());
        JobSpec spec = new JobSpec();
        spec.setTasks(Arrays.asList(tasks));
        job.setSpec(spec);
        return job;
    }

    @Test
    void everyReplicaOfEveryTaskInSpecOrderThenIndexOrder() {
        List<TaskPods.TaskPod> pods = TaskPods.of(job(task("master", null), task("worker", 2)), task -> true);

        assertThat(pods).extracting(TaskPods.TaskPod::name)
                .containsExactly("train-master-0", "train-worker-0", "train-worker-1");
        assertThat(pods).extracting(TaskPods.TaskPod::index).containsExactly(0, 0, 1);
        assertThat(pods.get(2).task().getName()).isEqualTo("worker");
    }

    @Test
    void onlyTheOpenTasksAndNoNullEntries() {
        Job job = job(task("master", 1), null, task("worker", 2));

        assertThat(TaskPods.of(job, "worker"::equals)).extracting(TaskPods.TaskPod::name)
                .containsExactly("train-worker-0", "train-worker-1");
    }

    @Test
    void aJobWithoutSpecHasNoPods() {
        Job job = job();
        job.setSpec(null);

        assertThat(TaskPods.of(job, task -> true)).isEmpty();
    }
}
