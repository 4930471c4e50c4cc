package dev.muster.local.disruption;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.fabric8.kubernetes.client.utils.Serialization;
import org.junit.jupiter.api.Test;

import java.time.Instant;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/** The disruption controller's arithmetic on plain objects. */
class DisruptionBudgetsTest {
    private static final Instant NOW = Instant.parse("2026-01-01T12:00:00Z");

    @Test
    void aPodEvictedRecentlyIsNotHealthyUntilItsDeletionShowsOrTheEntryExpires() {
        ObjectNode budget = budget(Map.of("minAvailable", 1));
        budget.withObjectProperty("status").withObjectProperty("disruptedPods")
                .put("p-0", "2026-01-01T11:59:30Z").put("p-1", "2026-01-01T11:50:00Z");
        List<JsonNode> pods = List.of(ready("p-0", false), ready("p-1", false), ready("p-2", false));

        ObjectNode status = DisruptionBudgets.status(budget, pods, NOW);

        // p-0's entry holds; p-1's is older than two minutes and dropped.
        assertThat(status.path("currentHealthy").asInt()).isEqualTo(2);
        assertThat(status.path("disruptionsAllowed").asInt()).isEqualTo(1);
        assertThat(status.path("disruptedPods").has("p-0")).isTrue();
        assertThat(status.path("disruptedPods").has("p-1")).isFalse();
        assertThat(DisruptionBudgets.recheckAt(status)).contains(Instant.parse("2026-01-01T12:01:30Z"));
    }

    @Test
    void terminatingPodsAreNotHealthyAndMinAvailablePercentRoundsUp() {
        ObjectNode budget = budget(Map.of("minAvailable", "50%"));
        List<JsonNode> pods = List.of(ready("p-0", false), ready("p-1", false), ready("p-2", true));

        ObjectNode status = DisruptionBudgets.status(budget, pods, NOW);

        assertThat(status.path("expectedPods").asInt()).isEqualTo(3);
        assertThat(status.path("desiredHealthy").asInt()).isEqualTo(2);
        assertThat(status.path("currentHealthy").asInt()).isEqualTo(2);
        assertThat(status.path("disruptionsAllowed").asInt()).isZero();
        assertThat(status.path("conditions").get(0).path("reason").asText()).isEqualTo("InsufficientPods");
    }

    @Test
    void aValueThatIsNeitherAnIntegerNorAPercentageAllowsNothingAndSaysWhichField() {
        ObjectNode status = DisruptionBudgets.status(budget(Map.of("maxUnavailable", "half")),
                List.of(ready("p-0", false)), NOW);

        assertThat(status.path("disruptionsAllowed").asInt()).isZero();
        JsonNode condition = status.path("conditions").get(0);
        assertThat(condition.path("reason").asText()).isEqualTo("SyncFailed");
        assertThat(condition.path("message").asText()).contains("spec.maxUnavailable").contains("half");
    }

    @Test
    void aBudgetWithoutASelectorSelectsNothingAndAnEmptyOneEverythingInItsNamespace() {
        ObjectNode none = budget(Map.of("minAvailable", 1));
        ((ObjectNode) none.path("spec")).remove("selector");
        ObjectNode all = budget(Map.of("minAvailable", 1));
        ((ObjectNode) all.path("spec")).putObject("selector");
        ObjectNode elsewhere = (ObjectNode) ready("p-9", false);
        elsewhere.withObjectProperty("metadata").put("namespace", "other");

        assertThat(DisruptionBudgets.selects(none, ready("p-0", false))).isFalse();
        assertThat(DisruptionBudgets.selects(all, ready("p-0", false))).isTrue();
        assertThat(DisruptionBudgets.selects(all, elsewhere)).isFalse();
    }

    private static ObjectNode budget(Map<String, Object> spec) {
        ObjectNode budget = Serialization.jsonMapper().valueToTree(Map.of("metadata",
                Map.of("name", "b", "namespace", "default", "generation", 1),
                "spec", Map.of("selector", Map.of("matchLabels", Map.of("app", "x")))));
        spec.forEach((field, value) -> budget.withObjectProperty("spec").set(field,
                Serialization.jsonMapper().valueToTree(value)));
        return budget;
    }

    private static JsonNode ready(String name, boolean terminating) {
        ObjectNode pod = Serialization.jsonMapper().valueToTree(Map.of(
                "metadata", Map.of("name", name, "namespace", "default", "labels", Map.of("app", "x")),
                "status", Map.of("phase", "Running", "conditions", List.of(Map.of("type", "Ready", "status", "True")))));
        if (terminating) {
            pod.withObjectProperty("metadata").put("deletionTimestamp", "2026-01-01T11:59:00Z");
        }
        return pod;
    }
}
