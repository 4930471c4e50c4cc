package dev.muster.job.decision;

import java.time.Instant;
import java.util.Optional;
import java.util.Set;

/**
 * Something that happened to a job that a lifecycle policy can act on: what a policy's {@code event} (or
 * {@code exitCode}) names, observed by {@link PolicyEventObserver}. Not a core/v1 Event.
 *
 * @param event     PodFailed, PodEvicted, PodPending, Unknown, TaskCompleted or TaskFailed; empty when only
 *                  exit codes are of interest (a container of a running pod exited and was restarted)
 * @param task      the task it happened to, if any (for Unknown, none)
 * @param pod       the pod it happened to, if any
 * @param exitCodes non-zero exit codes of the pod's terminated containers, current or previous runs
 * @param since     when it started, from which a policy's timeout counts
 * @param message   what happened, e.g. {@code pod train-worker-2 exited 137 (OOMKilled)}
 */
record PolicyEvent(Optional<String> event, Optional<String> task, Optional<String> pod, Set<Integer> exitCodes,
                     Instant since, String message) {
}
