package dev.muster.job;

import dev.muster.api.batch.v1alpha1.JobPhase;
import org.springframework.messaging.Message;
import org.springframework.messaging.support.MessageBuilder;
import org.springframework.statemachine.StateContext;
import org.springframework.statemachine.StateMachine;
import org.springframework.statemachine.config.StateMachineBuilder;
import org.springframework.statemachine.config.StateMachineFactory;
import org.springframework.statemachine.config.builders.StateMachineTransitionConfigurer;
import reactor.core.publisher.Mono;

import java.util.ArrayList;
import java.util.EnumMap;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicReference;
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
import static dev.muster.job.JobAction.AbortJob;
import static dev.muster.job.JobAction.CompleteJob;
import static dev.muster.job.JobAction.RestartJob;
import static dev.muster.job.JobAction.RestartPod;
import static dev.muster.job.JobAction.RestartTask;
import static dev.muster.job.JobAction.ResumeJob;
import static dev.muster.job.JobAction.SyncJob;
import static dev.muster.job.JobAction.TerminateJob;

/**
 * The job lifecycle: the one Spring StateMachine definition of how a job moves between phases, used as
 * a pure decision (phase, action, facts) → transition. {@link #TRANSITIONS} is the definition; the state
 * machine is built from it once and executes it, and tests and {@code docs/job-lifecycle.md} read the
 * same table, so they cannot drift. The effect a transition reports is carried out by its caller:
 * counters by {@link JobStatusDecider}, pod deletions by {@link PodCleanup} and the reconciler. Thread-safe.
 */
public final class JobLifecycle {
    /**
     * One row of the lifecycle: on {@code action} in phase {@code from}, go to {@code to} when
     * {@code guard} yields a verdict, which becomes the transition's reason and message, and do {@code effect}.
     *
     * @param when what the guard tests, as {@code docs/job-lifecycle.md} shows it
     */
    public record Row(JobPhase from, JobAction action, JobPhase to, String when, Effect effect,
                      Function<JobFacts, Optional<Verdict>> guard) {
    }

    /** Every transition of the lifecycle; guards of rows that share a source and an action are exclusive. */
    public static final List<Row> TRANSITIONS = table();

    private static List<Row> table() {
        List<Row> rows = new ArrayList<>();
        for (JobPhase live : List.of(Pending, Running)) {
            rows.add(new Row(live, RestartJob, Restarting, "a retry is left", Effect.RESTART_JOB, JobFacts::restartable));
            rows.add(new Row(live, RestartTask, Restarting, "a retry is left", Effect.RESTART_TASK, JobFacts::restartable));
            rows.add(new Row(live, RestartPod, Restarting, "a retry is left", Effect.RESTART_POD, JobFacts::restartable));
            for (JobAction restart : List.of(RestartJob, RestartTask, RestartPod)) {
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
        rows.add(new Row(Running, SyncJob, Failed, "the spec is invalid, a pod crash-loops, or the completion rule says failed",
                Effect.NONE, JobFacts::failed));
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

    /** {@link #TRANSITIONS} by source phase and action. */
    private static final Map<JobPhase, Map<JobAction, List<Row>>> ROWS = index(TRANSITIONS);

    private static final String FACTS = "muster.job.facts";
    private static final String OUTCOME = "muster.job.outcome";

    private final StateMachinePool<JobPhase, JobAction> machines =
            new StateMachinePool<>(JobPhase.class, definition());

    /**
     * Sends {@code action} to a machine in phase {@code from} and reports the transition it took, if any.
     * When no row from that phase for that action has an open guard, the answer is known without the
     * machine: that is the common decision (a job stays in its phase), and it is then several times cheaper.
     */
    public Optional<PhaseTransition> fire(JobPhase from, JobAction action, JobFacts facts) {
        if (ROWS.get(from).get(action).stream().noneMatch(row -> row.guard().apply(facts).isPresent())) {
            return Optional.empty();
        }
        AtomicReference<PhaseTransition> outcome = new AtomicReference<>();
        Message<JobAction> message = MessageBuilder.withPayload(action)
                .setHeader(FACTS, facts)
                .setHeader(OUTCOME, outcome)
                .build();
        StateMachine<JobPhase, JobAction> machine = machines.acquire(from);
        try {
            machine.sendEvent(Mono.just(message)).blockLast();
        } finally {
            machines.release(machine);
        }
        return Optional.ofNullable(outcome.get());
    }

    private static Map<JobPhase, Map<JobAction, List<Row>>> index(List<Row> rows) {
        Map<JobPhase, Map<JobAction, List<Row>>> index = new EnumMap<>(JobPhase.class);
        for (JobPhase phase : JobPhase.values()) {
            Map<JobAction, List<Row>> byAction = new EnumMap<>(JobAction.class);
            for (JobAction action : JobAction.values()) {
                byAction.put(action, rows.stream().filter(r -> r.from() == phase && r.action() == action).toList());
            }
            index.put(phase, byAction);
        }
        return index;
    }

    /** Builds the state machine definition from {@link #TRANSITIONS}; machines are made from it. */
    static StateMachineFactory<JobPhase, JobAction> definition() {
        StateMachineBuilder.Builder<JobPhase, JobAction> builder = StateMachineBuilder.builder();
        try {
            builder.configureConfiguration().withConfiguration().machineId("muster-job").autoStartup(false);
            builder.configureStates().withStates().initial(Pending).states(EnumSet.allOf(JobPhase.class));
            StateMachineTransitionConfigurer<JobPhase, JobAction> transitions = builder.configureTransitions();
            for (Row row : TRANSITIONS) {
                transitions.withExternal()
                        .source(row.from()).target(row.to()).event(row.action())
                        .guard(context -> row.guard().apply(facts(context)).isPresent())
                        .action(context -> outcome(context).set(new PhaseTransition(row.from(), row.to(),
                                row.action(), row.effect(), row.guard().apply(facts(context)).orElseThrow())));
            }
        } catch (Exception e) {
            throw new IllegalStateException("job lifecycle definition is invalid", e);
        }
        return builder.createFactory();
    }

    private static JobFacts facts(StateContext<JobPhase, JobAction> context) {
        return context.getMessageHeaders().get(FACTS, JobFacts.class);
    }

    @SuppressWarnings("unchecked")
    private static AtomicReference<PhaseTransition> outcome(StateContext<JobPhase, JobAction> context) {
        return context.getMessageHeaders().get(OUTCOME, AtomicReference.class);
    }
}
