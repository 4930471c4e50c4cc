package dev.muster.podgroup;

import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import org.junit.jupiter.api.Test;

import java.util.List;

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

    private static Pod pod(String phase, String nodeName) {
        var builder = new PodBuilder().withNewMetadata().withName("p").withNamespace("ns").endMetadata()
                .withNewSpec().withNodeName(nodeName).endSpec();
        if (phase != null) {
            builder.withNewStatus().withPhase(phase).endStatus();
        }
        return builder.build();
    }
}
