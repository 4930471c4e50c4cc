package dev.muster.cli;

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
        assertThat(new Waiting(true, null, List.of("each worker pod asks for 16 nvidia.com/gpu, the largest node has 8"), 2,
                "0/3 nodes are available: 3 Insufficient nvidia.com/gpu.").lines("train")).containsExactly(
                "suspended: spec.suspend is true; muster resume job train lets it run",
                "can never run: each worker pod asks for 16 nvidia.com/gpu, the largest node has 8",
                "2nd in the scheduler's queue; 0/3 nodes are available: 3 Insufficient nvidia.com/gpu.");
    }

    @Test
    void withoutTheQueueOrAMessage() {
        assertThat(new Waiting(false, null, List.of(), null, "waiting for scheduler muster").lines("a"))
                .containsExactly("waiting for scheduler muster");
        assertThat(new Waiting(false, null, List.of(), 1, null).lines("a")).containsExactly("1st in the scheduler's queue");
        assertThat(new Waiting(false, null, List.of(), null, null).lines("a"))
                .containsExactly("no reason known yet: the scheduler has not tried it");
    }

    @Test
    void aQueuesHoldIsWhyItWaitsWhateverTheSchedulerSaysOfTheGang() {
        String closed = "queue archive is Closed: the job starts once its spec.state is Open (muster describe queue archive)";
        assertThat(new Waiting(false, closed, List.of(), 1, "Admitted").lines("a")).containsExactly(closed);
        assertThat(new Waiting(true, closed, List.of("each worker pod asks for 16 nvidia.com/gpu, the largest node has 8"),
                null, null).lines("a")).containsExactly(
                "suspended: spec.suspend is true; muster resume job a lets it run", closed,
                "can never run: each worker pod asks for 16 nvidia.com/gpu, the largest node has 8");
    }
}
