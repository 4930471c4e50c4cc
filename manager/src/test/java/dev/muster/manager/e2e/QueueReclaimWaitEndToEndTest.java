package dev.muster.manager.e2e;

import dev.muster.api.batch.v1alpha1.Job;
import dev.muster.api.batch.v1alpha1.JobPhase;
import dev.muster.api.scheduling.v1alpha1.PodGroup;
import dev.muster.api.scheduling.v1alpha1.PodGroupCondition;
import dev.muster.local.LocalClusterConfig;
import dev.muster.manager.QueueFixtures;
import org.junit.jupiter.api.AutoClose;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static dev.muster.manager.Patience.PATIENCE;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * "Why is my job pending" under reclaim, through the whole manager on one node of 8 GPUs: queue {@code a}
 * runs two jobs of 4 × 1 GPU, filling the node; queue {@code b} (same weight, {@code reclaimDelay: 1h})
 * submits one. Its fair share is 4 GPUs, so it will reclaim, but not before an hour: its PodGroup's
 * {@code Unschedulable} condition and its Job's status say so, with the instant the delay ends, which
 * stays the same from one cycle to the next. Production defaults but the reclaim delay.
 */
@Tag("emulator")
class QueueReclaimWaitEndToEndTest {
    private static final Pattern UNTIL = Pattern.compile(
            "Reclaim: queue b may take back room from other queues for it once it has waited the queue's "
                    + "reclaimDelay of 3600s, at (\\S+)\\.$");

    @AutoClose
    private final ManagerOnLocalCluster env = new ManagerOnLocalCluster(
            LocalClusterConfig.defaults().withNodes(1).withNodeGpus(8));

    @Test
    void aJobWaitingOutItsQueuesReclaimDelaySaysUntilWhenOnItsPodGroupAndStatus() {
        Instant submitted = Instant.now();
        QueueFixtures.create(env.client(), "a", "{weight: 1}");
        QueueFixtures.create(env.client(), "b", "{weight: 1, preemption: {reclaimDelay: 1h}}");
        createJob("a-0", "a");
        createJob("a-1", "a");
        await().atMost(PATIENCE).untilAsserted(() -> assertThat(List.of("a-0", "a-1"))
                .allSatisfy(job -> assertThat(env.phase(job)).isEqualTo(JobPhase.Running)));

        createJob("b-0", "b");

        String[] message = new String[1];
        await().atMost(PATIENCE).untilAsserted(() -> {
            PodGroup group = env.client().resources(PodGroup.class).inNamespace("default").withName("b-0").get();
            assertThat(group).isNotNull();
            assertThat(group.getStatus()).isNotNull();
            assertThat(group.getStatus().getConditions()).anySatisfy(c -> {
                assertThat(c.getType()).isEqualTo(PodGroupCondition.UNSCHEDULABLE);
                assertThat(c.getStatus()).isEqualTo("True");
                assertThat(c.getMessage()).contains("Insufficient nvidia.com/gpu").containsPattern(UNTIL);
                message[0] = c.getMessage();
            });
        });
        Matcher until = UNTIL.matcher(message[0]);
        assertThat(until.find()).isTrue();
        // The delay runs from the first cycle the gang did not start: an hour after it was submitted, give or
        // take the time the manager took to try it.
        assertThat(Instant.parse(until.group(1))).isBetween(submitted.plus(Duration.ofHours(1)),
                Instant.now().plus(Duration.ofHours(1)));
        await().atMost(PATIENCE).untilAsserted(() -> {
            Job job = env.job("b-0");
            assertThat(job.getStatus().getState().getPhase()).isEqualTo(JobPhase.Pending);
            assertThat(job.getStatus().getState().getMessage()).contains(until.group(0));
        });
        assertThat(List.of("a-0", "a-1")).allSatisfy(job -> assertThat(env.phase(job)).isEqualTo(JobPhase.Running));
    }

    private void createJob(String name, String queue) {
        env.client().resource(QueueFixtures.fourGpuGang(env.client(), name, queue)).create();
    }
}
