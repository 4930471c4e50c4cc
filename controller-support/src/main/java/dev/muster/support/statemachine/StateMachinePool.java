package dev.muster.support.statemachine;

import org.springframework.statemachine.StateMachine;
import org.springframework.statemachine.config.StateMachineFactory;
import org.springframework.statemachine.support.DefaultStateMachineContext;

import java.util.Collections;
import java.util.EnumMap;
import java.util.Map;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;

/**
 * Started state machines of one definition, kept idle by the state they are in. Creating a machine
 * costs about a millisecond and resetting one to another state tens of microseconds, while an event
 * that changes nothing costs about ten; taking a machine that already sits in the wanted state makes
 * the common decision (a job stays in its phase) the cheap one. Thread-safe; a machine is used by one
 * caller at a time.
 *
 * @param <S> the state type
 * @param <E> the event type
 */
final class StateMachinePool<S extends Enum<S>, E> {
    private final StateMachineFactory<S, E> factory;
    private final Map<S, Queue<StateMachine<S, E>>> idle;

    StateMachinePool(Class<S> stateType, StateMachineFactory<S, E> factory) {
        this.factory = factory;
        Map<S, Queue<StateMachine<S, E>>> queues = new EnumMap<>(stateType);
        for (S state : stateType.getEnumConstants()) {
            queues.put(state, new ConcurrentLinkedQueue<>());
        }
        this.idle = Collections.unmodifiableMap(queues);
    }

    /** A started machine in the given state, for the caller's exclusive use until {@link #release}. */
    StateMachine<S, E> acquire(S state) {
        StateMachine<S, E> machine = idle.get(state).poll();
        if (machine != null) {
            return machine;
        }
        machine = pollAnyIdle();
        if (machine == null) {
            machine = factory.getStateMachine();
        }
        resetTo(machine, state);
        return machine;
    }

    /** Returns a machine for reuse; one that has recorded an error is dropped. */
    void release(StateMachine<S, E> machine) {
        if (machine.hasStateMachineError() || machine.getState() == null) {
            return;
        }
        idle.get(machine.getState().getId()).offer(machine);
    }

    /** Idle machines, for tests that check reuse. */
    int idleCount() {
        return idle.values().stream().mapToInt(Queue::size).sum();
    }

    private StateMachine<S, E> pollAnyIdle() {
        for (Queue<StateMachine<S, E>> queue : idle.values()) {
            StateMachine<S, E> machine = queue.poll();
            if (machine != null) {
                return machine;
            }
        }
        return null;
    }

    // Stop, reset, start is the sequence Spring StateMachine documents for restoring a machine's state.
    private void resetTo(StateMachine<S, E> machine, S state) {
        machine.stopReactively().block();
        machine.getStateMachineAccessor().doWithAllRegions(access -> access
                .resetStateMachineReactively(new DefaultStateMachineContext<>(state, null, null, null)).block());
        machine.startReactively().block();
    }
}
