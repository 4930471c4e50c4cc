package dev.muster.job.lifecycle;

import dev.muster.api.batch.v1alpha1.JobPhase;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Optional;
import java.util.stream.Stream;

import static dev.muster.api.batch.v1alpha1.JobPhase.Aborted;
import static dev.muster.api.batch.v1alpha1.JobPhase.Completed;
import static dev.muster.api.batch.v1alpha1.JobPhase.Failed;
import static dev.muster.api.batch.v1alpha1.JobPhase.Pending;
import static dev.muster.api.batch.v1alpha1.JobPhase.Restarting;
import static dev.muster.api.batch.v1alpha1.JobPhase.Running;
import static dev.muster.api.batch.v1alpha1.JobPhase.Terminated;
import static dev.muster.job.lifecycle.JobAction.RestartJob;
import static dev.muster.job.lifecycle.JobAction.SyncJob;
import static org.assertj.core.api.Assertions.assertThat;

class JobLifecycleTest {
    private static final Verdict INVALID = new Verdict("InvalidSpec", "spec.tasks: must list at least one task");
    private static final Verdict STARTED = new Verdict("MinAvailableReached", "4/4 pods running or finished, minAvailable 4");
    private static final Completion SUCCESS = Completion.success("TasksSucceeded", "4/4 pods succeeded");
    private static final Completion FAILURE = Completion.failure("TasksFailed", "task worker: 1/3 pods succeeded, minAvailable 2");
    private static final Verdict STOPPED = new Verdict("Suspended", "spec.suspend is true; no pod is active any more");
    private static final Verdict REPLACED = new Verdict("Restarted", "every deleted pod is gone");
    private static final Verdict PREEMPTED = new Verdict("Preempted", "the scheduler preempted the gang (4 pods)");
    private static final Verdict OVERRUN = new Verdict("MaxRuntimeExceeded", "the job ran longer than spec.maxRuntime 1h");
    private static final Retries FRESH = new Retries(0, 3);
    private static final Retries USED_UP = new Retries(3, 3);

    private final JobLifecycle lifecycle = new JobLifecycle();

    private static Trigger trigger(JobAction action) {
        return Trigger.of(action, "PodFailed", "pod train-worker-2 exited 137 (OOMKilled)");
    }

    private static JobFacts facts(Optional<Verdict> fatal, Optional<Verdict> started, Optional<Completion> completion,
                                  Optional<Trigger> trigger, Retries retries, Optional<Verdict> stopped, Optional<Verdict> replaced) {
        return facts(fatal, started, completion, trigger, retries, stopped, replaced, Optional.empty());
    }

    private static JobFacts facts(Optional<Verdict> fatal, Optional<Verdict> started, Optional<Completion> completion,
                                  Optional<Trigger> trigger, Retries retries, Optional<Verdict> stopped, Optional<Verdict> replaced,
                                  Optional<Verdict> preempted) {
        return new JobFacts(fatal, started, completion, trigger, retries, stopped, replaced, preempted);
    }

    private static JobFacts triggered(JobAction action, Retries retries) {
        return facts(Optional.empty(), Optional.empty(), Optional.empty(), Optional.of(trigger(action)), retries,
                Optional.empty(), Optional.empty());
    }

    /** Facts that open exactly the guard of {@code row}. */
    private static JobFacts opening(JobLifecycle.Row row) {
        Optional<Verdict> none = Optional.empty();
        if (row.action() != SyncJob) {
            return triggered(row.action(), row.to() == Failed ? USED_UP : FRESH);
        }
        return switch (row.to()) {
            case Running -> facts(none, Optional.of(STARTED), Optional.empty(), Optional.empty(), FRESH, none, none);
            case Completed -> row.from() == Running
                    ? facts(none, Optional.of(STARTED), Optional.of(SUCCESS), Optional.empty(), FRESH, none, none)
                    : facts(none, none, Optional.empty(), Optional.empty(), FRESH, Optional.of(STOPPED), none);
            case Failed -> row.from() == Pending
                    ? facts(Optional.of(INVALID), none, Optional.empty(), Optional.empty(), FRESH, none, none)
                    : facts(none, Optional.of(STARTED), Optional.of(FAILURE), Optional.empty(), FRESH, none, none);
            case Pending -> row.from() == Running
                    ? facts(none, none, Optional.empty(), Optional.empty(), FRESH, none, none, Optional.of(PREEMPTED))
                    : facts(none, none, Optional.empty(), Optional.empty(), FRESH, none, Optional.of(REPLACED));
            case Aborted, Terminated -> facts(none, none, Optional.empty(), Optional.empty(), FRESH, Optional.of(STOPPED), none);
            default -> throw new AssertionError("no facts for " + row);
        };
    }

    static Stream<Arguments> rows() {
        return JobLifecycle.TRANSITIONS.stream().map(row -> Arguments.of(row.from() + " " + row.action() + " -> " + row.to(), row));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("rows")
    void everyRowOfTheTableIsTakenByTheStateMachineWithItsEffect(String name, JobLifecycle.Row row) {
        Optional<PhaseTransition> taken = lifecycle.fire(row.from(), row.action(), opening(row));

        assertThat(taken).as(name).isPresent();
        assertThat(taken.get().to()).isEqualTo(row.to());
        assertThat(taken.get().action()).isEqualTo(row.action());
        assertThat(taken.get().effect()).isEqualTo(row.effect());
        assertThat(taken.get().verdict().reason()).isNotBlank();
        assertThat(taken.get().verdict().message()).isNotBlank();
    }

    @Test
    void aRunningJobPastItsMaxRuntimeFailsWithThatReason() {
        assertThat(lifecycle.fire(Running, SyncJob, facts(Optional.of(OVERRUN), Optional.of(STARTED), Optional.of(SUCCESS),
                Optional.empty(), FRESH, Optional.empty(), Optional.empty(), Optional.of(PREEMPTED))))
                .contains(new PhaseTransition(Running, Failed, SyncJob, Effect.NONE, OVERRUN));
    }

    @Test
    void aPreemptedGangGoesBackToPendingWithoutARetryUnlessTheJobHasConcluded() {
        assertThat(lifecycle.fire(Running, SyncJob, facts(Optional.empty(), Optional.empty(), Optional.empty(),
                Optional.empty(), USED_UP, Optional.empty(), Optional.empty(), Optional.of(PREEMPTED))))
                .contains(new PhaseTransition(Running, Pending, SyncJob, Effect.PREEMPTED, PREEMPTED));
        assertThat(Effect.PREEMPTED.consumesRetry()).isFalse();
        assertThat(Effect.PREEMPTED.bumpsVersion()).isFalse();
        assertThat(lifecycle.fire(Running, SyncJob, facts(Optional.empty(), Optional.of(STARTED), Optional.of(SUCCESS),
                Optional.empty(), FRESH, Optional.empty(), Optional.empty(), Optional.of(PREEMPTED))))
                .map(PhaseTransition::to).contains(Completed);
    }

    @Test
    void restartTakesARetryAndSaysWhichOne() {
        Optional<PhaseTransition> taken = lifecycle.fire(Running, RestartJob, triggered(RestartJob, new Retries(1, 3)));

        assertThat(taken).contains(new PhaseTransition(Running, Restarting, RestartJob, Effect.RESTART_JOB,
                new Verdict("PodFailed", "pod train-worker-2 exited 137 (OOMKilled); action RestartJob, retry 2/3")));
    }

    @Test
    void aTriggersSentenceBecomesAClauseBeforeTheActionItTakes() {
        JobFacts pending = facts(Optional.empty(), Optional.empty(), Optional.empty(), Optional.of(Trigger.of(JobAction.AbortJob,
                "PodPending", "pod train-worker-0 pending for 5m0s: 0/2 nodes are available: gang needs minMember 2.")),
                new Retries(0, 3), Optional.empty(), Optional.empty());

        assertThat(pending.triggered()).map(Verdict::message).contains("pod train-worker-0 pending for 5m0s: 0/2 nodes are "
                + "available: gang needs minMember 2; action AbortJob");
    }

    @Test
    void restartWithoutRetriesLeftFailsTheJob() {
        assertThat(lifecycle.fire(Running, RestartJob, triggered(RestartJob, USED_UP))).contains(new PhaseTransition(
                Running, Failed, RestartJob, Effect.NONE, new Verdict("RetryLimitReached",
                "PodFailed: pod train-worker-2 exited 137 (OOMKilled); action RestartJob refused, 3/3 retries used")));
        assertThat(lifecycle.fire(Pending, RestartJob, triggered(RestartJob, new Retries(0, 0))))
                .as("maxRetry 0 means no retry").map(PhaseTransition::to).contains(Failed);
    }

    @Test
    void pendingJobStaysPendingUntilMinAvailablePodsHaveStarted() {
        assertThat(lifecycle.fire(Pending, SyncJob, JobFacts.NONE)).isEmpty();
    }

    @Test
    void restartingWaitsForTheDeletedPodsWhateverTheAction() {
        for (JobAction action : JobAction.values()) {
            assertThat(lifecycle.fire(Restarting, action, triggered(action, FRESH))).as("%s", action).isEmpty();
        }
    }

    @Test
    void finishedJobsStayFinished() {
        for (JobPhase phase : List.of(Completed, Failed, Terminated)) {
            for (JobFacts facts : everyCombination()) {
                for (JobAction action : JobAction.values()) {
                    assertThat(lifecycle.fire(phase, action, facts)).as("%s %s", phase, action).isEmpty();
                }
            }
        }
    }

    @Test
    void abortedJobOnlyResumesOrIsMarkedSuspended() {
        EnumSet<JobAction> moving = EnumSet.noneOf(JobAction.class);
        for (JobAction action : JobAction.values()) {
            if (lifecycle.fire(Aborted, action, triggered(action, FRESH)).isPresent()) {
                moving.add(action);
            }
        }
        assertThat(moving).containsExactlyInAnyOrder(JobAction.ResumeJob, JobAction.AbortJob);
    }

    @Test
    void guardsThatCompeteAreExclusiveForEveryCombinationOfFacts() {
        for (JobPhase phase : JobPhase.values()) {
            for (JobAction action : JobAction.values()) {
                for (JobFacts facts : everyCombination()) {
                    long open = JobLifecycle.TRANSITIONS.stream()
                            .filter(row -> row.from() == phase && row.action() == action)
                            .filter(row -> row.guard().apply(facts).isPresent())
                            .count();
                    assertThat(open).as("%s %s with %s", phase, action, facts).isLessThanOrEqualTo(1);
                }
            }
        }
    }

    private static List<JobFacts> everyCombination() {
        List<JobFacts> all = new ArrayList<>();
        for (Optional<Verdict> fatal : List.of(Optional.<Verdict>empty(), Optional.of(INVALID), Optional.of(OVERRUN))) {
            for (Optional<Verdict> started : List.of(Optional.<Verdict>empty(), Optional.of(STARTED))) {
                for (Optional<Completion> completion : List.of(Optional.<Completion>empty(), Optional.of(SUCCESS), Optional.of(FAILURE))) {
                    for (Optional<Trigger> trigger : List.of(Optional.<Trigger>empty(), Optional.of(trigger(RestartJob)))) {
                        for (Retries retries : List.of(FRESH, USED_UP)) {
                            for (Optional<Verdict> stopped : List.of(Optional.<Verdict>empty(), Optional.of(STOPPED))) {
                                for (Optional<Verdict> replaced : List.of(Optional.<Verdict>empty(), Optional.of(REPLACED))) {
                                    for (Optional<Verdict> preempted : List.of(Optional.<Verdict>empty(), Optional.of(PREEMPTED))) {
                                        all.add(facts(fatal, started, completion, trigger, retries, stopped, replaced, preempted));
                                    }
                                }
                            }
                        }
                    }
                }
            }
        }
        return all;
    }
}
