package dev.muster.local.store;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import dev.muster.local.protocol.Json;
import dev.muster.local.protocol.RequestQuery;

import java.io.IOException;

/**
 * What a DELETE of one object asks for, read as the API server reads it: the {@code DeleteOptions} body's
 * {@code gracePeriodSeconds} and {@code preconditions}, else the query parameter {@code gracePeriodSeconds}.
 *
 * @param gracePeriodSeconds   the grace period asked for; null when the request does not say
 * @param uidPrecondition      the uid the object must have; null for none
 * @param versionPrecondition  the resourceVersion the object must have; null for none
 */
public record DeleteRequest(Long gracePeriodSeconds, String uidPrecondition, String versionPrecondition) {
    /** A DELETE that says nothing, as the garbage collector's. */
    static final DeleteRequest DEFAULT = new DeleteRequest(null, null, null);
    private static final JsonNode NO_OPTIONS = JsonNodeFactory.instance.objectNode();

    /**
     * Reads a DELETE request.
     *
     * @param pathWithQuery the request path with its query
     * @param body          the request body, empty or null when there is none
     * @throws IllegalArgumentException if the body is not a JSON object or a grace period is not a number
     */
    public static DeleteRequest of(String pathWithQuery, byte[] body) {
        JsonNode options = options(body);
        DeleteRequest request = of(options);
        return request.gracePeriodSeconds() != null ? request
                : new DeleteRequest(queryGracePeriod(pathWithQuery), request.uidPrecondition(), request.versionPrecondition());
    }

    /**
     * Reads {@code DeleteOptions} given as an object, as an Eviction's {@code deleteOptions}; a missing node is
     * no options.
     *
     * @throws IllegalArgumentException if the options are not an object or the grace period is not an integer
     */
    public static DeleteRequest of(JsonNode options) {
        if (options.isMissingNode() || options.isNull()) {
            return DEFAULT;
        }
        if (!options.isObject()) {
            throw new IllegalArgumentException("deleteOptions is not a JSON object");
        }
        JsonNode grace = options.path("gracePeriodSeconds");
        if (!grace.isMissingNode() && !grace.isNull() && !grace.isIntegralNumber()) {
            throw new IllegalArgumentException("gracePeriodSeconds is not an integer: " + grace);
        }
        JsonNode preconditions = options.path("preconditions");
        return new DeleteRequest(grace.isIntegralNumber() ? Long.valueOf(grace.asLong()) : null,
                text(preconditions.path("uid")), text(preconditions.path("resourceVersion")));
    }

    /** The reason the preconditions refuse {@code stored}, as the API server words it; null if they allow it. */
    public String preconditionFailure(JsonNode stored) {
        JsonNode metadata = stored.path("metadata");
        String uid = metadata.path("uid").asText();
        if (uidPrecondition != null && !uidPrecondition.equals(uid)) {
            return "Precondition failed: UID in precondition: " + uidPrecondition + ", UID in object meta: " + uid;
        }
        String version = metadata.path("resourceVersion").asText();
        if (versionPrecondition != null && !versionPrecondition.equals(version)) {
            return "Precondition failed: ResourceVersion in precondition: " + versionPrecondition
                    + ", ResourceVersion in object meta: " + version;
        }
        return null;
    }

    private static JsonNode options(byte[] body) {
        if (body == null || body.length == 0) {
            return NO_OPTIONS;
        }
        try {
            JsonNode parsed = Json.parse(body);
            if (!parsed.isObject()) {
                throw new IllegalArgumentException("the DeleteOptions body is not a JSON object");
            }
            return parsed;
        } catch (IOException e) {
            throw new IllegalArgumentException("the DeleteOptions body is not valid JSON: " + e.getMessage(), e);
        }
    }

    private static Long queryGracePeriod(String pathWithQuery) {
        return RequestQuery.parameter(pathWithQuery, "gracePeriodSeconds").map(value -> {
            try {
                return Long.valueOf(value);
            } catch (NumberFormatException e) {
                throw new IllegalArgumentException("gracePeriodSeconds is not an integer: " + value, e);
            }
        }).orElse(null);
    }

    private static String text(JsonNode node) {
        return node.isTextual() && !node.asText().isEmpty() ? node.asText() : null;
    }
}
