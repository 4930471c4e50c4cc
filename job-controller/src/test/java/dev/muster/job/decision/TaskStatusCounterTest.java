package dev.muster.job.decision;

import dev.muster.job.TestJobs;
import dev.muster.api.PodPhase;
import io.fabric8.kubernetes.api.model.Pod;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import static dev.muster.job.TestJobs.pod;
import static org.assertj.core.api.Assertions.assertThat;

class TaskStatusCounterTest {

    @Test
    void countsPodsByTaskAndPhase() {
        var job = TestJobs.quickstart();
        List<Pod> pods = List.of(pod(job, "master", 0, "Running"), pod(job, "worker", 0, "Succeeded"),
                pod(job, "worker", 1, "Failed"), pod(job, "worker", 2, null));

        PodCounts counts = TaskStatusCounter.count(pods);

        assertThat(counts.byTask()).isEqualTo(Map.of(
                "master", Map.of(PodPhase.Running, 1),
                "worker", Map.of(PodPhase.Succeeded, 1, PodPhase.Failed, 1, PodPhase.Pending, 1)));
        assertThat(List.of(counts.pending(), counts.running(), counts.succeeded(), counts.failed(),
                counts.terminating(), counts.unknown())).containsExactly(1, 1, 1, 1, 0, 0);
        assertThat(counts.started()).isEqualTo(3);
        assertThat(counts.succeeded("worker")).isEqualTo(1);
        assertThat(counts.succeeded("master")).isZero();
        assertThat(counts.taskStatusCount()).containsOnlyKeys("master", "worker");
        assertThat(counts.taskStatusCount().get("worker").getPhase()).containsEntry("Succeeded", 1);
    }

    @Test
    void podsBeingDeletedCountOnlyAsTerminating() {
        var job = TestJobs.quickstart();
        Pod deleting = pod(job, "worker", 0, "Succeeded");
        deleting.getMetadata().setDeletionTimestamp("2026-01-01T00:00:00Z");

        PodCounts counts = TaskStatusCounter.count(List.of(deleting, pod(job, "worker", 1, "Running")));

        assertThat(counts.terminating()).isEqualTo(1);
        assertThat(counts.succeeded()).isZero();
        assertThat(counts.byTask()).isEqualTo(Map.of("worker", Map.of(PodPhase.Running, 1)));
    }

    @Test
    void unknownPhasesCountAsUnknownAndUnlabelledPodsOnlyInTotals() {
        var job = TestJobs.quickstart();
        Pod unlabelled = pod(job, "worker", 0, "Running");
        unlabelled.getMetadata().setLabels(Map.of());
        List<Pod> pods = new ArrayList<>(List.of(unlabelled, pod(job, "worker", 1, "Unknown"), pod(job, "worker", 2, "Weird")));

        PodCounts counts = TaskStatusCounter.count(pods);

        assertThat(counts.running()).isEqualTo(1);
        assertThat(counts.unknown()).isEqualTo(2);
        assertThat(counts.byTask()).isEqualTo(Map.of("worker", Map.of(PodPhase.Unknown, 2)));
    }

    @Test
    void noPodsCountsNothing() {
        assertThat(TaskStatusCounter.count(List.of())).isEqualTo(PodCounts.NONE);
        assertThat(PodCounts.NONE.taskStatusCount()).isEmpty();
    }
}
