package dev.muster.scheduler.autoscaling;

import dev.muster.scheduler.core.model.GroupKey;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Set;

import static org.assertj.core.api.Assertions.assertThat;

class ProvisioningDecisionsTest {
    private static final Instant NOW = Instant.parse("2026-11-28T00:00:00Z");
    private static final GroupKey TRAIN = GroupKey.podGroup("team-a", "train");
    private static final CapacityNeed NEED = new CapacityNeed(TRAIN, ProvisioningRequestApi.BEST_EFFORT_ATOMIC,
            Map.of("worker", 4));
    private final ProvisioningDecisions decisions = new ProvisioningDecisions(Duration.ofMinutes(1),
            Duration.ofMinutes(5));

    @Test
    void aGangInNeedWithoutARequestGetsItsFirst() {
        ProvisioningPlan plan = decisions.decide(List.of(NEED), Set.of(), List.of(), NOW);

        assertThat(plan.creates()).containsExactly(new WantedRequest(NEED, "train-1", 1));
        assertThat(plan.deletes()).isEmpty();
        assertThat(plan.statuses().get(TRAIN)).isEqualTo(
                new ProvisioningStatus("team-a", "train-1", RequestState.PENDING, null, null));
    }

    @Test
    void aLiveRequestIsKeptAndReported() {
        ObservedRequest accepted = request(1, RequestState.ACCEPTED, "no capacity yet", NOW.minusSeconds(5));

        ProvisioningPlan plan = decisions.decide(List.of(NEED), Set.of(), List.of(accepted), NOW);

        assertThat(plan.creates()).isEmpty();
        assertThat(plan.deletes()).isEmpty();
        assertThat(plan.statuses().get(TRAIN).describe())
                .isEqualTo("Waiting for ProvisioningRequest team-a/train-1 (Accepted: no capacity yet).");
    }

    @Test
    void aFailedRequestStaysUntilItsBackoffEndsThenTheNextAttemptReplacesIt() {
        ObservedRequest failed = request(2, RequestState.FAILED, "NoNodeGroupFits", NOW.minusSeconds(90));

        ProvisioningPlan waiting = decisions.decide(List.of(NEED), Set.of(), List.of(failed), NOW);

        // The second attempt's backoff is twice the first's: 2 minutes from when it failed.
        assertThat(waiting.creates()).isEmpty();
        assertThat(waiting.deletes()).isEmpty();
        assertThat(waiting.statuses().get(TRAIN).retryAt()).isEqualTo(NOW.plusSeconds(30));
        assertThat(waiting.statuses().get(TRAIN).describe()).contains("Failed: NoNodeGroupFits")
                .contains("a new request at 2026-11-28T00:00:30Z");

        ProvisioningPlan retry = decisions.decide(List.of(NEED), Set.of(), List.of(failed), NOW.plusSeconds(30));

        assertThat(retry.deletes()).containsExactly(failed);
        assertThat(retry.creates()).containsExactly(new WantedRequest(NEED, "train-3", 3));
    }

    @Test
    void theBackoffDoublesPerAttemptUpToTheMaximum() {
        assertThat(decisions.backoff(1)).isEqualTo(Duration.ofMinutes(1));
        assertThat(decisions.backoff(3)).isEqualTo(Duration.ofMinutes(4));
        assertThat(decisions.backoff(4)).isEqualTo(Duration.ofMinutes(5));
        assertThat(decisions.backoff(40)).isEqualTo(Duration.ofMinutes(5));
    }

    @Test
    void anExpiredBookingOrRevokedCapacityIsReplacedAtOnce() {
        for (RequestState state : List.of(RequestState.BOOKING_EXPIRED, RequestState.CAPACITY_REVOKED)) {
            ObservedRequest gone = request(1, state, null, NOW);

            ProvisioningPlan plan = decisions.decide(List.of(NEED), Set.of(), List.of(gone), NOW);

            assertThat(plan.deletes()).containsExactly(gone);
            assertThat(plan.creates()).extracting(WantedRequest::name).containsExactly("train-2");
        }
    }

    @Test
    void anAdmittedGangKeepsItsLiveRequestForItsPodsToConsume() {
        // The autoscaler may write Provisioned only after the nodes appear, and the gang is admitted when they do.
        for (RequestState state : List.of(RequestState.ACCEPTED, RequestState.PROVISIONED)) {
            ObservedRequest live = request(1, state, null, NOW);

            ProvisioningPlan plan = decisions.decide(List.of(), Set.of(TRAIN), List.of(live), NOW);

            assertThat(plan.deletes()).isEmpty();
            assertThat(plan.creates()).isEmpty();
            assertThat(plan.consumed()).containsExactly(live);
        }
    }

    @Test
    void aPlacedOrGoneGangLosesItsRequestsAndAnAdmittedOneItsFailedRequest() {
        ObservedRequest provisioned = request(1, RequestState.PROVISIONED, null, NOW);
        ObservedRequest failed = request(1, RequestState.FAILED, null, NOW);

        assertThat(decisions.decide(List.of(), Set.of(), List.of(provisioned), NOW).deletes())
                .containsExactly(provisioned);
        ProvisioningPlan admitted = decisions.decide(List.of(), Set.of(TRAIN), List.of(failed), NOW);
        assertThat(admitted.deletes()).containsExactly(failed);
        assertThat(admitted.consumed()).isEmpty();
    }

    @Test
    void onlyTheLatestAttemptOfAGangIsKept() {
        ObservedRequest old = request(1, RequestState.FAILED, null, NOW.minusSeconds(600));
        ObservedRequest latest = request(2, RequestState.ACCEPTED, null, NOW);

        ProvisioningPlan plan = decisions.decide(List.of(NEED), Set.of(), List.of(latest, old), NOW);

        assertThat(plan.deletes()).containsExactly(old);
        assertThat(plan.creates()).isEmpty();
        assertThat(plan.statuses().get(TRAIN).request()).isEqualTo("train-2");
    }

    private static ObservedRequest request(int attempt, RequestState state, String message, Instant since) {
        return new ObservedRequest(TRAIN, "train-" + attempt, "7", attempt, state, message, since,
                ProvisioningRequestApi.BEST_EFFORT_ATOMIC, List.of("train-" + attempt + "-worker"));
    }
}
