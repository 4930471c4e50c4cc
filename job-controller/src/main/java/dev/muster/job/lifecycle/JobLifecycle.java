package dev.muster.job.lifecycle;

import dev.muster.api.batch.v1alpha1.JobPhase;
import dev.muster.support.statemachine.TransitionRow;
import dev.muster.support.statemachine.TransitionTable;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.function.Function;

import static dev.muster.api.batch.v1alpha1.JobPhase.Aborted;
import static dev.muster.api.batch.v1alpha1.JobPhase.Aborting;
import static dev.muster.api.batch.v1alpha1.JobPhase.Completed;
import static dev.muster.api.batch.v1alpha1.JobPhase.Completing;
import static dev.muster.api.batch.v1alpha1.JobPhase.Failed;
import static dev.muster.api.batch.v1alpha1.JobPhase.Pending;
import static dev.muster.api.batch.v1alpha1.JobPhase.Restarting;
import static dev.muster.api.batch.v1alpha1.JobPhase.Running;
import static dev.muster.api.batch.v1alpha1.JobPhase.Terminated;
import static dev.muster.api.batch.v1alpha1.JobPhase.Terminating;
import static dev.muster.job.lifecycle.JobAction.AbortJob;
import static dev.muster.job.lifecycle.JobAction.CompleteJob;
import static dev.muster.job.lifecycle.JobAction.RestartJob;
import static dev.muster.job.lifecycle.JobAction.RestartPartition;
import static dev.muster.job.lifecycle.JobAction.RestartPod;
import static dev.muster.job.lifecycle.JobAction.RestartTask;
import static dev.muster.job.lifecycle.JobAction.ResumeJob;
import static dev.muster.job.lifecycle.JobAction.SyncJob;
import static dev.muster.job.lifecycle.JobAction.TerminateJob;

/**
 * The job lifecycle: the one Spring StateMachine definition of how a job moves between phases, used as
 * a pure decision (phase, action, facts) → transition through a {@link TransitionTable}, which evaluates each
 * guard once. {@link #TRANSITIONS} is the definition; the state machine is built from it once and executes
 * it, and tests and {@code docs/job-lifecycle.md} read the same table, so they cannot drift. The effect a transition reports is carried out by its caller:
 * counters by {@code JobStatusDecider}, pod deletions by {@code PodCleanup} and the reconciler. Thread-safe.
 */
public final class JobLifecycle {
    /**
     * One row of the lifecycle: on {@code action} in phase {@code from}, go to {@code to} when
     * {@code guard} yields a verdict, which becomes the transition's reason and message, and do {@code effect}.
     *
     * @param when what the guard tests, as {@code docs/job-lifecycle.md} shows it
     */
    public record Row(JobPhase from, JobAction action, JobPhase to, String when, Effect effect,
                      Function<JobFacts, Optional<Verdict>> guard)
            implements TransitionRow<JobPhase, JobAction, JobFacts, Verdict> {
        @Override
        public JobAction event() {
            return action;
        }

        @Override
        public Optional<Verdict> check(JobFacts facts) {
            return guard.apply(facts);
        }
    }

    /** Every transition of the lifecycle; guards of rows that share a source and an action are exclusive. */
    public static final List<Row> TRANSITIONS = table();

    private static List<Row> table() {
        List<Row> rows = new ArrayList<>();
        for (JobPhase live : List.of(Pending, Running)) {
            rows.add(new Row(live, RestartJob, Restarting, "a retry is left", Effect.RESTART_JOB, JobFacts::restartable));
            rows.add(new Row(live, RestartTask, Restarting, "a retry is left", Effect.RESTART_TASK, JobFacts::restartable));
            rows.add(new Row(live, RestartPod, Restarting, "a retry is left", Effect.RESTART_POD, JobFacts::restartable));
            rows.add(new Row(live, RestartPartition, Restarting, "a retry is left", Effect.RESTART_PARTITION,
                    JobFacts::restartable));
            for (JobAction restart : List.of(RestartJob, RestartTask, RestartPod, RestartPartition)) {
                rows.add(new Row(live, restart, Failed, "no retry is left (`RetryLimitReached`)", Effect.NONE,
                        JobFacts::retryLimitReached));
            }
            rows.add(new Row(live, AbortJob, Aborting, "always", Effect.STOP_ACTIVE_PODS, JobFacts::triggered));
            rows.add(new Row(live, TerminateJob, Terminating, "always", Effect.STOP_ACTIVE_PODS, JobFacts::triggered));
            rows.add(new Row(live, CompleteJob, Completing, "always", Effect.STOP_ACTIVE_PODS, JobFacts::triggered));
        }
        rows.add(new Row(Pending, SyncJob, Failed, "the spec is invalid (`InvalidSpec`) or a pod crash-loops",
                Effect.NONE, JobFacts::fatal));
        rows.add(new Row(Pending, SyncJob, Running, "running+succeeded+failed pods >= minAvailable",
                Effect.NONE, JobFacts::minAvailableReached));
        rows.add(new Row(Running, SyncJob, Completed, "the completion rule or minSuccess says succeeded",
                Effect.NONE, JobFacts::succeeded));
        rows.add(new Row(Running, SyncJob, Failed, "the spec is invalid, a pod crash-loops, the run lasted longer than "
                + "`maxRuntime` (`MaxRuntimeExceeded`), or the completion rule says failed", Effect.NONE, JobFacts::failed));
        rows.add(new Row(Running, SyncJob, Pending, "the scheduler preempted every running pod (`Preempted`)",
                Effect.PREEMPTED, JobFacts::preempted));
        rows.add(new Row(Restarting, SyncJob, Pending, "every deleted pod is gone", Effect.NONE, JobFacts::podsReplaced));
        rows.add(new Row(Aborting, SyncJob, Aborted, "no pod is active", Effect.NONE, JobFacts::podsStopped));
        rows.add(new Row(Terminating, SyncJob, Terminated, "no pod is active", Effect.NONE, JobFacts::podsStopped));
        rows.add(new Row(Completing, SyncJob, Completed, "no pod is active", Effect.NONE, JobFacts::podsStopped));
        rows.add(new Row(Aborting, ResumeJob, Restarting, "`spec.suspend` is no longer true", Effect.RESUME, JobFacts::triggered));
        rows.add(new Row(Aborted, ResumeJob, Restarting, "`spec.suspend` is no longer true", Effect.RESUME, JobFacts::triggered));
        rows.add(new Row(Aborted, AbortJob, Aborted, "`spec.suspend` is set on a job a policy aborted, so that it can be resumed",
                Effect.NONE, JobFacts::triggered));
        return List.copyOf(rows);
    }

    private final TransitionTable<JobPhase, JobAction, JobFacts, Verdict, Row> table =
            new TransitionTable<>("muster-job", JobPhase.class, JobAction.class, TRANSITIONS);

    /** Sends {@code action} to a machine in phase {@code from} and reports the transition it took, if any. */
    public Optional<PhaseTransition> fire(JobPhase from, JobAction action, JobFacts facts) {
        return table.fire(from, action, facts).map(fired -> new PhaseTransition(fired.row().from(), fired.row().to(),
                fired.row().action(), fired.row().effect(), fired.verdict()));
    }
}
