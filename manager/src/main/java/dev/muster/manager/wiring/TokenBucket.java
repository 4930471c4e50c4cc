package dev.muster.manager.wiring;

/**
 * The token bucket client-go throttles its clients with ({@code flowcontrol.NewTokenBucketRateLimiter}, Go's
 * {@code x/time/rate}): {@code burst} tokens at most, refilled at {@code qps} a second, one per request. A
 * request that finds the bucket empty reserves the next token and waits for it, so waiting requests go out
 * in turn at {@code qps}. Hand-written because the libraries in the build do not have it with a burst of its
 * own (Guava's {@code RateLimiter} allows one second's worth of requests, whatever the burst).
 */
final class TokenBucket {
    private static final double NANOS_PER_SECOND = 1e9;

    private final double tokensPerNano;
    private final double burst;
    private double tokens;
    private long updatedNanos;

    /** A full bucket at {@code nowNanos}. */
    TokenBucket(double qps, int burst, long nowNanos) {
        if (qps <= 0 || burst < 1) {
            throw new IllegalArgumentException("a token bucket needs qps > 0 and burst >= 1, got " + qps + " and " + burst);
        }
        this.tokensPerNano = qps / NANOS_PER_SECOND;
        this.burst = burst;
        this.tokens = burst;
        this.updatedNanos = nowNanos;
    }

    /** Takes a token at {@code nowNanos}; how long to wait, in nanoseconds, before sending (0: at once). */
    synchronized long reserve(long nowNanos) {
        if (nowNanos > updatedNanos) {
            tokens = Math.min(burst, tokens + (nowNanos - updatedNanos) * tokensPerNano);
            updatedNanos = nowNanos;
        }
        tokens -= 1;
        return tokens >= 0 ? 0 : Math.round(-tokens / tokensPerNano);
    }
}
