package dev.muster.cli;

import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.time.Instant;

import static org.assertj.core.api.Assertions.assertThat;

class AgesTest {
    @Test
    void largestWholeUnitAsKubectlGetShowsIt() {
        assertThat(Ages.of(Duration.ofSeconds(5))).isEqualTo("5s");
        assertThat(Ages.of(Duration.ofSeconds(59))).isEqualTo("59s");
        assertThat(Ages.of(Duration.ofSeconds(60))).isEqualTo("1m");
        assertThat(Ages.of(Duration.ofMinutes(3).plusSeconds(59))).isEqualTo("3m");
        assertThat(Ages.of(Duration.ofHours(2).plusMinutes(59))).isEqualTo("2h");
        assertThat(Ages.of(Duration.ofDays(4).plusHours(23))).isEqualTo("4d");
        assertThat(Ages.of(Duration.ofDays(800))).isEqualTo("2y");
    }

    @Test
    void aSecondOfClockSkewIsNowAndMoreIsInvalid() {
        assertThat(Ages.of(Duration.ofMillis(-1500))).isEqualTo("0s");
        assertThat(Ages.of(Duration.ofSeconds(-3))).isEqualTo("<invalid>");
    }

    @Test
    void sinceAnRfc3339Timestamp() {
        assertThat(Ages.since("2026-01-01T00:00:00Z", Instant.parse("2026-01-01T00:02:30Z"))).isEqualTo("2m");
        assertThat(Ages.since(null, Instant.EPOCH)).isEqualTo("<unknown>");
    }
}
