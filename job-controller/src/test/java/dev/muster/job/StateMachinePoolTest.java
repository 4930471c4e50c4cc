package dev.muster.job;

import dev.muster.api.batch.v1alpha1.JobPhase;
import org.junit.jupiter.api.Test;

import static dev.muster.api.batch.v1alpha1.JobPhase.Pending;
import static dev.muster.api.batch.v1alpha1.JobPhase.Running;
import static org.assertj.core.api.Assertions.assertThat;

class StateMachinePoolTest {
    private final StateMachinePool<JobPhase, JobAction> pool =
            new StateMachinePool<>(JobPhase.class, JobLifecycle.definition());

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
