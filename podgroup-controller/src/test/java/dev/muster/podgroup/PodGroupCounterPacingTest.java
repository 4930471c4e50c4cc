package dev.muster.podgroup;

import dev.muster.api.scheduling.v1alpha1.PodGroupPhase;
import dev.muster.api.scheduling.v1alpha1.PodGroupStatus;
import dev.muster.support.controller.ObjectKey;
import dev.muster.support.status.CounterWritePacer;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.time.Instant;

import static org.assertj.core.api.Assertions.assertThat;

/** PodGroup status writes that move only the counters are paced; every other change is written at once. */
class PodGroupCounterPacingTest {
    private static final ObjectKey KEY = new ObjectKey("ns", "gang");
    private static final Instant T0 = Instant.parse("2025-01-01T10:00:00Z");
    private final CounterWritePacer<PodGroupStatus> pacer =
            new CounterWritePacer<>(Duration.ofSeconds(1), PodGroupCounters::countersOnly);

    @Test
    void holdsBackACounterOnlyChangeUntilTheIntervalSinceTheLastWriteIsOver() {
        pacer.written(KEY, T0);

        assertThat(pacer.holdBack(KEY, status(PodGroupPhase.Inqueue, 1), status(PodGroupPhase.Inqueue, 2), T0.plusMillis(400)))
                .contains(Duration.ofMillis(600));
        assertThat(pacer.holdBack(KEY, status(PodGroupPhase.Inqueue, 1), status(PodGroupPhase.Inqueue, 2), T0.plusSeconds(1)))
                .isEmpty();
    }

    @Test
    void neverHoldsBackAPhaseChangeAFirstWriteOrNoChange() {
        assertThat(pacer.holdBack(KEY, status(PodGroupPhase.Inqueue, 1), status(PodGroupPhase.Inqueue, 2), T0))
                .as("nothing written yet").isEmpty();
        pacer.written(KEY, T0);
        assertThat(pacer.holdBack(KEY, status(PodGroupPhase.Inqueue, 1), status(PodGroupPhase.Running, 2), T0)).isEmpty();
        assertThat(pacer.holdBack(KEY, null, status(PodGroupPhase.Pending, 0), T0)).isEmpty();
        assertThat(pacer.holdBack(KEY, status(PodGroupPhase.Inqueue, 1), status(PodGroupPhase.Inqueue, 1), T0)).isEmpty();
    }

    @Test
    void aForgottenGroupIsWrittenAtOnce() {
        pacer.written(KEY, T0);
        pacer.forget(KEY);

        assertThat(pacer.holdBack(KEY, status(PodGroupPhase.Inqueue, 1), status(PodGroupPhase.Inqueue, 2), T0)).isEmpty();
    }

    private static PodGroupStatus status(PodGroupPhase phase, int running) {
        var status = new PodGroupStatus();
        status.setPhase(phase);
        status.setRunning(running);
        return status;
    }
}
