package dev.muster.api;

import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import org.junit.jupiter.api.Test;

import static dev.muster.api.PodFixtures.pod;
import static org.assertj.core.api.Assertions.assertThat;

class PodPhaseTest {

    @Test
    void aPodWithoutStatusOrPhaseIsPending() {
        assertThat(PodPhase.of(new PodBuilder().withNewMetadata().withName("p").endMetadata().build()))
                .isEqualTo(PodPhase.Pending);
        assertThat(PodPhase.of(pod(null, ""))).isEqualTo(PodPhase.Pending);
    }

    @Test
    void knownPhasesReadAsThemselvesAndAnUnknownOneAsUnknown() {
        for (PodPhase phase : PodPhase.values()) {
            assertThat(PodPhase.of(pod(null, phase.name()))).isEqualTo(phase);
        }
        assertThat(PodPhase.of(pod(null, "Hibernating"))).isEqualTo(PodPhase.Unknown);
    }

    @Test
    void onlySucceededAndFailedAreFinished() {
        assertThat(PodPhase.isFinished(pod(null, "Succeeded"))).isTrue();
        assertThat(PodPhase.isFinished(pod(null, "Failed"))).isTrue();
        assertThat(PodPhase.isActive(pod(null, "Running"))).isTrue();
        assertThat(PodPhase.isActive(pod(null, "Unknown"))).isTrue();
        assertThat(PodPhase.isActive(new PodBuilder().withNewStatus().endStatus().build())).isTrue();
    }

    @Test
    void aPodWithADeletionTimestampIsTerminating() {
        Pod pod = pod(null, "Running");
        assertThat(PodPhase.isTerminating(pod)).isFalse();
        pod.getMetadata().setDeletionTimestamp("2026-11-25T00:00:00Z");
        assertThat(PodPhase.isTerminating(pod)).isTrue();
    }
}
