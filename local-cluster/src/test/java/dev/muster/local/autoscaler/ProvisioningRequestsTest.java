package dev.muster.local.autoscaler;

import org.junit.jupiter.api.Test;

import java.time.Instant;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

class ProvisioningRequestsTest {
    private static final Instant T0 = Instant.parse("2026-01-01T00:00:00Z");
    private static final Instant T1 = T0.plusSeconds(60);

    @Test
    void aConditionKeepsItsTransitionTimeWhileItsStatusStaysAndMovesItWhenItChanges() {
        List<Map<String, Object>> notFound = ProvisioningRequests.set(List.of(), "Provisioned", false,
                "CapacityIsNotFound", "try again", 1, T0);
        List<Map<String, Object>> stillNotFound = ProvisioningRequests.set(notFound, "Provisioned", false,
                "CapacityIsNotFound", "try again: other reason", 1, T1);
        assertThat(ProvisioningRequests.since(stillNotFound, "Provisioned")).contains(T0);
        assertThat(ProvisioningRequests.find(stillNotFound, "Provisioned").orElseThrow())
                .containsEntry("message", "try again: other reason");

        List<Map<String, Object>> provisioned = ProvisioningRequests.set(stillNotFound, "Provisioned", true,
                "CapacityIsProvisioned", "done", 1, T1);
        assertThat(provisioned).hasSize(1);
        assertThat(ProvisioningRequests.since(provisioned, "Provisioned")).contains(T1);
        assertThat(ProvisioningRequests.isTrue(provisioned, "Provisioned")).isTrue();
    }

    @Test
    void conditionsReadBackFromJsonAreTheSameDespiteNumberTypes() {
        List<Map<String, Object>> written = ProvisioningRequests.set(List.of(), "Accepted", true, "Accepted", "ok", 3, T0);
        Map<String, Object> read = new java.util.LinkedHashMap<>(written.get(0));
        read.put("observedGeneration", 3);
        assertThat(ProvisioningRequests.same(written, List.of(read))).isTrue();
        assertThat(ProvisioningRequests.same(written, List.of())).isFalse();
    }
}
