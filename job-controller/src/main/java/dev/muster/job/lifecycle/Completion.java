package dev.muster.job.lifecycle;

/**
 * The completion rule's conclusion about a job.
 *
 * @param succeeded whether the job completed (else it failed)
 * @param verdict   why
 */
public record Completion(boolean succeeded, Verdict verdict) {

    /** The job completed, for {@code reason}: {@code message}. */
    public static Completion success(String reason, String message) {
        return new Completion(true, new Verdict(reason, message));
    }

    /** The job failed, for {@code reason}: {@code message}. */
    public static Completion failure(String reason, String message) {
        return new Completion(false, new Verdict(reason, message));
    }
}
