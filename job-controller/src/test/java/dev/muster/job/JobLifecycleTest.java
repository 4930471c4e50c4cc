package dev.muster.job;

import dev.muster.api.batch.v1alpha1.JobPhase;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

import static dev.muster.api.batch.v1alpha1.JobPhase.Completed;
import static dev.muster.api.batch.v1alpha1.JobPhase.Failed;
import static dev.muster.api.batch.v1alpha1.JobPhase.Pending;
import static dev.muster.api.batch.v1alpha1.JobPhase.Running;
import static dev.muster.job.JobAction.SyncJob;
import static org.assertj.core.api.Assertions.assertThat;

class JobLifecycleTest {
    private static final Verdict INVALID = new Verdict("InvalidSpec", "spec.tasks: must list at least one task");
    private static final Verdict STARTED = new Verdict("MinAvailableReached", "4/4 pods running or finished, minAvailable 4");
    private static final Completion SUCCESS = Completion.success("TasksSucceeded", "4/4 pods succeeded");
    private static final Completion FAILURE = Completion.failure("TasksFailed", "task worker: 1/3 pods succeeded, minAvailable 2");

    private static final JobFacts NOTHING = new JobFacts(Optional.empty(), Optional.empty(), Optional.empty());

    private final JobLifecycle lifecycle = new JobLifecycle();

    private static JobFacts invalid() {
        return new JobFacts(Optional.of(INVALID), Optional.empty(), Optional.empty());
    }

    private static JobFacts started() {
        return new JobFacts(Optional.empty(), Optional.of(STARTED), Optional.empty());
    }

    private static JobFacts finished(Completion completion) {
        return new JobFacts(Optional.empty(), Optional.of(STARTED), Optional.of(completion));
    }

    @Test
    void pendingJobRunsOnceMinAvailablePodsHaveStarted() {
        assertThat(lifecycle.fire(Pending, SyncJob, started()))
                .contains(new PhaseTransition(Pending, Running, STARTED));
        assertThat(lifecycle.fire(Pending, SyncJob, NOTHING)).isEmpty();
    }

    @Test
    void pendingJobWithInvalidSpecFails() {
        assertThat(lifecycle.fire(Pending, SyncJob, invalid())).contains(new PhaseTransition(Pending, Failed, INVALID));
    }

    @Test
    void runningJobCompletesOrFailsByTheCompletionRule() {
        assertThat(lifecycle.fire(Running, SyncJob, finished(SUCCESS)))
                .contains(new PhaseTransition(Running, Completed, SUCCESS.verdict()));
        assertThat(lifecycle.fire(Running, SyncJob, finished(FAILURE)))
                .contains(new PhaseTransition(Running, Failed, FAILURE.verdict()));
        assertThat(lifecycle.fire(Running, SyncJob, started())).isEmpty();
    }

    @Test
    void runningJobWithInvalidSpecFails() {
        assertThat(lifecycle.fire(Running, SyncJob, invalid())).contains(new PhaseTransition(Running, Failed, INVALID));
    }

    @Test
    void finishedJobsStayFinished() {
        for (JobFacts facts : List.of(NOTHING, invalid(), started(), finished(SUCCESS), finished(FAILURE))) {
            assertThat(lifecycle.fire(Completed, SyncJob, facts)).isEmpty();
            assertThat(lifecycle.fire(Failed, SyncJob, facts)).isEmpty();
        }
    }

    @Test
    void guardsThatCompeteAreExclusiveForEveryCombinationOfFacts() {
        List<JobFacts> everyCombination = new ArrayList<>();
        for (Optional<Verdict> invalid : List.of(Optional.<Verdict>empty(), Optional.of(INVALID))) {
            for (Optional<Verdict> started : List.of(Optional.<Verdict>empty(), Optional.of(STARTED))) {
                for (Optional<Completion> completion : List.of(Optional.<Completion>empty(), Optional.of(SUCCESS), Optional.of(FAILURE))) {
                    // JobFacts.of never sets other facts beside an invalid spec.
                    if (invalid.isEmpty() || (started.isEmpty() && completion.isEmpty())) {
                        everyCombination.add(new JobFacts(invalid, started, completion));
                    }
                }
            }
        }
        for (JobPhase phase : JobPhase.values()) {
            for (JobFacts facts : everyCombination) {
                long open = JobLifecycle.TRANSITIONS.stream()
                        .filter(row -> row.from() == phase && row.action() == SyncJob)
                        .filter(row -> row.guard().apply(facts).isPresent())
                        .count();
                assertThat(open).as("%s with %s", phase, facts).isLessThanOrEqualTo(1);
            }
        }
    }

    @Test
    void everyRowOfTheTableIsTakenByTheStateMachine() {
        for (JobLifecycle.Row row : JobLifecycle.TRANSITIONS) {
            JobFacts facts = switch (row.to()) {
                case Running -> started();
                case Completed -> finished(SUCCESS);
                case Failed -> row.from() == Pending ? invalid() : finished(FAILURE);
                default -> throw new AssertionError("no facts for " + row);
            };
            assertThat(lifecycle.fire(row.from(), row.action(), facts)).map(PhaseTransition::to).as("%s", row).contains(row.to());
        }
    }
}
