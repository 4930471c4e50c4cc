package dev.muster.api.batch.v1alpha1;

import org.junit.jupiter.api.Test;

import java.time.Duration;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

class GoDurationTest {

    @Test
    void parsesGoDurations() {
        assertThat(GoDuration.parse("30s")).isEqualTo(Duration.ofSeconds(30));
        assertThat(GoDuration.parse("1h30m")).isEqualTo(Duration.ofMinutes(90));
        assertThat(GoDuration.parse("1.5s")).isEqualTo(Duration.ofMillis(1500));
        assertThat(GoDuration.parse("250ms")).isEqualTo(Duration.ofMillis(250));
        assertThat(GoDuration.parse("0s")).isZero();
    }

    @Test
    void refusesAnythingElse() {
        for (String bad : new String[] {"", "5", "5 minutes", "m5", "1d", "1h 30m", "-5s"}) {
            assertThatIllegalArgumentException().as(bad).isThrownBy(() -> GoDuration.parse(bad));
        }
    }

    @Test
    void formatsLikeGoToWholeSeconds() {
        assertThat(GoDuration.format(Duration.ZERO)).isEqualTo("0s");
        assertThat(GoDuration.format(Duration.ofMillis(45_900))).isEqualTo("45s");
        assertThat(GoDuration.format(Duration.ofSeconds(120))).isEqualTo("2m0s");
        assertThat(GoDuration.format(Duration.ofSeconds(3723))).isEqualTo("1h2m3s");
        assertThat(GoDuration.format(Duration.ofSeconds(-5))).isEqualTo("0s");
    }
}
