package dev.muster.scheduler.autoscaling;

import java.time.Duration;
import java.util.Objects;

/**
 * The scheduler's side of the cluster autoscaler.
 *
 * @param mode              how gangs that wait for capacity are shown to the autoscaler
 * @param provisioningClass the class of ProvisioningRequests for gangs whose Job and Queue name none
 *                          ({@link ProvisioningRequestApi#CLASS_SETTING_ANNOTATION})
 * @param retryBackoff      how long after a gang's first request failed it gets a new one; doubled per attempt
 * @param maxRetryBackoff   the longest wait for a new request
 */
public record AutoscalingConfig(AutoscalingMode mode, String provisioningClass, Duration retryBackoff,
                                Duration maxRetryBackoff) {
    /** Default {@link #retryBackoff()}, Kueue's base for ProvisioningRequest retries. */
    public static final Duration DEFAULT_RETRY_BACKOFF = Duration.ofMinutes(1);
    /** Default {@link #maxRetryBackoff()}. */
    public static final Duration DEFAULT_MAX_RETRY_BACKOFF = Duration.ofMinutes(30);

    public AutoscalingConfig {
        Objects.requireNonNull(mode, "mode");
        provisioningClass = provisioningClass == null || provisioningClass.isBlank()
                ? ProvisioningRequestApi.BEST_EFFORT_ATOMIC : provisioningClass;
        retryBackoff = retryBackoff == null ? DEFAULT_RETRY_BACKOFF : retryBackoff;
        maxRetryBackoff = maxRetryBackoff == null ? DEFAULT_MAX_RETRY_BACKOFF : maxRetryBackoff;
        if (retryBackoff.isNegative() || retryBackoff.isZero() || maxRetryBackoff.compareTo(retryBackoff) < 0) {
            throw new IllegalArgumentException("muster.scheduler.provisioning-retry-backoff must be positive and at "
                    + "most muster.scheduler.provisioning-max-retry-backoff: " + retryBackoff + ", " + maxRetryBackoff);
        }
    }

    /** The production defaults: automatic mode, the atomic class, a minute's backoff doubling up to 30 minutes. */
    public static AutoscalingConfig defaults() {
        return new AutoscalingConfig(AutoscalingMode.AUTO, null, null, null);
    }
}
