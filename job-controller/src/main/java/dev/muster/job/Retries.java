package dev.muster.job;

/**
 * A job's retry budget.
 *
 * @param used retries taken ({@code status.retryCount})
 * @param max  retries allowed (effective {@code spec.maxRetry}; 0 means none)
 */
public record Retries(int used, int max) {
    public static final Retries NONE_USED = new Retries(0, 3);

    /** Whether another restart is allowed. */
    public boolean left() {
        return used < max;
    }
}
