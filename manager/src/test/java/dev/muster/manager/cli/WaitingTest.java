package dev.muster.manager.cli;

import org.junit.jupiter.api.Test;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

class WaitingTest {
    @Test
    void ordinalsAsWritten() {
        assertThat(List.of(1, 2, 3, 4, 11, 12, 13, 21, 22, 23, 101, 111).stream().map(Waiting::ordinal))
                .containsExactly("1st", "2nd", "3rd", "4th", "11th", "12th", "13th", "21st", "22nd", "23rd", "101st", "111th");
    }

    @Test
    void everyReasonKnownHasItsLineAndTheDecisiveOneComesFirst() {
        assertThat(new Waiting(true, List.of("each worker pod asks for 16 nvidia.com/gpu, the largest node has 8"), 2,
                "0/3 nodes are available: 3 Insufficient nvidia.com/gpu.").lines("train")).containsExactly(
                "suspended: spec.suspend is true; muster resume job train lets it run",
                "can never run: each worker pod asks for 16 nvidia.com/gpu, the largest node has 8",
                "2nd in the scheduler's queue; 0/3 nodes are available: 3 Insufficient nvidia.com/gpu.");
    }

    @Test
    void withoutTheQueueOrAMessage() {
        assertThat(new Waiting(false, List.of(), null, "waiting for scheduler muster").lines("a"))
                .containsExactly("waiting for scheduler muster");
        assertThat(new Waiting(false, List.of(), 1, null).lines("a")).containsExactly("1st in the scheduler's queue");
        assertThat(new Waiting(false, List.of(), null, null).lines("a"))
                .containsExactly("no reason known yet: the scheduler has not tried it");
    }
}
