package dev.muster.job;

/**
 * The completion rule's conclusion about a job.
 *
 * @param succeeded whether the job completed (else it failed)
 * @param verdict   why
 */
public record Completion(boolean succeeded, Verdict verdict) {

    static Completion success(String reason, String message) {
        return new Completion(true, new Verdict(reason, message));
    }

    static Completion failure(String reason, String message) {
        return new Completion(false, new Verdict(reason, message));
    }
}
