package dev.muster.local.server;

import com.fasterxml.jackson.databind.JsonNode;
import dev.muster.local.protocol.FieldError;
import dev.muster.local.protocol.Json;
import dev.muster.local.protocol.RequestQuery;
import dev.muster.local.protocol.StatusResponses;
import io.fabric8.mockwebserver.dsl.HttpMethod;
import io.fabric8.mockwebserver.http.MockResponse;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Collectors;

/**
 * The {@code dryRun} option of a write, read as kube-apiserver's handlers read it: from the query of a create,
 * update or patch, and for a DELETE from its {@code DeleteOptions} body when it has one, else from the query.
 * {@code All} is the only value there is; any other is refused as the handlers refuse options that fail
 * validation (a 422 about {@code CreateOptions.meta.k8s.io ""}, see {@code ValidateDryRun} in
 * <a href="https://github.com/kubernetes/kubernetes/blob/master/staging/src/k8s.io/apimachinery/pkg/apis/meta/v1/validation/validation.go">validation.go</a>).
 *
 * @param requested whether the write is a dry run
 * @param refusal   the answer to options that fail validation; null when they pass
 */
record DryRun(boolean requested, MockResponse refusal) {
    private static final String ALL = "All";
    private static final DryRun NONE = new DryRun(false, null);

    /** What a request asks; reads of any kind are never dry runs. */
    static DryRun of(HttpMethod method, String pathWithQuery, byte[] body) {
        String options = switch (method) {
            case POST -> "CreateOptions";
            case PUT -> "UpdateOptions";
            case PATCH -> "PatchOptions";
            case DELETE -> "DeleteOptions";
            default -> null;
        };
        if (options == null) {
            return NONE;
        }
        List<String> values = method == HttpMethod.DELETE && body != null && body.length > 0
                ? fromDeleteOptions(body) : RequestQuery.values(pathWithQuery, "dryRun");
        // An empty value is no dry run, as the request counters read it.
        List<String> given = values.stream().filter(value -> !value.isEmpty()).toList();
        if (given.isEmpty()) {
            return NONE;
        }
        if (given.stream().allMatch(ALL::equals)) {
            return new DryRun(true, null);
        }
        FieldError unsupported = FieldError.notSupported("dryRun", new FieldError.Literal(goStringSlice(given)), List.of(ALL));
        return new DryRun(false, StatusResponses.invalid("meta.k8s.io", options, "", List.of(unsupported)));
    }

    /** The body's {@code dryRun}; none when the body is no JSON object, which the DELETE handler refuses. */
    private static List<String> fromDeleteOptions(byte[] body) {
        JsonNode options;
        try {
            options = Json.parse(body);
        } catch (IOException e) {
            return List.of();
        }
        List<String> values = new ArrayList<>();
        options.path("dryRun").forEach(value -> values.add(value.asText()));
        return values;
    }

    /** The values as Go's {@code %#v} prints a {@code []string}, which is how the API server shows them. */
    private static String goStringSlice(List<String> values) {
        return values.stream().map(value -> '"' + value.replace("\\", "\\\\").replace("\"", "\\\"") + '"')
                .collect(Collectors.joining(", ", "[]string{", "}"));
    }
}
