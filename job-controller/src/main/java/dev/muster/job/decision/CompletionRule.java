package dev.muster.job.decision;

import dev.muster.job.lifecycle.Completion;
import dev.muster.api.batch.v1alpha1.JobDefaults;
import dev.muster.api.batch.v1alpha1.JobSpec;
import dev.muster.api.batch.v1alpha1.TaskSpec;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * Decides whether a job has completed or failed, as Volcano's
 * <a href="https://github.com/volcano-sh/volcano/blob/master/docs/design/task-minavailable.md">task-level
 * minAvailable</a> does: once every pod has finished, each task needs at least its {@code minAvailable}
 * Succeeded pods and the job at least its {@code minAvailable}, else it failed; {@code minSuccess}
 * Succeeded pods complete it at once. An {@linkplain JobDefaults#elastic elastic} job's tasks have no
 * minimum here, as Volcano's running state skips the per-task check when the job's {@code minAvailable}
 * is below the sum of its tasks' ({@code pkg/controllers/job/state/running.go}).
 */
public final class CompletionRule {
    public static final String MIN_SUCCESS_REACHED = "MinSuccessReached";
    public static final String TASKS_SUCCEEDED = "TasksSucceeded";
    public static final String TASKS_FAILED = "TasksFailed";
    public static final String MIN_AVAILABLE_NOT_REACHED = "MinAvailableNotReached";
    public static final String MIN_SUCCESS_NOT_REACHED = "MinSuccessNotReached";

    private CompletionRule() {
    }

    /** The conclusion, or empty while pods are still to finish and minSuccess is not reached. */
    public static Optional<Completion> judge(JobSpec spec, PodCounts counts) {
        int total = JobDefaults.totalReplicas(spec);
        String tally = counts.succeeded() + "/" + total + " pods succeeded";
        Integer minSuccess = spec.getMinSuccess();
        if (minSuccess != null && counts.succeeded() >= minSuccess) {
            return Optional.of(Completion.success(MIN_SUCCESS_REACHED, tally + ", minSuccess " + minSuccess));
        }
        if (counts.finished() < total) {
            return Optional.empty();
        }
        // minSuccess is the user's own bar for success; if they set it, a finished job must meet it too.
        if (minSuccess != null) {
            return Optional.of(Completion.failure(MIN_SUCCESS_NOT_REACHED, tally + ", minSuccess " + minSuccess));
        }
        List<String> shortTasks = new ArrayList<>();
        for (TaskSpec task : spec.getTasks()) {
            int need = JobDefaults.enforcedMinAvailable(spec, task);
            int got = counts.succeeded(task.getName());
            if (got < need) {
                shortTasks.add("task " + task.getName() + ": " + got + "/" + JobDefaults.replicas(task)
                        + " pods succeeded, minAvailable " + need);
            }
        }
        if (!shortTasks.isEmpty()) {
            return Optional.of(Completion.failure(TASKS_FAILED, String.join("; ", shortTasks)));
        }
        int jobMin = JobDefaults.minAvailable(spec);
        if (counts.succeeded() < jobMin) {
            return Optional.of(Completion.failure(MIN_AVAILABLE_NOT_REACHED, tally + ", minAvailable " + jobMin));
        }
        if (JobDefaults.elastic(spec)) {
            return Optional.of(Completion.success(TASKS_SUCCEEDED, tally + ", minAvailable " + jobMin
                    + " (elastic: the tasks' minimums are not enforced)"));
        }
        return Optional.of(Completion.success(TASKS_SUCCEEDED, tally + "; every task reached its minAvailable"));
    }
}
