package dev.muster.podgroup;

import dev.muster.api.scheduling.v1alpha1.PodGroupCondition;
import dev.muster.api.scheduling.v1alpha1.PodGroupPhase;
import dev.muster.api.scheduling.v1alpha1.PodGroupSpec;
import dev.muster.api.scheduling.v1alpha1.PodGroupStatus;
import dev.muster.gang.GangVerdict;
import io.fabric8.kubernetes.client.utils.Serialization;
import org.junit.jupiter.api.Test;

import java.time.Instant;
import java.util.Optional;

import static dev.muster.api.scheduling.v1alpha1.PodGroupCondition.SCHEDULED;
import static dev.muster.api.scheduling.v1alpha1.PodGroupCondition.UNSCHEDULABLE;
import static dev.muster.podgroup.GangEventTest.census;
import static org.assertj.core.api.Assertions.assertThat;

class PodGroupStatusCalculatorTest {
    private static final PodGroupStatusCalculator CALCULATOR = new PodGroupStatusCalculator();
    private static final Instant T0 = Instant.parse("2025-01-01T10:00:00Z");
    private static final Instant T1 = T0.plusSeconds(60);
    private static final Instant T2 = T0.plusSeconds(120);
    private static final PodGroupSpec MIN_2 = spec(2);
    private static final Optional<GangVerdict> NO_VERDICT = Optional.empty();
    private static final String ADMITTED_MESSAGE =
            "Admitted: room for the 2 pod(s) of minMember 2 is held on 1 node(s) until they are created.";

    @Test
    void aNewGroupIsPendingWithItsCounters() {
        var decision = CALCULATOR.decide(null, MIN_2, census(2, 0, 0, 0, 0, 0), NO_VERDICT, false, T0);

        assertThat(decision.phaseChanged()).as("a new group starts out Pending").isFalse();
        assertThat(decision.status().getPhase()).isEqualTo(PodGroupPhase.Pending);
        assertThat(decision.status().getConditions()).isEmpty();
        assertThat(decision.status().getScheduleStartTime()).isNull();
    }

    @Test
    void followsAGangThroughInqueueRunningAndCompleted() {
        var verdict = scheduled("t1", T0);
        var inqueue = CALCULATOR.decide(status(PodGroupPhase.Pending), MIN_2, census(0, 2, 0, 0, 0, 0), verdict, false, T0).status();
        var running = CALCULATOR.decide(inqueue, MIN_2, census(0, 0, 2, 0, 0, 0), verdict, false, T1).status();
        var completed = CALCULATOR.decide(running, MIN_2, census(0, 0, 0, 2, 0, 0), verdict, false, T2).status();

        assertThat(inqueue.getPhase()).isEqualTo(PodGroupPhase.Inqueue);
        assertThat(running.getPhase()).isEqualTo(PodGroupPhase.Running);
        assertThat(running.getRunning()).isEqualTo(2);
        assertThat(completed.getPhase()).isEqualTo(PodGroupPhase.Completed);
        assertThat(completed.getSucceeded()).isEqualTo(2);
        assertThat(completed.getRunning()).isZero();
        assertThat(condition(completed, SCHEDULED).getStatus()).isEqualTo("True");
        assertThat(condition(completed, SCHEDULED).getLastTransitionTime()).isEqualTo("2025-01-01T10:00:00Z");
    }

    @Test
    void aGangWhosePodsFailIsFailedWithTheFailedCountAndPodFailed() {
        var verdict = scheduled("t1", T0);
        var running = CALCULATOR.decide(status(PodGroupPhase.Pending), MIN_2, census(0, 0, 2, 0, 0, 0), verdict, false, T0).status();
        var failed = CALCULATOR.decide(running, MIN_2, census(0, 0, 1, 0, 1, 0), verdict, false, T1).status();

        assertThat(failed.getPhase()).isEqualTo(PodGroupPhase.Failed);
        assertThat(failed.getFailed()).isEqualTo(1);
        assertThat(condition(failed, SCHEDULED).getStatus()).isEqualTo("False");
        assertThat(condition(failed, SCHEDULED).getReason()).isEqualTo(PodGroupCondition.REASON_POD_FAILED);
    }

    @Test
    void aRunningGangThatLosesPodsTheSchedulerCannotPlaceAgainIsUnknownThenPendingOnceAllAreDeleted() {
        var placed = scheduled("t1", T0);
        var running = CALCULATOR.decide(status(PodGroupPhase.Pending), MIN_2, census(0, 0, 2, 0, 0, 0), placed, false, T0).status();
        var stillRunning = CALCULATOR.decide(running, MIN_2, census(1, 0, 1, 0, 0, 0), placed, false, T1).status();
        var stuck = unschedulable("t2", "NotEnoughResources", "1/2 pods unschedulable: 1 Insufficient cpu", T1);
        var unknown = CALCULATOR.decide(stillRunning, MIN_2, census(1, 0, 1, 0, 0, 0), stuck, false, T1).status();
        var pending = CALCULATOR.decide(unknown, MIN_2, PodCensus.EMPTY, stuck, false, T2).status();

        assertThat(stillRunning.getPhase()).as("a restarted pod the scheduler has not judged yet").isEqualTo(PodGroupPhase.Running);
        assertThat(unknown.getPhase()).isEqualTo(PodGroupPhase.Unknown);
        assertThat(condition(unknown, SCHEDULED).getReason()).isEqualTo(PodGroupCondition.REASON_POD_DELETED);
        assertThat(condition(unknown, UNSCHEDULABLE).getReason()).isEqualTo("NotEnoughResources");
        assertThat(pending.getPhase()).isEqualTo(PodGroupPhase.Pending);
    }

    @Test
    void aRunningGangWhoseMinMemberGrowsStaysRunningWhileTheAdditionsWaitForRoom() {
        var placed = scheduled("t1", T0);
        var running = CALCULATOR.decide(status(PodGroupPhase.Pending), MIN_2, census(0, 0, 2, 0, 0, 0), placed, false, T0).status();
        PodGroupSpec grown = new PodGroupSpec();
        grown.setMinMember(5);
        var stuck = unschedulable("t2", "NotEnoughResources", "0/3 nodes are available: 3 Insufficient cpu.", T1);

        var waiting = CALCULATOR.decide(running, grown, census(3, 0, 2, 0, 0, 0), stuck, false, T1).status();

        assertThat(running.getRunningQuorum()).isEqualTo(2);
        assertThat(waiting.getPhase()).isEqualTo(PodGroupPhase.Running);
        assertThat(waiting.getRunningQuorum()).as("the quorum that runs is still the old one").isEqualTo(2);
        assertThat(condition(waiting, SCHEDULED).getStatus()).isEqualTo("True");
        assertThat(condition(waiting, UNSCHEDULABLE).getStatus()).isEqualTo("True");
        assertThat(condition(waiting, UNSCHEDULABLE).getMessage()).isEqualTo("3 pods beyond the 2 running (a new "
                + "dependsOn stage or a scale-up) wait for room; the running pods are not affected: "
                + "0/3 nodes are available: 3 Insufficient cpu.");

        var lostOne = CALCULATOR.decide(waiting, grown, census(3, 0, 1, 0, 0, 0), stuck, false, T2).status();
        assertThat(lostOne.getPhase()).as("a member of the running quorum is gone").isEqualTo(PodGroupPhase.Unknown);
    }

    @Test
    void aRunningGangWhosePodIsBeingReplacedStaysRunning() {
        var placed = scheduled("t1", T0);
        var running = CALCULATOR.decide(status(PodGroupPhase.Pending), MIN_2, census(0, 0, 2, 0, 0, 0), placed, false, T0).status();
        var deleted = CALCULATOR.decide(running, MIN_2, census(0, 0, 1, 0, 0, 0), placed, false, T1).status();
        var replaced = CALCULATOR.decide(deleted, MIN_2, census(1, 0, 1, 0, 0, 0), placed, false, T1).status();
        var rebound = CALCULATOR.decide(replaced, MIN_2, census(0, 1, 1, 0, 0, 0), placed, false, T2).status();

        assertThat(deleted.getPhase()).isEqualTo(PodGroupPhase.Running);
        assertThat(deleted.getRunning()).isEqualTo(1);
        assertThat(replaced.getPhase()).isEqualTo(PodGroupPhase.Running);
        assertThat(rebound.getPhase()).isEqualTo(PodGroupPhase.Running);
        assertThat(condition(rebound, SCHEDULED).getLastTransitionTime()).isEqualTo("2025-01-01T10:00:00Z");
    }

    @Test
    void aRunningGangWhosePodsAreLostWithNothingToRescheduleIsUnknownWithPodFailed() {
        var running = CALCULATOR.decide(status(PodGroupPhase.Pending), MIN_2, census(0, 0, 2, 0, 0, 0), scheduled("t1", T0), false, T0).status();
        var unknown = CALCULATOR.decide(running, MIN_2, census(0, 0, 1, 0, 0, 1), scheduled("t1", T0), false, T1).status();

        assertThat(unknown.getPhase()).isEqualTo(PodGroupPhase.Unknown);
        assertThat(condition(unknown, SCHEDULED).getReason()).isEqualTo(PodGroupCondition.REASON_POD_FAILED);
    }

    @Test
    void aRunningGangMissingDeletedMembersAwaitsTheirReplacementThenIsUnknownWithPodDeletedOnceOverdue() {
        var placed = scheduled("t1", T0);
        var running = CALCULATOR.decide(status(PodGroupPhase.Pending), MIN_2, census(0, 0, 2, 0, 0, 0), placed, false, T0).status();
        var waiting = CALCULATOR.decide(running, MIN_2, census(0, 0, 1, 0, 0, 0), placed, false, T1);
        var overdue = CALCULATOR.decide(waiting.status(), MIN_2, census(0, 0, 1, 0, 0, 0), placed, true, T2);

        assertThat(waiting.status().getPhase()).isEqualTo(PodGroupPhase.Running);
        assertThat(waiting.awaitsReplacement()).isTrue();
        assertThat(overdue.event()).isEqualTo(GangEvent.MEMBERS_NOT_REPLACED);
        assertThat(overdue.awaitsReplacement()).isFalse();
        assertThat(overdue.status().getPhase()).isEqualTo(PodGroupPhase.Unknown);
        assertThat(condition(overdue.status(), SCHEDULED).getReason()).isEqualTo(PodGroupCondition.REASON_POD_DELETED);
        assertThat(condition(overdue.status(), SCHEDULED).getMessage())
                .isEqualTo("1 of minMember 2 pods running; the others were deleted and not replaced within the grace period");
    }

    @Test
    void onlyARunningGangAwaitsReplacement() {
        var pending = CALCULATOR.decide(status(PodGroupPhase.Pending), MIN_2, census(0, 0, 1, 0, 0, 0), NO_VERDICT, true, T0);
        var unknown = CALCULATOR.decide(status(PodGroupPhase.Unknown), MIN_2, census(0, 0, 1, 0, 0, 0), NO_VERDICT, true, T0);
        var whole = CALCULATOR.decide(status(PodGroupPhase.Running), MIN_2, census(0, 0, 2, 0, 0, 0), NO_VERDICT, true, T0);

        assertThat(pending.awaitsReplacement()).isFalse();
        assertThat(pending.status().getPhase()).isEqualTo(PodGroupPhase.Pending);
        assertThat(unknown.awaitsReplacement()).isFalse();
        assertThat(whole.awaitsReplacement()).isFalse();
        assertThat(whole.status().getPhase()).isEqualTo(PodGroupPhase.Running);
    }

    @Test
    void aReplacementAwaitingTheSchedulerIsNotOverdue() {
        var running = CALCULATOR.decide(status(PodGroupPhase.Pending), MIN_2, census(0, 0, 2, 0, 0, 0), scheduled("t1", T0), false, T0).status();
        var replaced = CALCULATOR.decide(running, MIN_2, census(0, 1, 1, 0, 0, 0), scheduled("t1", T0), true, T1);

        assertThat(replaced.status().getPhase()).isEqualTo(PodGroupPhase.Running);
        assertThat(replaced.awaitsReplacement()).as("the replacement is bound, the gang is whole again").isFalse();
    }

    @Test
    void aBrokenGangsMessageDescribesItsTransitionAndDoesNotFollowLaterCounts() {
        var running = CALCULATOR.decide(status(PodGroupPhase.Pending), spec(3), census(0, 0, 3, 0, 0, 0), scheduled("t1", T0), false, T0).status();
        var unknown = CALCULATOR.decide(running, spec(3), census(0, 0, 2, 0, 0, 1), scheduled("t1", T0), false, T1).status();
        var later = CALCULATOR.decide(unknown, spec(3), census(0, 0, 1, 0, 0, 2), scheduled("t1", T0), false, T2).status();

        assertThat(unknown.getPhase()).isEqualTo(PodGroupPhase.Unknown);
        assertThat(condition(unknown, SCHEDULED).getMessage())
                .isEqualTo("2 of minMember 3 pods running; 0 failed and 1 lost (node gone or not reporting), and they cannot be rescheduled");
        assertThat(condition(later, SCHEDULED)).usingRecursiveComparison().isEqualTo(condition(unknown, SCHEDULED));
        assertThat(later.getRunning()).isEqualTo(1);
    }

    @Test
    void aLostGangThatThenFailsSaysSoInItsMessage() {
        var running = CALCULATOR.decide(status(PodGroupPhase.Pending), MIN_2, census(0, 0, 2, 0, 0, 0), scheduled("t1", T0), false, T0).status();
        var unknown = CALCULATOR.decide(running, MIN_2, census(0, 0, 1, 0, 0, 1), scheduled("t1", T0), false, T1).status();
        var failed = CALCULATOR.decide(unknown, MIN_2, census(0, 0, 0, 0, 1, 1), scheduled("t1", T0), false, T2).status();

        assertThat(failed.getPhase()).isEqualTo(PodGroupPhase.Failed);
        assertThat(condition(failed, SCHEDULED).getReason()).isEqualTo(PodGroupCondition.REASON_POD_FAILED);
        assertThat(condition(failed, SCHEDULED).getMessage()).isEqualTo("1 of 2 pods failed; fewer than minMember 2 can succeed");
        assertThat(condition(failed, SCHEDULED).getLastTransitionTime()).as("still False").isEqualTo("2025-01-01T10:01:00Z");
    }

    @Test
    void anUnschedulableVerdictSetsUnschedulableWithTheSchedulersReasonAndMessage() {
        var verdict = unschedulable("t1", "NotEnoughResources", "2/4 pods unschedulable: 2 Insufficient cpu", T0);
        var status = CALCULATOR.decide(status(PodGroupPhase.Pending), spec(4), census(4, 0, 0, 0, 0, 0), verdict, false, T0).status();

        var unschedulable = condition(status, UNSCHEDULABLE);
        assertThat(status.getPhase()).isEqualTo(PodGroupPhase.Pending);
        assertThat(unschedulable.getStatus()).isEqualTo("True");
        assertThat(unschedulable.getReason()).isEqualTo("NotEnoughResources");
        assertThat(unschedulable.getMessage()).isEqualTo("2/4 pods unschedulable: 2 Insufficient cpu");
        assertThat(unschedulable.getTransitionID()).isEqualTo("t1");
        assertThat(unschedulable.getLastTransitionTime()).isEqualTo("2025-01-01T10:00:00Z");
        assertThat(status.getScheduleStartTime()).isEqualTo("2025-01-01T10:00:00Z");
    }

    @Test
    void notEnoughTasksIsReportedAsTheSchedulerSaysIt() {
        var verdict = unschedulable("t1", "NotEnoughTasks", "1/3 pods exist", T0);
        var status = CALCULATOR.decide(status(PodGroupPhase.Pending), spec(3), census(1, 0, 0, 0, 0, 0), verdict, false, T0).status();

        assertThat(condition(status, UNSCHEDULABLE).getReason()).isEqualTo("NotEnoughTasks");
    }

    @Test
    void lastTransitionTimeAndTransitionIdChangeOnlyWhenTheStatusChanges() {
        var first = CALCULATOR.decide(status(PodGroupPhase.Pending), MIN_2, census(2, 0, 0, 0, 0, 0),
                unschedulable("t1", "NotEnoughResources", "2 Insufficient cpu", T0), false, T0).status();
        var refined = CALCULATOR.decide(first, MIN_2, census(2, 0, 0, 0, 0, 0),
                unschedulable("t2", "NotEnoughResources", "2 Insufficient memory", T1), false, T1).status();
        var placed = CALCULATOR.decide(refined, MIN_2, census(0, 2, 0, 0, 0, 0), scheduled("t3", T2), false, T2).status();

        assertThat(condition(refined, UNSCHEDULABLE).getMessage()).isEqualTo("2 Insufficient memory");
        assertThat(condition(refined, UNSCHEDULABLE).getLastTransitionTime()).isEqualTo("2025-01-01T10:00:00Z");
        assertThat(condition(refined, UNSCHEDULABLE).getTransitionID()).isEqualTo("t1");
        assertThat(condition(placed, UNSCHEDULABLE).getStatus()).isEqualTo("False");
        assertThat(condition(placed, UNSCHEDULABLE).getLastTransitionTime()).isEqualTo("2025-01-01T10:02:00Z");
        assertThat(condition(placed, UNSCHEDULABLE).getTransitionID()).isEqualTo("t3");
        assertThat(condition(placed, SCHEDULED).getStatus()).isEqualTo("True");
        assertThat(placed.getScheduleStartTime()).as("set once").isEqualTo("2025-01-01T10:00:00Z");
    }

    @Test
    void theSameObservationLaterYieldsTheSameStatusSoNothingIsWritten() {
        var verdict = unschedulable("t1", "NotEnoughResources", "2 Insufficient cpu", T0);
        var first = CALCULATOR.decide(status(PodGroupPhase.Pending), MIN_2, census(2, 0, 0, 0, 0, 0), verdict, false, T0).status();
        var republished = unschedulable("t9", "NotEnoughResources", "2 Insufficient cpu", T2);
        var again = CALCULATOR.decide(first, MIN_2, census(2, 0, 0, 0, 0, 0), republished, false, T2);

        assertThat(again.phaseChanged()).isFalse();
        assertThat(Serialization.asJson(again.status())).isEqualTo(Serialization.asJson(first));
    }

    @Test
    void aBrokenGangKeepsItsScheduledFalseStableAcrossDecisions() {
        var placed = scheduled("t1", T0);
        var running = CALCULATOR.decide(status(PodGroupPhase.Pending), MIN_2, census(0, 0, 2, 0, 0, 0), placed, false, T0).status();
        var failed = CALCULATOR.decide(running, MIN_2, census(0, 0, 0, 1, 1, 0), placed, false, T1).status();
        var later = CALCULATOR.decide(failed, MIN_2, census(0, 0, 0, 1, 1, 0), placed, false, T2).status();

        assertThat(condition(later, SCHEDULED).getLastTransitionTime()).isEqualTo("2025-01-01T10:01:00Z");
        assertThat(Serialization.asJson(later)).isEqualTo(Serialization.asJson(failed));
    }

    @Test
    void aPlacementVerdictDoesNotOutliveThePodsItPlaced() {
        var placed = scheduled("t1", T0);
        var running = CALCULATOR.decide(status(PodGroupPhase.Pending), MIN_2, census(0, 0, 2, 0, 0, 0), placed, false, T0).status();
        var failed = CALCULATOR.decide(running, MIN_2, census(0, 0, 0, 0, 2, 0), placed, false, T1).status();
        var emptied = CALCULATOR.decide(failed, MIN_2, PodCensus.EMPTY, placed, false, T2).status();

        assertThat(emptied.getPhase()).isEqualTo(PodGroupPhase.Pending);
        assertThat(condition(emptied, SCHEDULED).getStatus()).isEqualTo("False");
        assertThat(condition(emptied, SCHEDULED).getLastTransitionTime()).isEqualTo("2025-01-01T10:01:00Z");
    }

    @Test
    void anAdmittedGroupWithoutPodsIsInqueueWithoutConditionsAndItsScheduleStartTime() {
        var admitted = CALCULATOR.decide(status(PodGroupPhase.Pending), MIN_2, PodCensus.EMPTY, admitted("t1", T0), false, T1);
        var again = CALCULATOR.decide(admitted.status(), MIN_2, PodCensus.EMPTY, admitted("t1", T0), false, T2);

        assertThat(admitted.event()).isEqualTo(GangEvent.GANG_ADMITTED);
        assertThat(admitted.status().getPhase()).isEqualTo(PodGroupPhase.Inqueue);
        assertThat(admitted.status().getConditions()).as("nothing placed, and never unschedulable").isEmpty();
        assertThat(admitted.status().getScheduleStartTime()).as("from the verdict").isEqualTo("2025-01-01T10:00:00Z");
        assertThat(again.phaseChanged()).isFalse();
        assertThat(Serialization.asJson(again.status())).isEqualTo(Serialization.asJson(admitted.status()));
    }

    @Test
    void anAdmissionEndsUnschedulableWithoutSettingScheduledThenAnExpiryMakesTheGroupPendingAndUnschedulableAgain() {
        var refused = CALCULATOR.decide(status(PodGroupPhase.Pending), MIN_2, PodCensus.EMPTY,
                unschedulable("t1", "NotEnoughResources", "0/3 nodes are available: 3 Insufficient cpu.", T0), false, T0).status();
        var admitted = CALCULATOR.decide(refused, MIN_2, PodCensus.EMPTY, admitted("t2", T1), false, T1).status();
        var waiting = CALCULATOR.decide(admitted, MIN_2, census(2, 0, 0, 0, 0, 0), admitted("t2", T1), false, T1).status();
        var expired = CALCULATOR.decide(waiting, MIN_2, census(2, 0, 0, 0, 0, 0),
                unschedulable("t3", "NotEnoughResources", "0/3 nodes are available: 3 Insufficient cpu.", T2), false, T2).status();

        assertThat(admitted.getPhase()).isEqualTo(PodGroupPhase.Inqueue);
        assertThat(admitted.getConditions()).extracting(PodGroupCondition::getType).containsExactly(UNSCHEDULABLE);
        var unschedulable = condition(admitted, UNSCHEDULABLE);
        assertThat(unschedulable.getStatus()).isEqualTo("False");
        assertThat(unschedulable.getReason()).isEqualTo("Admitted");
        assertThat(unschedulable.getMessage()).isEqualTo(ADMITTED_MESSAGE);
        assertThat(unschedulable.getTransitionID()).isEqualTo("t2");
        assertThat(unschedulable.getLastTransitionTime()).isEqualTo("2025-01-01T10:01:00Z");
        assertThat(admitted.getScheduleStartTime()).as("set once").isEqualTo("2025-01-01T10:00:00Z");
        assertThat(waiting.getPhase()).as("pods created, waiting for the room held for them").isEqualTo(PodGroupPhase.Inqueue);
        assertThat(Serialization.asJson(waiting.getConditions())).isEqualTo(Serialization.asJson(admitted.getConditions()));
        assertThat(expired.getPhase()).isEqualTo(PodGroupPhase.Pending);
        assertThat(condition(expired, UNSCHEDULABLE).getStatus()).isEqualTo("True");
        assertThat(condition(expired, UNSCHEDULABLE).getTransitionID()).isEqualTo("t3");
        assertThat(condition(expired, UNSCHEDULABLE).getLastTransitionTime()).isEqualTo("2025-01-01T10:02:00Z");
        assertThat(expired.getConditions()).extracting(PodGroupCondition::getType).doesNotContain(SCHEDULED);
    }

    @Test
    void anAdmittedGangIsScheduledOnceItsPodsArePlacedAndRunsOnceTheyRun() {
        var refused = CALCULATOR.decide(status(PodGroupPhase.Pending), MIN_2, PodCensus.EMPTY,
                unschedulable("t1", "NotEnoughResources", "2 Insufficient cpu", T0), false, T0).status();
        var admitted = CALCULATOR.decide(refused, MIN_2, PodCensus.EMPTY, admitted("t2", T1), false, T1).status();
        var placed = CALCULATOR.decide(admitted, MIN_2, census(0, 2, 0, 0, 0, 0), scheduled("t3", T2), false, T2).status();
        var running = CALCULATOR.decide(placed, MIN_2, census(0, 0, 2, 0, 0, 0), scheduled("t3", T2), false, T2).status();

        assertThat(placed.getPhase()).isEqualTo(PodGroupPhase.Inqueue);
        assertThat(condition(placed, SCHEDULED).getStatus()).isEqualTo("True");
        assertThat(condition(placed, SCHEDULED).getTransitionID()).isEqualTo("t3");
        assertThat(condition(placed, UNSCHEDULABLE).getReason()).isEqualTo(GangConditions.REASON_SCHEDULED);
        assertThat(condition(placed, UNSCHEDULABLE).getTransitionID()).as("still False since the admission").isEqualTo("t2");
        assertThat(condition(placed, UNSCHEDULABLE).getLastTransitionTime()).isEqualTo("2025-01-01T10:01:00Z");
        assertThat(running.getPhase()).isEqualTo(PodGroupPhase.Running);
    }

    @Test
    void aFinishedGroupWhoseWorkloadRestartsIsInqueueOnceTheNewGangIsAdmittedAndTheAdmissionLeavesScheduledAlone() {
        var running = CALCULATOR.decide(status(PodGroupPhase.Pending), MIN_2, census(0, 0, 2, 0, 0, 0), scheduled("t1", T0), false, T0).status();
        var failed = CALCULATOR.decide(running, MIN_2, census(0, 0, 0, 0, 2, 0), scheduled("t1", T0), false, T1).status();
        var readmitted = CALCULATOR.decide(failed, MIN_2, PodCensus.EMPTY, admitted("t2", T2), false, T2).status();

        assertThat(readmitted.getPhase()).isEqualTo(PodGroupPhase.Inqueue);
        assertThat(condition(readmitted, SCHEDULED)).usingRecursiveComparison().isEqualTo(condition(failed, SCHEDULED));
    }

    @Test
    void anAdmissionWithoutAReasonSaysAdmitted() {
        var refused = CALCULATOR.decide(status(PodGroupPhase.Pending), MIN_2, PodCensus.EMPTY,
                unschedulable("t1", "NotEnoughTasks", "0/2 pods exist", T0), false, T0).status();
        var verdict = new GangVerdict("ns", "pg", GangVerdict.Outcome.ADMITTED, null, null, "t2", T1);
        var admitted = CALCULATOR.decide(refused, MIN_2, PodCensus.EMPTY, Optional.of(verdict), false, T1).status();

        assertThat(condition(admitted, UNSCHEDULABLE).getReason()).isEqualTo(PodGroupCondition.REASON_ADMITTED);
    }

    private static PodGroupSpec spec(int minMember) {
        var spec = new PodGroupSpec();
        spec.setMinMember(minMember);
        return spec;
    }

    private static PodGroupStatus status(PodGroupPhase phase) {
        var status = new PodGroupStatus();
        status.setPhase(phase);
        return status;
    }

    private static PodGroupCondition condition(PodGroupStatus status, String type) {
        return status.getConditions().stream().filter(c -> type.equals(c.getType())).findFirst().orElseThrow();
    }

    private static Optional<GangVerdict> scheduled(String transitionId, Instant at) {
        return Optional.of(new GangVerdict("ns", "pg", GangVerdict.Outcome.SCHEDULED, null, "2/2 pods placed", transitionId, at));
    }

    private static Optional<GangVerdict> admitted(String transitionId, Instant at) {
        return Optional.of(new GangVerdict("ns", "pg", GangVerdict.Outcome.ADMITTED, "Admitted", ADMITTED_MESSAGE, transitionId, at));
    }

    private static Optional<GangVerdict> unschedulable(String transitionId, String reason, String message, Instant at) {
        return Optional.of(new GangVerdict("ns", "pg", GangVerdict.Outcome.UNSCHEDULABLE, reason, message, transitionId, at));
    }
}
