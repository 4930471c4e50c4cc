package dev.muster.podgroup;

import dev.muster.gang.GangVerdict;
import org.junit.jupiter.api.Test;

import java.time.Instant;
import java.util.Optional;

import static dev.muster.podgroup.GangEvent.GANG_ADMITTED;
import static dev.muster.podgroup.GangEvent.GANG_FAILED;
import static dev.muster.podgroup.GangEvent.GANG_INCOMPLETE;
import static dev.muster.podgroup.GangEvent.GANG_PLACED;
import static dev.muster.podgroup.GangEvent.GANG_SUCCEEDED;
import static dev.muster.podgroup.GangEvent.GANG_UNPLACEABLE;
import static dev.muster.podgroup.GangEvent.MEMBERS_STOPPED;
import static dev.muster.podgroup.GangEvent.NO_PODS;
import static dev.muster.podgroup.GangEvent.QUORUM_RUNNING;
import static org.assertj.core.api.Assertions.assertThat;

class GangEventTest {
    private static final Optional<GangVerdict> NONE = Optional.empty();
    private static final Optional<GangVerdict> SCHEDULED = verdict(GangVerdict.Outcome.SCHEDULED);
    private static final Optional<GangVerdict> UNSCHEDULABLE = verdict(GangVerdict.Outcome.UNSCHEDULABLE);
    private static final Optional<GangVerdict> ADMITTED = verdict(GangVerdict.Outcome.ADMITTED);

    @Test
    void aGroupWithoutPodsHasNoPodsUnlessAdmitted() {
        assertThat(GangEvent.observe(PodCensus.EMPTY, 2, NONE)).isEqualTo(NO_PODS);
        assertThat(GangEvent.observe(PodCensus.EMPTY, 2, UNSCHEDULABLE)).isEqualTo(NO_PODS);
        assertThat(GangEvent.observe(PodCensus.EMPTY, 2, SCHEDULED)).as("placed pods that are gone").isEqualTo(NO_PODS);
    }

    @Test
    void anAdmittedGroupWithoutPodsWaitsForThemToBeCreated() {
        assertThat(GangEvent.observe(PodCensus.EMPTY, 2, ADMITTED)).isEqualTo(GANG_ADMITTED);
    }

    @Test
    void anAdmittedGangIsAdmittedWhetherItsPodsWaitOrAreStillToCome() {
        assertThat(GangEvent.observe(census(2, 0, 0, 0, 0, 0), 2, ADMITTED)).isEqualTo(GANG_ADMITTED);
        assertThat(GangEvent.observe(census(1, 0, 0, 0, 0, 0), 4, ADMITTED)).isEqualTo(GANG_ADMITTED);
        assertThat(GangEvent.observe(census(0, 1, 0, 0, 0, 0), 2, ADMITTED)).as("one bound, one still to come")
                .isEqualTo(GANG_ADMITTED);
    }

    @Test
    void whatThePodsDidOutranksAnAdmission() {
        assertThat(GangEvent.observe(census(0, 0, 0, 2, 0, 0), 2, ADMITTED)).isEqualTo(GANG_SUCCEEDED);
        assertThat(GangEvent.observe(census(1, 0, 0, 0, 1, 0), 2, ADMITTED)).isEqualTo(GANG_FAILED);
        assertThat(GangEvent.observe(census(0, 0, 2, 0, 0, 0), 2, ADMITTED)).isEqualTo(QUORUM_RUNNING);
        assertThat(GangEvent.observe(census(0, 2, 0, 0, 0, 0), 2, ADMITTED)).isEqualTo(GANG_PLACED);
        assertThat(GangEvent.observe(census(1, 0, 0, 0, 0, 1), 2, ADMITTED)).isEqualTo(GANG_UNPLACEABLE);
    }

    @Test
    void allFinishedSucceedsWithAQuorumOfSuccessesAndFailsWithout() {
        assertThat(GangEvent.observe(census(0, 0, 0, 2, 1, 0), 2, NONE)).isEqualTo(GANG_SUCCEEDED);
        assertThat(GangEvent.observe(census(0, 0, 0, 1, 2, 0), 2, NONE)).isEqualTo(GANG_FAILED);
    }

    @Test
    void membersThatAllSucceededAreNoFailureWhileTheSchedulerAdmitsTheRestOfTheGang() {
        assertThat(GangEvent.observe(census(0, 0, 0, 1, 0, 0), 4, ADMITTED)).isEqualTo(GANG_ADMITTED);
        assertThat(GangEvent.observe(census(0, 0, 0, 1, 0, 0), 4, UNSCHEDULABLE)).isEqualTo(MEMBERS_STOPPED);
        assertThat(GangEvent.observe(census(0, 0, 0, 1, 0, 0), 4, NONE)).isEqualTo(MEMBERS_STOPPED);
        assertThat(GangEvent.observe(census(0, 0, 0, 1, 1, 0), 4, ADMITTED)).as("a failure is the workload's to judge")
                .isEqualTo(GANG_FAILED);
    }

    @Test
    void tooFewSuccessesWithNoFailureAreMembersStoppedNotAFailedGang() {
        // An MPI launcher succeeded and its Job's CompleteJob policy deleted the workers (being deleted, they
        // no longer count): one pod left, succeeded, minMember 3.
        assertThat(GangEvent.observe(census(0, 0, 0, 1, 0, 0), 3, SCHEDULED)).isEqualTo(MEMBERS_STOPPED);
        assertThat(GangEvent.observe(census(0, 0, 0, 1, 1, 0), 3, SCHEDULED)).as("one failed").isEqualTo(GANG_FAILED);
    }

    @Test
    void failsAsSoonAsTheRemainingPodsCannotReachTheQuorum() {
        assertThat(GangEvent.observe(census(0, 0, 2, 0, 1, 0), 3, NONE)).isEqualTo(GANG_FAILED);
        assertThat(GangEvent.observe(census(0, 0, 3, 0, 1, 0), 3, NONE)).isEqualTo(QUORUM_RUNNING);
    }

    @Test
    void tooFewPodsCreatedSoFarIsNotAFailure() {
        assertThat(GangEvent.observe(census(1, 0, 0, 0, 0, 0), 3, NONE)).isEqualTo(GANG_INCOMPLETE);
    }

    @Test
    void runningAndSucceededPodsTogetherMakeARunningQuorum() {
        assertThat(GangEvent.observe(census(0, 0, 1, 1, 0, 0), 2, UNSCHEDULABLE)).isEqualTo(QUORUM_RUNNING);
    }

    @Test
    void belowQuorumBoundPodsMeanThePlacedGangIsStartingWhateverTheVerdict() {
        assertThat(GangEvent.observe(census(0, 2, 0, 0, 0, 0), 2, UNSCHEDULABLE)).isEqualTo(GANG_PLACED);
        assertThat(GangEvent.observe(census(0, 1, 1, 0, 0, 0), 2, NONE)).isEqualTo(GANG_PLACED);
    }

    @Test
    void belowQuorumTheVerdictDecides() {
        assertThat(GangEvent.observe(census(2, 0, 0, 0, 0, 0), 2, SCHEDULED)).isEqualTo(GANG_PLACED);
        assertThat(GangEvent.observe(census(1, 0, 1, 0, 0, 0), 2, UNSCHEDULABLE)).isEqualTo(GANG_UNPLACEABLE);
        assertThat(GangEvent.observe(census(1, 0, 1, 0, 0, 0), 2, NONE)).isEqualTo(GANG_INCOMPLETE);
    }

    @Test
    void belowQuorumWithNothingWaitingTheVerdictIsStale() {
        assertThat(GangEvent.observe(census(0, 0, 1, 0, 0, 0), 2, UNSCHEDULABLE)).isEqualTo(GANG_INCOMPLETE);
        assertThat(GangEvent.observe(census(0, 0, 1, 0, 0, 0), 2, SCHEDULED)).isEqualTo(GANG_INCOMPLETE);
    }

    @Test
    void podsLostWithTheirNodeAndNotReplacedCannotBePlaced() {
        assertThat(GangEvent.observe(census(0, 0, 1, 0, 0, 1), 2, SCHEDULED)).isEqualTo(GANG_UNPLACEABLE);
    }

    @Test
    void podsWaitingBesideLostOnesDoNotRescueTheGangUntilTheyAreBound() {
        assertThat(GangEvent.observe(census(3, 0, 2, 0, 0, 1), 3, SCHEDULED)).isEqualTo(GANG_UNPLACEABLE);
        assertThat(GangEvent.observe(census(2, 1, 2, 0, 0, 1), 3, SCHEDULED)).isEqualTo(GANG_PLACED);
    }

    static PodCensus census(int waiting, int starting, int running, int succeeded, int failed, int lost) {
        return new PodCensus(waiting, starting, running, succeeded, failed, lost);
    }

    private static Optional<GangVerdict> verdict(GangVerdict.Outcome outcome) {
        return Optional.of(new GangVerdict("ns", "pg", outcome, null, null, "t1", Instant.EPOCH));
    }
}
