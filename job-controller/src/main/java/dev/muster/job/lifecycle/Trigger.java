package dev.muster.job.lifecycle;

import java.util.Optional;

/**
 * Why the controller takes an action other than {@code SyncJob}: a matched policy, or {@code spec.suspend}.
 *
 * @param action  the action to take
 * @param verdict the event and what happened, e.g. {@code PodFailed}, {@code pod train-worker-2 exited 137 (OOMKilled)}
 * @param task    the task whose pods a {@code RestartTask} deletes
 * @param pod     the pod a {@code RestartPod} deletes, and whose partition a {@code RestartPartition} does
 */
public record Trigger(JobAction action, Verdict verdict, Optional<String> task, Optional<String> pod) {

    /** A job-wide trigger, with no task or pod. */
    public static Trigger of(JobAction action, String reason, String message) {
        return new Trigger(action, new Verdict(reason, message), Optional.empty(), Optional.empty());
    }
}
