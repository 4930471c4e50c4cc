package dev.muster.local.disruption;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.muster.api.KubeTime;
import dev.muster.local.store.Selectors;

import java.time.Duration;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.time.temporal.ChronoUnit;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * The arithmetic of kube-controller-manager's disruption controller for {@code policy/v1} PodDisruptionBudgets,
 * on plain JSON objects: which pods a budget selects, and the status it derives from them.
 * <ul>
 * <li>A budget selects the pods of its namespace that its {@code spec.selector} matches; a budget without a
 * selector selects none, an empty selector every pod.</li>
 * <li>{@code expectedPods} is the number of selected pods. (The controller takes it from the scale of the pods'
 * controllers for {@code maxUnavailable} and percentages; the local cluster has no scalable controllers for
 * Muster's pods, so it counts the pods, as the controller does for an integer {@code minAvailable}.)</li>
 * <li>{@code desiredHealthy} is {@code minAvailable}, or {@code expectedPods - maxUnavailable}, percentages
 * of {@code expectedPods} rounded up; 0 when neither is set.</li>
 * <li>{@code currentHealthy} counts the selected pods that are Ready, not being deleted and not in
 * {@code disruptedPods} (evictions the API server admitted and the pod's deletion has not shown yet; an entry
 * is dropped once its pod is gone or being deleted, or after {@link #DISRUPTED_POD_TIMEOUT}).</li>
 * <li>{@code disruptionsAllowed} is {@code currentHealthy - desiredHealthy}, at least 0, and 0 when no pod is
 * expected; condition {@code DisruptionAllowed} says whether it is positive.</li>
 * </ul>
 */
final class DisruptionBudgets {
    /** How long an admitted eviction keeps its pod out of {@code currentHealthy} if the pod is not deleted. */
    static final Duration DISRUPTED_POD_TIMEOUT = Duration.ofMinutes(2);
    static final String DISRUPTION_ALLOWED = "DisruptionAllowed";

    private DisruptionBudgets() {
    }

    /**
     * Whether the budget selects the pod.
     *
     * @throws IllegalArgumentException if the budget's selector has an unknown operator
     */
    static boolean selects(JsonNode budget, JsonNode pod) {
        JsonNode selector = budget.path("spec").path("selector");
        return selector.isObject()
                && budget.path("metadata").path("namespace").asText().equals(pod.path("metadata").path("namespace").asText())
                && Selectors.ofLabelSelector(selector).matches(pod);
    }

    /** Whether the pod counts towards {@code currentHealthy}: Ready and not being deleted. */
    static boolean healthy(JsonNode pod) {
        if (pod.path("metadata").hasNonNull("deletionTimestamp")) {
            return false;
        }
        for (JsonNode condition : pod.path("status").path("conditions")) {
            if ("Ready".equals(condition.path("type").asText())) {
                return "True".equals(condition.path("status").asText());
            }
        }
        return false;
    }

    /**
     * The status the disruption controller would write for the budget now.
     *
     * @param budget   the budget as stored (its current status supplies {@code disruptedPods} and the
     *                 condition's transition time)
     * @param selected the pods it selects ({@link #selects})
     */
    static ObjectNode status(JsonNode budget, List<JsonNode> selected, Instant now) {
        JsonNode current = budget.path("status");
        ObjectNode status = JsonNodeFactory.instance.objectNode();
        status.put("observedGeneration", budget.path("metadata").path("generation").asLong(0));
        ObjectNode disrupted = stillDisrupted(current.path("disruptedPods"), selected, now);
        int expected = selected.size();
        long healthy = selected.stream()
                .filter(pod -> !disrupted.has(pod.path("metadata").path("name").asText()))
                .filter(DisruptionBudgets::healthy)
                .count();
        int desired;
        try {
            desired = desiredHealthy(budget.path("spec"), expected);
        } catch (IllegalArgumentException e) {
            // The controller cannot sync such a budget and allows no disruption, saying why.
            status.put("disruptionsAllowed", 0).put("currentHealthy", healthy).put("desiredHealthy", 0)
                    .put("expectedPods", expected);
            setDisruptedPods(status, disrupted);
            condition(status, current, "False", "SyncFailed", e.getMessage(), now);
            return status;
        }
        long allowed = expected <= 0 ? 0 : Math.max(healthy - desired, 0);
        status.put("disruptionsAllowed", allowed).put("currentHealthy", healthy).put("desiredHealthy", desired)
                .put("expectedPods", expected);
        setDisruptedPods(status, disrupted);
        if (allowed > 0) {
            condition(status, current, "True", "SufficientPods", "", now);
        } else {
            condition(status, current, "False", "InsufficientPods", "", now);
        }
        return status;
    }

    /** When the earliest entry of {@code status.disruptedPods} expires, if it has one. */
    static Optional<Instant> recheckAt(JsonNode status) {
        Instant earliest = null;
        for (JsonNode time : iterable(status.path("disruptedPods"))) {
            Instant expiry = instant(time.asText()).plus(DISRUPTED_POD_TIMEOUT);
            earliest = earliest == null || expiry.isBefore(earliest) ? expiry : earliest;
        }
        return Optional.ofNullable(earliest);
    }

    /**
     * {@code desiredHealthy} from {@code minAvailable} or {@code maxUnavailable}.
     *
     * @throws IllegalArgumentException if a value is neither an integer nor a percentage, naming the field
     */
    private static int desiredHealthy(JsonNode spec, int expected) {
        if (spec.hasNonNull("maxUnavailable")) {
            return Math.max(expected - scaled(spec.get("maxUnavailable"), expected, "spec.maxUnavailable"), 0);
        }
        if (spec.hasNonNull("minAvailable")) {
            return scaled(spec.get("minAvailable"), expected, "spec.minAvailable");
        }
        return 0;
    }

    /** An int-or-percent against {@code total}, percentages rounded up, as {@code GetScaledValueFromIntOrPercent}. */
    private static int scaled(JsonNode value, int total, String field) {
        if (value.isIntegralNumber()) {
            return value.asInt();
        }
        String text = value.asText();
        if (text.endsWith("%")) {
            try {
                int percent = Integer.parseInt(text.substring(0, text.length() - 1));
                return (int) Math.ceil(percent * (double) total / 100);
            } catch (NumberFormatException e) {
                // reported below with the field's name
            }
        }
        throw new IllegalArgumentException(field + ": invalid value \"" + text + "\": an integer or a percentage is required");
    }

    private static ObjectNode stillDisrupted(JsonNode disruptedPods, List<JsonNode> selected, Instant now) {
        Set<String> live = new HashSet<>();
        for (JsonNode pod : selected) {
            if (!pod.path("metadata").hasNonNull("deletionTimestamp")) {
                live.add(pod.path("metadata").path("name").asText());
            }
        }
        ObjectNode kept = JsonNodeFactory.instance.objectNode();
        disruptedPods.fields().forEachRemaining(entry -> {
            if (live.contains(entry.getKey()) && instant(entry.getValue().asText()).plus(DISRUPTED_POD_TIMEOUT).isAfter(now)) {
                kept.set(entry.getKey(), entry.getValue());
            }
        });
        return kept;
    }

    private static void setDisruptedPods(ObjectNode status, ObjectNode disrupted) {
        if (!disrupted.isEmpty()) {
            status.set("disruptedPods", disrupted);
        }
    }

    private static void condition(ObjectNode status, JsonNode current, String value, String reason, String message,
                                  Instant now) {
        String since = now.truncatedTo(ChronoUnit.SECONDS).toString();
        for (JsonNode existing : current.path("conditions")) {
            if (DISRUPTION_ALLOWED.equals(existing.path("type").asText()) && value.equals(existing.path("status").asText())) {
                since = existing.path("lastTransitionTime").asText(since);
            }
        }
        ObjectNode condition = status.withArray("conditions").addObject().put("type", DISRUPTION_ALLOWED)
                .put("status", value).put("reason", reason).put("lastTransitionTime", since)
                .put("observedGeneration", status.path("observedGeneration").asLong());
        if (!message.isEmpty()) {
            condition.put("message", message);
        }
    }

    private static Iterable<JsonNode> iterable(JsonNode object) {
        return object::elements;
    }

    private static Instant instant(String time) {
        try {
            return KubeTime.parse(time);
        } catch (DateTimeParseException e) {
            // An unreadable time cannot keep a pod out of the count.
            return Instant.EPOCH;
        }
    }
}
