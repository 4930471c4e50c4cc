package dev.muster.support.status;

import dev.muster.support.controller.ObjectKey;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.time.Instant;

import static org.assertj.core.api.Assertions.assertThat;

class FirstWriteWaitTest {
    private static final ObjectKey KEY = new ObjectKey("ns", "job");
    private static final Instant T0 = Instant.parse("2026-11-28T10:00:00.400Z");
    private final FirstWriteWait waits = new FirstWriteWait(Duration.ofSeconds(1));

    @Test
    void theWaitIsCountedFromWhenTheObjectWasFirstSeenAndEndsAfterIt() {
        assertThat(waits.left(KEY, true, T0)).contains(Duration.ofSeconds(1));
        assertThat(waits.left(KEY, true, T0.plusMillis(300))).contains(Duration.ofMillis(700));
        assertThat(waits.left(KEY, true, T0.plusSeconds(1))).isEmpty();
        // Run out, it stays run out until the write lands: a lost write is retried at once.
        assertThat(waits.left(KEY, true, T0.plusMillis(1500))).isEmpty();
    }

    @Test
    void anObjectThatMayNotWaitIsWrittenAtOnceAndAForgottenOneStartsAfresh() {
        waits.left(KEY, true, T0);
        waits.left(new ObjectKey("ns", "other"), true, T0);

        assertThat(waits.left(KEY, false, T0.plusMillis(100))).isEmpty();
        waits.forget(new ObjectKey("ns", "other"));

        assertThat(waits.left(new ObjectKey("ns", "other"), true, T0.plusMillis(900))).contains(Duration.ofSeconds(1));
    }
}
