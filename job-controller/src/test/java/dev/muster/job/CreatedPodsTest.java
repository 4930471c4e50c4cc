package dev.muster.job;

import dev.muster.api.batch.v1alpha1.Job;
import io.fabric8.kubernetes.api.model.Pod;
import org.junit.jupiter.api.Test;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;

import static org.assertj.core.api.Assertions.assertThat;

class CreatedPodsTest {
    private static final Instant START = Instant.parse("2026-11-29T10:00:00Z");

    private final MovingClock clock = new MovingClock();
    private final CreatedPods created = new CreatedPods(clock);
    private final Job job = TestJobs.quickstart();
    private final String uid = job.getMetadata().getUid();
    private final Pod first = TestJobs.pod(job, "worker", 0, "Pending");

    @Test
    void aCreatedPodIsExpectedUntilTheCachesAddEventShowsIt() {
        created.expect(uid, "qs-worker-0");
        created.expect(uid, "qs-worker-1");

        assertThat(created.expected(uid)).containsExactlyInAnyOrder("qs-worker-0", "qs-worker-1");
        created.observed(first);
        assertThat(created.expected(uid)).containsExactly("qs-worker-1");
        assertThat(created.expected("another-uid")).isEmpty();
    }

    @Test
    void aCreationThatStoredNothingEndsTheExpectation() {
        created.expect(uid, "qs-worker-0");

        created.notCreated(uid, "qs-worker-0");

        assertThat(created.expected(uid)).isEmpty();
        assertThat(created.nextExpiry(uid)).isEmpty();
    }

    @Test
    void aJobMadeAgainUnderTheSameNameExpectsNothingOfTheEarlierOnesPods() {
        created.expect("uid-of-the-earlier-job", "qs-worker-0");

        assertThat(created.expected(uid)).isEmpty();
        created.observed(first);
        assertThat(created.expected("uid-of-the-earlier-job")).as("its own pod, of another uid, is not it")
                .containsExactly("qs-worker-0");
    }

    @Test
    void aCreationTheCacheNeverShowsStopsHoldingThePodBackAfterTheTimeoutAndNoExpiryIsInThePast() {
        created.expect(uid, "qs-worker-0");
        clock.advance(Duration.ofMinutes(1));
        created.expect(uid, "qs-worker-1");

        assertThat(created.nextExpiry(uid)).hasValue(START.plus(CreatedPods.TIMEOUT));
        clock.advance(CreatedPods.TIMEOUT.minus(Duration.ofMinutes(1)).minus(Duration.ofSeconds(1)));
        assertThat(created.expected(uid)).containsExactlyInAnyOrder("qs-worker-0", "qs-worker-1");
        clock.advance(Duration.ofSeconds(2));
        assertThat(created.nextExpiry(uid)).hasValue(START.plus(Duration.ofMinutes(1)).plus(CreatedPods.TIMEOUT));
        assertThat(created.expected(uid)).containsExactly("qs-worker-1");
        clock.advance(Duration.ofMinutes(1));
        assertThat(created.nextExpiry(uid)).as("an expiry passed is not asked to wake the job again").isEmpty();
    }

    @Test
    void aControllerStartingAgainExpectsNothing() {
        created.expect(uid, "qs-worker-0");

        created.clear();

        assertThat(created.expected(uid)).isEmpty();
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
