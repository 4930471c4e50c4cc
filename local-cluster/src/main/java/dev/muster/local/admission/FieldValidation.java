package dev.muster.local.admission;

import dev.muster.local.protocol.RequestQuery;
import dev.muster.local.protocol.StatusResponses;
import io.fabric8.mockwebserver.http.MockResponse;

import java.util.List;
import java.util.Optional;
import java.util.stream.Collectors;

/**
 * The {@code fieldValidation} query parameter of a write: what the API server does about the unknown fields it
 * drops from the body. {@code Warn}, the default, answers a {@code Warning} header per field; {@code Strict}
 * refuses the write with 400; {@code Ignore} drops them silently.
 */
public enum FieldValidation {
    /** Unknown fields are dropped silently. */
    IGNORE,
    /** Unknown fields are dropped, with a {@code Warning} header each. */
    WARN,
    /** A body with an unknown field is refused. */
    STRICT;

    /** The directive of a request, {@link #WARN} when it names none. */
    public static FieldValidation of(String pathWithQuery) {
        return RequestQuery.parameter(pathWithQuery, "fieldValidation")
                .map(mode -> mode.equalsIgnoreCase("Strict") ? STRICT : mode.equalsIgnoreCase("Ignore") ? IGNORE : WARN)
                .orElse(WARN);
    }

    /**
     * Under {@link #STRICT}, the API server's refusal of a body with unknown fields (their paths, such as
     * {@code spec.containers[0].resorces}): 400 {@code Pod in version "v1" cannot be handled as a Pod: strict
     * decoding error: unknown field "..."}; empty when there are none or the directive is another.
     */
    public Optional<MockResponse> refusal(String kind, String version, List<String> unknownFields) {
        if (this != STRICT || unknownFields.isEmpty()) {
            return Optional.empty();
        }
        return Optional.of(StatusResponses.badRequest(kind + " in version \"" + version + "\" cannot be handled as a "
                + kind + ": strict decoding error: "
                + unknownFields.stream().map(FieldValidation::unknownField).collect(Collectors.joining(", "))));
    }

    /** The response with, under {@link #WARN}, a {@code Warning: 299 - "unknown field \"...\""} header per field. */
    public MockResponse warned(MockResponse response, List<String> unknownFields) {
        return this == WARN ? withWarnings(response, unknownFields.stream().map(FieldValidation::unknownField).toList())
                : response;
    }

    /**
     * The response with a {@code Warning} header per text, as kube-apiserver writes them: code 299, agent {@code -},
     * the text quoted with its quotes and backslashes escaped.
     */
    public static MockResponse withWarnings(MockResponse response, List<String> texts) {
        texts.forEach(text -> response.addHeader("Warning",
                "299 - \"" + text.replace("\\", "\\\\").replace("\"", "\\\"") + "\""));
        return response;
    }

    private static String unknownField(String path) {
        return "unknown field \"" + path + "\"";
    }
}
