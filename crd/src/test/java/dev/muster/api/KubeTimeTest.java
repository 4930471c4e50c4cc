package dev.muster.api;

import org.junit.jupiter.api.Test;

import java.time.Instant;

import static org.assertj.core.api.Assertions.assertThat;

class KubeTimeTest {
    @Test
    void writesWholeSecondsInUtcAsTheApiServerKeepsThem() {
        assertThat(KubeTime.format(Instant.parse("2026-11-27T20:55:50.987654Z"))).isEqualTo("2026-11-27T20:55:50Z");
    }

    @Test
    void readsUtcOffsetsAndMicroTime() {
        Instant expected = Instant.parse("2026-11-27T20:55:50Z");
        assertThat(KubeTime.parse("2026-11-27T20:55:50Z")).isEqualTo(expected);
        assertThat(KubeTime.parse("2026-11-27T21:55:50+01:00")).isEqualTo(expected);
        assertThat(KubeTime.parse("2026-11-27T20:55:50.000000Z")).isEqualTo(expected);
        assertThat(KubeTime.parse(KubeTime.format(expected))).isEqualTo(expected);
    }

    @Test
    void aMissingOrUnreadableTimestampIsEmptyWhenTried() {
        assertThat(KubeTime.tryParse(null)).isEmpty();
        assertThat(KubeTime.tryParse(" ")).isEmpty();
        assertThat(KubeTime.tryParse("yesterday")).isEmpty();
        assertThat(KubeTime.tryParse("2026-11-27T20:55:50Z")).contains(Instant.parse("2026-11-27T20:55:50Z"));
    }
}
