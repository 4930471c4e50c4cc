package dev.muster.podgroup;

import dev.muster.support.controller.ObjectKey;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.time.Instant;

import static org.assertj.core.api.Assertions.assertThat;

class ReplacementWaitsTest {
    private static final ObjectKey KEY = new ObjectKey("ns", "gang");
    private static final Instant T0 = Instant.parse("2025-01-01T10:00:00Z");
    private final ReplacementWaits waits = new ReplacementWaits(Duration.ofSeconds(30));

    @Test
    void theClockStartsAtTheFirstWaitAndKeepsRunning() {
        assertThat(waits.overdue(KEY, T0)).isFalse();
        assertThat(waits.waiting(KEY, T0)).isEqualTo(Duration.ofSeconds(30));
        assertThat(waits.waiting(KEY, T0.plusSeconds(20))).isEqualTo(Duration.ofSeconds(10));
        assertThat(waits.overdue(KEY, T0.plusSeconds(29))).isFalse();
        assertThat(waits.overdue(KEY, T0.plusSeconds(30))).isTrue();
    }

    @Test
    void aStoppedClockStartsAfreshNextTime() {
        waits.waiting(KEY, T0);
        waits.stop(KEY);

        assertThat(waits.overdue(KEY, T0.plusSeconds(60))).isFalse();
        assertThat(waits.waiting(KEY, T0.plusSeconds(60))).isEqualTo(Duration.ofSeconds(30));
    }
}
