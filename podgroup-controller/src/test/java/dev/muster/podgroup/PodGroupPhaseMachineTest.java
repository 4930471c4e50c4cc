package dev.muster.podgroup;

import dev.muster.api.scheduling.v1alpha1.PodGroupPhase;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.EnumSource;

import static org.assertj.core.api.Assertions.assertThat;

class PodGroupPhaseMachineTest {
    private static final PodGroupPhaseMachine MACHINE = new PodGroupPhaseMachine();

    @ParameterizedTest(name = "{0} --{1}--> {2}")
    @CsvSource({
            "Pending,   GANG_PLACED,        Inqueue",
            "Pending,   GANG_ADMITTED,      Inqueue",
            "Pending,   QUORUM_RUNNING,     Running",
            "Pending,   GANG_SUCCEEDED,     Completed",
            "Pending,   GANG_FAILED,        Failed",
            "Pending,   MEMBERS_STOPPED,    Failed",
            "Inqueue,   QUORUM_RUNNING,     Running",
            "Inqueue,   GANG_UNPLACEABLE,   Pending",
            "Inqueue,   NO_PODS,            Pending",
            "Inqueue,   GANG_SUCCEEDED,     Completed",
            "Inqueue,   GANG_FAILED,        Failed",
            "Inqueue,   MEMBERS_STOPPED,    Failed",
            "Running,   GANG_ADMITTED,      Inqueue",
            "Running,   GANG_UNPLACEABLE,   Unknown",
            "Running,   MEMBERS_NOT_REPLACED, Unknown",
            "Running,   NO_PODS,            Pending",
            "Running,   GANG_SUCCEEDED,     Completed",
            "Running,   GANG_FAILED,        Failed",
            "Running,   MEMBERS_STOPPED,    Completed",
            "Unknown,   NO_PODS,            Pending",
            "Unknown,   GANG_PLACED,        Inqueue",
            "Unknown,   GANG_ADMITTED,      Inqueue",
            "Unknown,   QUORUM_RUNNING,     Running",
            "Unknown,   GANG_SUCCEEDED,     Completed",
            "Unknown,   GANG_FAILED,        Failed",
            "Unknown,   MEMBERS_STOPPED,    Completed",
            "Completed, NO_PODS,            Pending",
            "Completed, GANG_ADMITTED,      Inqueue",
            "Completed, GANG_PLACED,        Inqueue",
            "Completed, QUORUM_RUNNING,     Running",
            "Failed,    NO_PODS,            Pending",
            "Failed,    GANG_ADMITTED,      Inqueue",
            "Failed,    GANG_PLACED,        Inqueue",
            "Failed,    QUORUM_RUNNING,     Running",
            "Failed,    GANG_SUCCEEDED,     Completed",
    })
    void transitions(PodGroupPhase from, GangEvent event, PodGroupPhase to) {
        assertThat(MACHINE.next(from, event)).isEqualTo(to);
    }

    @ParameterizedTest(name = "{0} --{1}--> {0}")
    @CsvSource({
            "Pending,   NO_PODS",
            "Pending,   GANG_UNPLACEABLE",
            "Inqueue,   GANG_PLACED",
            "Inqueue,   GANG_ADMITTED",
            "Running,   QUORUM_RUNNING",
            "Running,   GANG_PLACED",
            "Unknown,   GANG_UNPLACEABLE",
            "Unknown,   MEMBERS_NOT_REPLACED",
            "Pending,   MEMBERS_NOT_REPLACED",
            "Completed, GANG_FAILED",
            "Completed, MEMBERS_STOPPED",
            "Failed,    MEMBERS_STOPPED",
            "Failed,    GANG_FAILED",
            "Failed,    GANG_UNPLACEABLE",
    })
    void eventsWithoutTransitionKeepThePhase(PodGroupPhase from, GangEvent event) {
        assertThat(MACHINE.next(from, event)).isEqualTo(from);
    }

    @ParameterizedTest
    @EnumSource(PodGroupPhase.class)
    void anIncompleteGangNeverMovesAPhase(PodGroupPhase from) {
        assertThat(MACHINE.next(from, GangEvent.GANG_INCOMPLETE)).isEqualTo(from);
    }

    @Test
    void anAdmissionThatExpiresOrIsWithdrawnReturnsTheGroupToPending() {
        PodGroupPhase admitted = MACHINE.next(PodGroupPhase.Pending, GangEvent.GANG_ADMITTED);

        assertThat(admitted).isEqualTo(PodGroupPhase.Inqueue);
        assertThat(MACHINE.next(admitted, GangEvent.NO_PODS)).as("no pods yet").isEqualTo(PodGroupPhase.Pending);
        assertThat(MACHINE.next(admitted, GangEvent.GANG_UNPLACEABLE)).as("pods waiting").isEqualTo(PodGroupPhase.Pending);
    }

    @Test
    void eachDecisionStartsFromTheGivenPhaseNotTheLastOne() {
        assertThat(MACHINE.next(PodGroupPhase.Pending, GangEvent.QUORUM_RUNNING)).isEqualTo(PodGroupPhase.Running);
        assertThat(MACHINE.next(PodGroupPhase.Pending, GangEvent.GANG_PLACED)).isEqualTo(PodGroupPhase.Inqueue);
    }
}
