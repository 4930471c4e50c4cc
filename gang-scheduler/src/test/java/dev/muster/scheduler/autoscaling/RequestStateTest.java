package dev.muster.scheduler.autoscaling;

import org.junit.jupiter.api.Test;

import java.time.Instant;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

class RequestStateTest {
    private static final Instant T = Instant.parse("2026-11-28T00:00:00Z");

    @Test
    void noConditionIsPending() {
        assertThat(RequestState.read(List.of()).state()).isEqualTo(RequestState.PENDING);
    }

    @Test
    void acceptedPassesOnWhyItIsNotProvisionedYet() {
        RequestState.Reading reading = RequestState.read(List.of(
                new RequestState.Condition("Accepted", "True", "Accepted", "accepted", T),
                new RequestState.Condition("Provisioned", "False", "CapacityIsNotFound", "waiting for nodes", T)));

        assertThat(reading.state()).isEqualTo(RequestState.ACCEPTED);
        assertThat(reading.message()).isEqualTo("CapacityIsNotFound: waiting for nodes");
    }

    @Test
    void aTerminalConditionWinsOverProvisioned() {
        RequestState.Reading reading = RequestState.read(List.of(
                new RequestState.Condition("Accepted", "True", null, null, T),
                new RequestState.Condition("Provisioned", "True", null, null, T),
                new RequestState.Condition("BookingExpired", "True", "BookingExpired", null, T.plusSeconds(600))));

        assertThat(reading.state()).isEqualTo(RequestState.BOOKING_EXPIRED);
        assertThat(reading.since()).isEqualTo(T.plusSeconds(600));
    }

    @Test
    void failedIsReadWithTheAutoscalersMessage() {
        RequestState.Reading reading = RequestState.read(List.of(
                new RequestState.Condition("Accepted", "True", null, null, T),
                new RequestState.Condition("Failed", "True", "NoNodeGroupFits", "no group has 8 GPUs", T)));

        assertThat(reading.state()).isEqualTo(RequestState.FAILED);
        assertThat(reading.message()).isEqualTo("NoNodeGroupFits: no group has 8 GPUs");
        assertThat(reading.since()).isEqualTo(T);
    }
}
