package dev.muster.job.lifecycle;

/**
 * Why a job enters a phase, as written to {@code status.state} and to the Event that reports it.
 *
 * @param reason  one CamelCase word, e.g. {@code TasksSucceeded}
 * @param message what happened, in numbers, e.g. {@code task worker: 1/3 pods succeeded, minAvailable 2}
 */
public record Verdict(String reason, String message) {
}
