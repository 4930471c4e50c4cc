package dev.muster.support.statemachine;

import org.springframework.messaging.Message;
import org.springframework.messaging.support.MessageBuilder;
import org.springframework.statemachine.StateMachine;
import org.springframework.statemachine.StateMachineEventResult;
import org.springframework.statemachine.config.StateMachineBuilder;
import org.springframework.statemachine.config.StateMachineFactory;
import org.springframework.statemachine.config.builders.StateMachineTransitionConfigurer;
import reactor.core.publisher.Mono;

import java.util.Collections;
import java.util.EnumMap;
import java.util.EnumSet;
import java.util.HashSet;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * A Spring StateMachine built from a table of rows and used as a pure function: given a state, an event
 * and the facts the guards test, which row fires. Each guard of a row leaving that state on that event is
 * evaluated exactly once, before the machine is asked; the machine's own guards only look up those
 * answers, so Spring StateMachine may consult them as often as it likes. When no guard is open the answer
 * is known without the machine: that is the common decision (an object stays in its state), and it then
 * costs no more than the guards. Machines are taken from a {@link StateMachinePool}, so a decision never
 * builds one once the pool is warm. Thread-safe.
 *
 * @param <S> the state type
 * @param <E> the event type
 * @param <F> what the guards test
 * @param <V> what an open guard yields
 * @param <R> the row type
 */
public final class TransitionTable<S extends Enum<S>, E extends Enum<E>, F, V, R extends TransitionRow<S, E, F, V>> {
    private static final String OPEN = "muster.statemachine.open-rows";

    private final List<R> rows;
    private final Map<S, Map<E, List<R>>> index;
    private final StateMachinePool<S, E> machines;

    /**
     * @param machineId  names the machine in Spring StateMachine's logs
     * @param stateType  the state enum; every constant is a state
     * @param eventType  the event enum
     * @param rows       the transitions; no two share source, event and target, so the target the machine
     *                   reaches names the row that fired
     */
    public TransitionTable(String machineId, Class<S> stateType, Class<E> eventType, List<R> rows) {
        this.rows = List.copyOf(rows);
        this.index = index(stateType, eventType, this.rows);
        this.machines = new StateMachinePool<>(stateType, definition(machineId, stateType, this.rows));
    }

    /** The rows, in the order given. */
    public List<R> rows() {
        return rows;
    }

    /**
     * Sends {@code event} to a machine in state {@code from} and reports the row it took, with its guard's
     * verdict; empty when no row leaving {@code from} on {@code event} has an open guard.
     */
    public Optional<Fired<R, V>> fire(S from, E event, F facts) {
        Map<R, V> open = new IdentityHashMap<>();
        for (R row : index.get(from).get(event)) {
            row.check(facts).ifPresent(verdict -> open.put(row, verdict));
        }
        if (open.isEmpty()) {
            return Optional.empty();
        }
        Message<E> message = MessageBuilder.withPayload(event)
                .setHeader(OPEN, Collections.unmodifiableSet(open.keySet()))
                .build();
        StateMachine<S, E> machine = machines.acquire(from);
        try {
            boolean accepted = machine.sendEvent(Mono.just(message)).toStream()
                    .anyMatch(result -> result.getResultType() == StateMachineEventResult.ResultType.ACCEPTED);
            S to = machine.getState().getId();
            return accepted ? open.entrySet().stream().filter(e -> e.getKey().to() == to).findFirst()
                    .map(e -> new Fired<>(e.getKey(), e.getValue())) : Optional.empty();
        } finally {
            machines.release(machine);
        }
    }

    /**
     * The row a decision took and what its guard yielded.
     *
     * @param <R> the row type
     * @param <V> the verdict type
     */
    public record Fired<R, V>(R row, V verdict) {
    }

    private static <S extends Enum<S>, E extends Enum<E>, R extends TransitionRow<S, E, ?, ?>> Map<S, Map<E, List<R>>> index(
            Class<S> stateType, Class<E> eventType, List<R> rows) {
        Set<List<Object>> seen = new HashSet<>();
        for (R row : rows) {
            if (!seen.add(List.of(row.from(), row.event(), row.to()))) {
                throw new IllegalArgumentException("two rows " + row.from() + " --" + row.event() + "--> " + row.to());
            }
        }
        Map<S, Map<E, List<R>>> index = new EnumMap<>(stateType);
        for (S state : stateType.getEnumConstants()) {
            Map<E, List<R>> byEvent = new EnumMap<>(eventType);
            for (E event : eventType.getEnumConstants()) {
                byEvent.put(event, rows.stream().filter(r -> r.from() == state && r.event() == event).toList());
            }
            index.put(state, byEvent);
        }
        return index;
    }

    private static <S extends Enum<S>, E extends Enum<E>, R extends TransitionRow<S, E, ?, ?>> StateMachineFactory<S, E> definition(
            String machineId, Class<S> stateType, List<R> rows) {
        StateMachineBuilder.Builder<S, E> builder = StateMachineBuilder.builder();
        try {
            builder.configureConfiguration().withConfiguration().machineId(machineId).autoStartup(false);
            builder.configureStates().withStates().initial(stateType.getEnumConstants()[0])
                    .states(EnumSet.allOf(stateType));
            StateMachineTransitionConfigurer<S, E> transitions = builder.configureTransitions();
            for (R row : rows) {
                transitions.withExternal().source(row.from()).target(row.to()).event(row.event())
                        .guard(context -> openRows(context.getMessageHeaders().get(OPEN)).contains(row));
            }
        } catch (Exception e) {
            throw new IllegalStateException("state machine " + machineId + " is invalid", e);
        }
        return builder.createFactory();
    }

    private static Set<?> openRows(Object header) {
        return header instanceof Set<?> set ? set : Set.of();
    }
}
