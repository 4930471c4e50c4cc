package dev.muster.job.lifecycle;

import dev.muster.api.batch.v1alpha1.JobDefaults;

/**
 * A job's retry budget.
 *
 * @param used retries taken ({@code status.retryCount})
 * @param max  retries allowed (effective {@code spec.maxRetry}; 0 means none)
 */
public record Retries(int used, int max) {
    /** No retry taken yet of the default budget. */
    public static final Retries NONE_USED = new Retries(0, JobDefaults.DEFAULT_MAX_RETRY);

    /** Whether another restart is allowed. */
    public boolean left() {
        return used < max;
    }
}
