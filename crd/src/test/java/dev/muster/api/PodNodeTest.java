package dev.muster.api;

import org.junit.jupiter.api.Test;

import static dev.muster.api.PodFixtures.pod;
import static org.assertj.core.api.Assertions.assertThat;

class PodNodeTest {
    @Test
    void anUnsetOrEmptyNodeNameIsNotBound() {
        assertThat(PodNode.of(pod(null, "Pending"))).isEmpty();
        assertThat(PodNode.isBound(pod("", "Pending"))).isFalse();
        assertThat(PodNode.holdsRoom(pod("", "Running"))).isFalse();
        assertThat(PodNode.of(pod("n1", "Pending"))).contains("n1");
    }

    @Test
    void aFinishedPodOnANodeHoldsNoRoom() {
        assertThat(PodNode.holdsRoom(pod("n1", "Running"))).isTrue();
        assertThat(PodNode.holdsRoom(pod("n1", "Pending"))).isTrue();
        assertThat(PodNode.holdsRoom(pod("n1", "Succeeded"))).isFalse();
        assertThat(PodNode.holdsRoom(pod("n1", "Failed"))).isFalse();
    }
}
