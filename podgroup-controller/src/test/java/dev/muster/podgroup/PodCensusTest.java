package dev.muster.podgroup;

import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import dev.muster.api.scheduling.v1alpha1.PodGroupPhase;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Optional;

import static dev.muster.api.PodFixtures.pod;
import static org.assertj.core.api.Assertions.assertThat;

class PodCensusTest {

    @Test
    void countsEachPodInOneBucketAndLeavesTerminatingPodsOut() {
        var census = PodCensus.of(List.of(
                pod(null, null),
                pod(null, "Pending"),
                pod("node-1", "Pending"),
                pod("node-1", "Running"),
                pod("node-1", "Succeeded"),
                pod("node-2", "Failed"),
                pod("node-2", "Unknown"),
                new PodBuilder(pod("node-2", "Running")).editMetadata().withDeletionTimestamp("2025-01-01T00:00:00Z").endMetadata().build()),
                node -> true);

        assertThat(census).isEqualTo(new PodCensus(2, 1, 1, 1, 1, 1));
        assertThat(census.total()).isEqualTo(7);
        assertThat(census.placed()).isEqualTo(3);
    }

    @Test
    void unfinishedPodsBoundToANodeThatIsGoneAreLostAndFinishedOnesKeepTheirPhase() {
        var census = PodCensus.of(List.of(
                pod(null, null),
                pod("gone", "Pending"),
                pod("gone", "Running"),
                pod("gone", "Succeeded"),
                pod("gone", "Failed"),
                pod("node-1", "Running")),
                "node-1"::equals);

        assertThat(census).isEqualTo(new PodCensus(1, 0, 1, 1, 1, 2));
    }

    @Test
    void podsThePreemptingSchedulerMarkedAreLeftOutSoAWholePreemptedGangHasNoPodsAndGoesBackToPending() {
        Pod victim = preempted(pod("node-1", "Running"), "PreemptionByScheduler");
        Pod otherDisruption = preempted(pod("node-1", "Running"), "DeletionByTaintManager");

        assertThat(PodCensus.of(List.of(victim, otherDisruption, pod("node-2", "Running")), node -> true))
                .isEqualTo(new PodCensus(0, 0, 2, 0, 0, 0));
        PodCensus wholeGang = PodCensus.of(List.of(victim, preempted(pod("node-2", "Running"), "PreemptionByScheduler")),
                node -> true);
        assertThat(wholeGang).isEqualTo(PodCensus.EMPTY);
        GangEvent event = GangEvent.observe(wholeGang, 2, Optional.empty());
        assertThat(event).isEqualTo(GangEvent.NO_PODS);
        assertThat(new PodGroupPhaseMachine().next(PodGroupPhase.Running, event)).isEqualTo(PodGroupPhase.Pending);
        assertThat(new PodGroupPhaseMachine().next(PodGroupPhase.Unknown, event)).isEqualTo(PodGroupPhase.Pending);
    }

    private static Pod preempted(Pod pod, String reason) {
        return new PodBuilder(pod).editStatus().addNewCondition().withType("DisruptionTarget").withStatus("True")
                .withReason(reason).withMessage("preempted by ns/big").endCondition().endStatus().build();
    }
}
