package dev.muster.local.admission;

import com.fasterxml.jackson.databind.JsonNode;
import dev.muster.local.protocol.Json;

import java.io.IOException;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Pattern;

/**
 * Refuses what kube-apiserver cannot decode in a {@code metav1.MicroTime} field: Go parses one with the exact
 * layout {@code 2006-01-02T15:04:05.000000Z07:00} (six digits of fraction, then {@code Z} or an offset), so an
 * Event whose {@code eventTime} has nanoseconds, as {@code Instant.toString()} writes it, is answered 400 and
 * lost. The emulator took such Events, and client-go, decoding them into typed objects, then failed on every
 * list that held one ({@code kubectl describe} showed "Events: &lt;none&gt;"). Checked on every create and
 * update of Events (core ones, and {@code events.k8s.io} ones, which are written as core ones) and of Leases;
 * {@code null} is the zero time, as in Go.
 */
public final class MicroTimes {
    /** Go's {@code metav1.RFC3339Micro}. */
    static final String LAYOUT = "2006-01-02T15:04:05.000000Z07:00";
    private static final Pattern MICRO = Pattern.compile("\\d{4}-\\d{2}-\\d{2}T\\d{2}:\\d{2}:\\d{2}\\.\\d{6}(Z|[+-]\\d{2}:\\d{2})");
    private static final Map<Pattern, List<List<String>>> FIELDS = Map.of(
            Pattern.compile("/api/v1/namespaces/[^/]+/events(/[^/]+)?"),
            List.of(List.of("eventTime"), List.of("series", "lastObservedTime")),
            Pattern.compile("/apis/coordination\\.k8s\\.io/v1/namespaces/[^/]+/leases(/[^/]+)?"),
            List.of(List.of("spec", "acquireTime"), List.of("spec", "renewTime")));

    private MicroTimes() {
    }

    /**
     * Why the API server cannot decode a write to this path with this body, naming the field and the value;
     * empty when it can, or when the path is not one with MicroTime fields.
     */
    public static Optional<String> refusal(String pathWithQuery, byte[] body) {
        if (body == null) {
            return Optional.empty();
        }
        String path = pathWithQuery.split("\\?", 2)[0];
        List<List<String>> fields = FIELDS.entrySet().stream().filter(e -> e.getKey().matcher(path).matches())
                .map(Map.Entry::getValue).findFirst().orElse(null);
        if (fields == null) {
            return Optional.empty();
        }
        JsonNode object;
        try {
            object = Json.parse(body);
        } catch (IOException e) {
            // The stock handler answers a body that is not JSON.
            return Optional.empty();
        }
        for (List<String> field : fields) {
            JsonNode value = object;
            for (String step : field) {
                value = value.path(step);
            }
            if (value.isMissingNode() || value.isNull()) {
                continue;
            }
            if (!value.isTextual() || !MICRO.matcher(value.asText()).matches()) {
                return Optional.of(object.path("kind").asText("object") + " cannot be decoded: "
                        + String.join(".", field) + ": parsing time " + value + " as \"" + LAYOUT
                        + "\": a MicroTime needs exactly six digits of fraction");
            }
        }
        return Optional.empty();
    }
}
