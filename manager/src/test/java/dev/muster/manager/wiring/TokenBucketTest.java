package dev.muster.manager.wiring;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class TokenBucketTest {
    private static final long SECOND = 1_000_000_000L;

    @Test
    void aFullBucketLetsABurstThroughAtOnceThenSpacesRequestsAtTheRate() {
        TokenBucket bucket = new TokenBucket(10, 3, 0);

        assertThat(bucket.reserve(0)).isZero();
        assertThat(bucket.reserve(0)).isZero();
        assertThat(bucket.reserve(0)).isZero();
        assertThat(bucket.reserve(0)).as("the fourth waits for one token at 10/s").isEqualTo(SECOND / 10);
        assertThat(bucket.reserve(0)).as("the fifth waits behind it").isEqualTo(2 * SECOND / 10);
    }

    @Test
    void aQuietSpellRefillsTheBucketUpToTheBurstOnly() {
        TokenBucket bucket = new TokenBucket(10, 2, 0);
        bucket.reserve(0);
        bucket.reserve(0);

        long later = 60 * SECOND;
        assertThat(bucket.reserve(later)).isZero();
        assertThat(bucket.reserve(later)).isZero();
        assertThat(bucket.reserve(later)).as("a minute of quiet saves no more than the burst").isPositive();
    }

    @Test
    void requestsOverTimeGoAtTheRate() {
        TokenBucket bucket = new TokenBucket(100, 1, 0);
        long sent = 0;
        long at = 0;
        for (int i = 0; i < 1_000; i++) {
            at += bucket.reserve(at);
            sent++;
        }

        assertThat(sent / (at / (double) SECOND)).isBetween(99.0, 101.0);
    }

    @Test
    void refusesAnEmptyBucket() {
        assertThatThrownBy(() -> new TokenBucket(5, 0, 0)).hasMessageContaining("burst >= 1");
    }
}
