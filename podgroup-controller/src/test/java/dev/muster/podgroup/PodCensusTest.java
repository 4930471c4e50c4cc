package dev.muster.podgroup;

import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import dev.muster.api.scheduling.v1alpha1.PodGroupPhase;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Optional;

import static org.assertj.core.api.Assertions.assertThat;

class PodCensusTest {

    @Test
    void countsEachPodInOneBucketAndLeavesTerminatingPodsOut() {
        var census = PodCensus.of(List.of(
                pod(null, null),
                pod("Pending", null),
                pod("Pending", "node-1"),
                pod("Running", "node-1"),
                pod("Succeeded", "node-1"),
                pod("Failed", "node-2"),
                pod("Unknown", "node-2"),
                new PodBuilder(pod("Running", "node-2")).editMetadata().withDeletionTimestamp("2025-01-01T00:00:00Z").endMetadata().build()),
                node -> true);

        assertThat(census).isEqualTo(new PodCensus(2, 1, 1, 1, 1, 1));
        assertThat(census.total()).isEqualTo(7);
        assertThat(census.placed()).isEqualTo(3);
    }

    @Test
    void unfinishedPodsBoundToANodeThatIsGoneAreLostAndFinishedOnesKeepTheirPhase() {
        var census = PodCensus.of(List.of(
                pod(null, null),
                pod("Pending", "gone"),
                pod("Running", "gone"),
                pod("Succeeded", "gone"),
                pod("Failed", "gone"),
                pod("Running", "node-1")),
                "node-1"::equals);

        assertThat(census).isEqualTo(new PodCensus(1, 0, 1, 1, 1, 2));
    }

    @Test
    void podsThePreemptingSchedulerMarkedAreLeftOutSoAWholePreemptedGangHasNoPodsAndGoesBackToPending() {
        Pod victim = preempted(pod("Running", "node-1"), "PreemptionByScheduler");
        Pod otherDisruption = preempted(pod("Running", "node-1"), "DeletionByTaintManager");

        assertThat(PodCensus.of(List.of(victim, otherDisruption, pod("Running", "node-2")), node -> true))
                .isEqualTo(new PodCensus(0, 0, 2, 0, 0, 0));
        PodCensus wholeGang = PodCensus.of(List.of(victim, preempted(pod("Running", "node-2"), "PreemptionByScheduler")),
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

    private static Pod pod(String phase, String nodeName) {
        var builder = new PodBuilder().withNewMetadata().withName("p").withNamespace("ns").endMetadata()
                .withNewSpec().withNodeName(nodeName).endSpec();
        if (phase != null) {
            builder.withNewStatus().withPhase(phase).endStatus();
        }
        return builder.build();
    }
}
