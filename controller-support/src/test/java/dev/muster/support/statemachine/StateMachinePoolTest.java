package dev.muster.support.statemachine;

import org.junit.jupiter.api.Test;
import org.springframework.statemachine.config.StateMachineBuilder;
import org.springframework.statemachine.config.StateMachineFactory;

import java.util.EnumSet;

import static dev.muster.support.statemachine.StateMachinePoolTest.Phase.Pending;
import static dev.muster.support.statemachine.StateMachinePoolTest.Phase.Running;
import static org.assertj.core.api.Assertions.assertThat;

class StateMachinePoolTest {
    enum Phase { Pending, Running }

    enum Event { Start }

    private final StateMachinePool<Phase, Event> pool = new StateMachinePool<>(Phase.class, definition());

    private static StateMachineFactory<Phase, Event> definition() {
        StateMachineBuilder.Builder<Phase, Event> builder = StateMachineBuilder.builder();
        try {
            builder.configureConfiguration().withConfiguration().autoStartup(false);
            builder.configureStates().withStates().initial(Pending).states(EnumSet.allOf(Phase.class));
            builder.configureTransitions().withExternal().source(Pending).target(Running).event(Event.Start);
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
        return builder.createFactory();
    }

    @Test
    void handsBackAnIdleMachineAlreadyInTheWantedState() {
        var first = pool.acquire(Running);
        pool.release(first);

        var second = pool.acquire(Running);

        assertThat(second).isSameAs(first);
        assertThat(second.getState().getId()).isEqualTo(Running);
    }

    @Test
    void resetsAnIdleMachineOfAnotherStateRatherThanBuildingOne() {
        var machine = pool.acquire(Running);
        pool.release(machine);

        var reset = pool.acquire(Pending);

        assertThat(reset).isSameAs(machine);
        assertThat(reset.getState().getId()).isEqualTo(Pending);
        assertThat(pool.idleCount()).isZero();
    }

    @Test
    void concurrentCallersGetDistinctMachines() {
        var a = pool.acquire(Pending);
        var b = pool.acquire(Pending);

        assertThat(a).isNotSameAs(b);
        pool.release(a);
        pool.release(b);
        assertThat(pool.idleCount()).isEqualTo(2);
    }
}
