package dev.muster.manager.e2e;

import dev.muster.api.MusterLabels;
import dev.muster.api.batch.v1alpha1.Job;
import dev.muster.api.batch.v1alpha1.JobPhase;
import dev.muster.api.scheduling.v1alpha1.PodGroup;
import dev.muster.api.scheduling.v1alpha1.PodGroupPhase;
import dev.muster.local.LocalClusterConfig;
import dev.muster.local.manifest.Manifest;
import dev.muster.local.manifest.ManifestLoader;
import dev.muster.support.Stillness;
import io.fabric8.kubernetes.api.model.Pod;
import org.junit.jupiter.api.AutoClose;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;

import static dev.muster.manager.Patience.PATIENCE;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * {@code examples/gpu-queue.yaml} with every component of the manager, on three nodes of 4 GPUs: jobs are
 * admitted node by node before they create pods, a job waits with no pods while the room it needs is
 * promised or used, and a job that fits only by the sum of free GPUs is never admitted.
 */
@Tag("emulator")
class GpuQueueEndToEndTest {
    @AutoClose
    private final ManagerOnLocalCluster env = new ManagerOnLocalCluster(LocalClusterConfig.defaults().withNodes(3).withNodeGpus(4));

    @Test
    void theSecondJobWaitsWithoutPodsUntilTheFirstFinishesAndTheFragmentedOneIsNeverAdmitted() throws Exception {
        List<Manifest> manifests = ManifestLoader.load(List.of(Path.of("../examples/gpu-queue.yaml")));
        manifests.forEach(m -> env.client().resource(m.object()).create());

        // Each of train-a (3 × 4 GPUs) and train-b (2 × 4 GPUs) needs whole nodes of the three: whichever the
        // scheduler sees first is admitted, and the other waits, with no pods, until it has finished.
        await().atMost(PATIENCE).until(() -> env.phase("train-a") == JobPhase.Running || env.phase("train-b") == JobPhase.Running);
        String first = env.phase("train-a") == JobPhase.Running ? "train-a" : "train-b";
        String second = first.equals("train-a") ? "train-b" : "train-a";
        await().atMost(PATIENCE).untilAsserted(() -> {
            assertThat(env.phase(first)).isEqualTo(JobPhase.Running);
            assertThat(pods(second)).as("%s is not admitted while %s holds the GPUs", second, first).isEmpty();
            assertThat(podGroup(second).getStatus().getPhase()).isEqualTo(PodGroupPhase.Pending);
            assertThat(env.job(second).getStatus().getState().getMessage())
                    .startsWith("waiting for scheduler muster to admit PodGroup " + second
                            + ": 0/3 nodes are available: 3 Insufficient nvidia.com/gpu.");
        });

        await().atMost(PATIENCE).until(() -> env.phase(first) == JobPhase.Completed);
        await().atMost(PATIENCE).until(() -> env.phase(second) == JobPhase.Completed);

        // 12 GPUs are free now, 4 on each node: enough by their sum for 2 × 6, on no node for one.
        Stillness.holds(PATIENCE, "two scheduling cycles", env.twoCyclesFromNow(), Duration.ofSeconds(2), () -> {
            assertThat(pods("llm")).isEmpty();
            assertThat(podGroup("llm").getStatus().getPhase()).isEqualTo(PodGroupPhase.Pending);
            assertThat(env.job("llm").getStatus().getState().getMessage()).isEqualTo(
                    "waiting for scheduler muster to admit PodGroup llm: 0/3 nodes are available: "
                            + "3 Insufficient nvidia.com/gpu. The gang needs 2 pod(s) placed at once for minMember 2.");
        });
    }



    private PodGroup podGroup(String name) {
        return env.client().resources(PodGroup.class).inNamespace("default").withName(name).get();
    }

    private List<Pod> pods(String job) {
        return env.client().pods().inNamespace("default").withLabel(MusterLabels.JOB_NAME, job).list().getItems();
    }
}
