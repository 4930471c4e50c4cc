package dev.muster.job;

import dev.muster.support.controller.ObjectKey;
import io.fabric8.kubernetes.api.model.Pod;
import org.junit.jupiter.api.Test;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

class CreatedPodsTest {
    private static final ObjectKey JOB = new ObjectKey("default", "qs");
    private static final Instant START = Instant.parse("2026-11-29T10:00:00Z");

    private final MovingClock clock = new MovingClock();
    private final CreatedPods created = new CreatedPods(clock);
    private final Pod first = TestJobs.pod(TestJobs.quickstart(), "worker", 0, "Pending");
    private final Pod second = TestJobs.pod(TestJobs.quickstart(), "worker", 1, "Pending");

    @Test
    void aCreatedPodIsExpectedUntilTheCacheShowsIt() {
        created.expect(JOB, "qs-worker-0");
        created.expect(JOB, "qs-worker-1");

        assertThat(created.notYetCached(JOB, List.of())).containsExactlyInAnyOrder("qs-worker-0", "qs-worker-1");
        assertThat(created.notYetCached(JOB, List.of(first))).containsExactly("qs-worker-1");
        assertThat(created.notYetCached(JOB, List.of())).as("a pod once cached is forgotten").containsExactly("qs-worker-1");
        assertThat(created.notYetCached(JOB, List.of(second))).isEmpty();
        assertThat(created.nextExpiry(JOB)).isEmpty();
        assertThat(created.notYetCached(new ObjectKey("default", "other"), List.of())).isEmpty();
    }

    @Test
    void theCachesAddEventOrARefusedCreationEndsTheExpectation() {
        created.expect(JOB, "qs-worker-0");
        created.expect(JOB, "qs-worker-1");

        created.observed(JOB, first);
        created.notCreated(JOB, "qs-worker-1");

        assertThat(created.notYetCached(JOB, List.of())).isEmpty();
    }

    @Test
    void aCreationTheCacheNeverShowsStopsHoldingThePodBackAfterTheTimeout() {
        created.expect(JOB, "qs-worker-0");
        clock.advance(Duration.ofMinutes(1));
        created.expect(JOB, "qs-worker-1");

        assertThat(created.nextExpiry(JOB)).hasValue(START.plus(CreatedPods.TIMEOUT));
        clock.advance(CreatedPods.TIMEOUT.minus(Duration.ofMinutes(1)).minus(Duration.ofSeconds(1)));
        assertThat(created.notYetCached(JOB, List.of())).containsExactlyInAnyOrder("qs-worker-0", "qs-worker-1");
        clock.advance(Duration.ofSeconds(2));
        assertThat(created.notYetCached(JOB, List.of())).containsExactly("qs-worker-1");
        assertThat(created.nextExpiry(JOB)).hasValue(START.plus(Duration.ofMinutes(1)).plus(CreatedPods.TIMEOUT));
    }

    @Test
    void aJobForgottenExpectsNothing() {
        created.expect(JOB, "qs-worker-0");

        created.forget(JOB);

        assertThat(created.notYetCached(JOB, List.of())).isEmpty();
    }

    /** A clock the test moves on. */
    private static final class MovingClock extends Clock {
        private Instant now = START;

        void advance(Duration by) {
            now = now.plus(by);
        }

        @Override
        public ZoneId getZone() {
            return ZoneOffset.UTC;
        }

        @Override
        public Clock withZone(ZoneId zone) {
            return this;
        }

        @Override
        public Instant instant() {
            return now;
        }
    }
}
