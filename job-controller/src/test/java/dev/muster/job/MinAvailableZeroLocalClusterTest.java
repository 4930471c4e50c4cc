package dev.muster.job;

import dev.muster.api.batch.v1alpha1.TaskSpec;
import dev.muster.api.scheduling.v1alpha1.PodGroup;
import dev.muster.api.scheduling.v1alpha1.PodGroupPhase;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.api.model.ResourceRequirementsBuilder;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;

import static dev.muster.api.batch.v1alpha1.JobPhase.Running;
import static dev.muster.job.Patience.PATIENCE;
import static dev.muster.job.TestJobs.task;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * A Job with {@code minAvailable: 0} (a PodGroup of {@code minMember: 0}) means one thing to the gang scheduler and
 * to the PodGroup controller: a gang of at least one pod, whose pods are placed as they fit. Here, as in
 * production, the scheduler and the PodGroup controller run beside the Job controller.
 */
@Tag("emulator")
class MinAvailableZeroLocalClusterTest extends LocalClusterTestBase {

    @Test
    void podsArePlacedAsTheyFitAndTheGroupRunsOnceOneDoes() {
        // One node of 16 CPUs holds two of the three 6-CPU pods.
        TaskSpec worker = runFor("60", task("worker", 3, 0));
        worker.getTemplate().getSpec().getContainers().get(0)
                .setResources(new ResourceRequirementsBuilder().withRequests(Map.of("cpu", new Quantity("6"))).build());
        create(newJob("elastic", 0, worker));

        await().atMost(PATIENCE).until(() -> bound("elastic").size() == 2 && pods("elastic").size() == 3);
        await().atMost(PATIENCE).until(() -> podGroup("elastic").map(PodGroup::getStatus)
                .map(s -> s.getPhase() == PodGroupPhase.Running).orElse(false));
        assertThat(podGroup("elastic").orElseThrow().getSpec().getMinMember()).isZero();
        await().atMost(PATIENCE).until(() -> status("elastic"), in(Running));
        assertThat(bound("elastic")).as("the third pod waits for room").hasSize(2);
    }

    private static List<Pod> bound(String job) {
        return pods(job).stream().filter(p -> p.getSpec().getNodeName() != null).toList();
    }
}
