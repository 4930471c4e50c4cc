package dev.muster.job;

import dev.muster.support.controller.ObjectKey;
import io.fabric8.kubernetes.api.model.Pod;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

class DeletedPodsTest {
    private static final ObjectKey JOB = new ObjectKey("default", "qs");

    @Test
    void remembersDeletedPodsUntilTheCacheNoLongerShowsThem() {
        var job = TestJobs.quickstart();
        Pod a = TestJobs.pod(job, "worker", 0, "Failed");
        Pod b = TestJobs.pod(job, "worker", 1, "Running");
        DeletedPods deleted = new DeletedPods();

        deleted.add(JOB, List.of(a, b));

        assertThat(deleted.stillCached(JOB, List.of(a, b))).containsExactlyInAnyOrder("uid-qs-worker-0", "uid-qs-worker-1");
        assertThat(deleted.stillCached(JOB, List.of(b))).containsExactly("uid-qs-worker-1");
        assertThat(deleted.stillCached(JOB, List.of(a, b))).as("a pod once gone is forgotten").containsExactly("uid-qs-worker-1");
        assertThat(deleted.stillCached(JOB, List.of())).isEmpty();
        assertThat(deleted.stillCached(new ObjectKey("default", "other"), List.of(a))).isEmpty();
    }
}
