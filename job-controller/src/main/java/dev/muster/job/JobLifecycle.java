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

import java.util.EnumSet;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Function;

import static dev.muster.api.batch.v1alpha1.JobPhase.Completed;
import static dev.muster.api.batch.v1alpha1.JobPhase.Failed;
import static dev.muster.api.batch.v1alpha1.JobPhase.Pending;
import static dev.muster.api.batch.v1alpha1.JobPhase.Running;
import static dev.muster.job.JobAction.SyncJob;

/**
 * The job lifecycle: the one Spring StateMachine definition of how a job moves between phases, used as
 * a pure decision (phase, action, facts) → transition. {@link #TRANSITIONS} is the definition; the state
 * machine is built from it once and executes it, and tests read the same table, so they cannot drift.
 * Thread-safe.
 */
public final class JobLifecycle {
    /**
     * One row of the lifecycle: on {@code action} in phase {@code from}, go to {@code to} when
     * {@code guard} yields a verdict, which becomes the transition's reason and message.
     */
    public record Row(JobPhase from, JobAction action, JobPhase to, Function<JobFacts, Optional<Verdict>> guard) {
    }

    /** Every transition of the lifecycle; guards of rows that share a source and an action are exclusive. */
    public static final List<Row> TRANSITIONS = List.of(
            new Row(Pending, SyncJob, Failed, JobFacts::invalidSpec),
            new Row(Pending, SyncJob, Running, JobFacts::minAvailableReached),
            new Row(Running, SyncJob, Completed, JobFacts::succeeded),
            new Row(Running, SyncJob, Failed, JobFacts::failed));

    private static final String FACTS = "muster.job.facts";
    private static final String OUTCOME = "muster.job.outcome";

    private final StateMachinePool<JobPhase, JobAction> machines =
            new StateMachinePool<>(JobPhase.class, definition());

    /**
     * Sends {@code action} to a machine in phase {@code from} and reports the transition it took, if any.
     */
    public Optional<PhaseTransition> fire(JobPhase from, JobAction action, JobFacts facts) {
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
                                row.guard().apply(facts(context)).orElseThrow())));
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
