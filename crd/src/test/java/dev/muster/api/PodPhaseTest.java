package dev.muster.api;

import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class PodPhaseTest {

    @Test
    void aPodWithoutStatusOrPhaseIsPending() {
        assertThat(PodPhase.of(new PodBuilder().withNewMetadata().withName("p").endMetadata().build()))
                .isEqualTo(PodPhase.Pending);
        assertThat(PodPhase.of(pod(""))).isEqualTo(PodPhase.Pending);
    }

    @Test
    void knownPhasesReadAsThemselvesAndAnUnknownOneAsUnknown() {
        for (PodPhase phase : PodPhase.values()) {
            assertThat(PodPhase.of(pod(phase.name()))).isEqualTo(phase);
        }
        assertThat(PodPhase.of(pod("Hibernating"))).isEqualTo(PodPhase.Unknown);
    }

    @Test
    void onlySucceededAndFailedAreFinished() {
        assertThat(PodPhase.isFinished(pod("Succeeded"))).isTrue();
        assertThat(PodPhase.isFinished(pod("Failed"))).isTrue();
        assertThat(PodPhase.isActive(pod("Running"))).isTrue();
        assertThat(PodPhase.isActive(pod("Unknown"))).isTrue();
        assertThat(PodPhase.isActive(pod(null))).isTrue();
    }

    @Test
    void aPodWithADeletionTimestampIsTerminating() {
        Pod pod = pod("Running");
        assertThat(PodPhase.isTerminating(pod)).isFalse();
        pod.getMetadata().setDeletionTimestamp("2026-11-25T00:00:00Z");
        assertThat(PodPhase.isTerminating(pod)).isTrue();
    }

    private static Pod pod(String phase) {
        return new PodBuilder().withNewMetadata().withName("p").endMetadata().withNewStatus().withPhase(phase).endStatus()
                .build();
    }
}
