package dev.muster.job;

import org.junit.jupiter.api.Test;

import java.time.Duration;

import static org.assertj.core.api.Assertions.assertThat;

class GoDurationsTest {

    @Test
    void formatsLikeGoToWholeSeconds() {
        assertThat(GoDurations.format(Duration.ZERO)).isEqualTo("0s");
        assertThat(GoDurations.format(Duration.ofMillis(45_900))).isEqualTo("45s");
        assertThat(GoDurations.format(Duration.ofSeconds(120))).isEqualTo("2m0s");
        assertThat(GoDurations.format(Duration.ofSeconds(3723))).isEqualTo("1h2m3s");
        assertThat(GoDurations.format(Duration.ofSeconds(-5))).isEqualTo("0s");
    }
}
