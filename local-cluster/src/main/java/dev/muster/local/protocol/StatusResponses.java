package dev.muster.local.protocol;

import io.fabric8.kubernetes.api.model.Status;
import io.fabric8.kubernetes.api.model.StatusBuilder;
import io.fabric8.kubernetes.client.utils.Serialization;
import io.fabric8.mockwebserver.http.MockResponse;

import java.net.HttpURLConnection;
import java.util.List;

/**
 * {@code meta/v1 Status} responses worded like the real API server's, so that clients classify them the same
 * way (fabric8's {@code KubernetesClientException.getCode()}, kubectl's {@code Error from server (NotFound)}).
 */
public final class StatusResponses {
    private static final int UNPROCESSABLE_ENTITY = 422;

    private StatusResponses() {
    }

    /** A 404 for an object that does not exist. */
    public static MockResponse notFound(String resource, String name) {
        return failure(HttpURLConnection.HTTP_NOT_FOUND, "NotFound", resource, name,
                resource + " \"" + name + "\" not found");
    }

    /** A 404 for a path that names no resource at all, such as an unknown API group. */
    public static MockResponse pathNotFound() {
        return failure(HttpURLConnection.HTTP_NOT_FOUND, "NotFound", null, null,
                "the server could not find the requested resource");
    }

    /** A 409, as for a stale resourceVersion or an object that exists already. */
    public static MockResponse conflict(String resource, String name, String problem) {
        return failure(HttpURLConnection.HTTP_CONFLICT, "Conflict", resource, name,
                "Operation cannot be fulfilled on " + resource + " \"" + name + "\": " + problem);
    }

    /** A 403 naming what is forbidden and why. */
    public static MockResponse forbidden(String resource, String name, String problem) {
        return failure(HttpURLConnection.HTTP_FORBIDDEN, "Forbidden", resource, name,
                resource + " \"" + name + "\" is forbidden: " + problem);
    }

    /** A 400 with the message given. */
    public static MockResponse badRequest(String message) {
        return failure(HttpURLConnection.HTTP_BAD_REQUEST, "BadRequest", null, null, message);
    }

    /** A 422 for an object refused with one message and no field causes. */
    public static MockResponse invalid(String resource, String name, String message) {
        return failure(UNPROCESSABLE_ENTITY, "Invalid", resource, name, message);
    }

    /**
     * The API server's answer to an object that fails validation: {@code Kind.group "name" is invalid: ...}
     * with every error (bracketed when there are several) and one cause per error.
     */
    public static MockResponse invalid(String group, String kind, String name, List<FieldError> errors) {
        List<String> messages = errors.stream().map(FieldError::toString).distinct().toList();
        String aggregate = messages.size() == 1 ? messages.get(0) : "[" + String.join(", ", messages) + "]";
        Status status = new StatusBuilder().withStatus("Failure").withCode(UNPROCESSABLE_ENTITY).withReason("Invalid")
                .withMessage((group == null || group.isEmpty() ? kind : kind + "." + group) + " \"" + name + "\" is invalid: " + aggregate)
                .withNewDetails().withGroup(group).withKind(kind).withName(name)
                .withCauses(errors.stream().map(FieldError::toCause).toList()).endDetails()
                .build();
        return json(UNPROCESSABLE_ENTITY, status);
    }

    /** A 415 for a body in a format the server cannot read, saying which. */
    public static MockResponse unsupportedMediaType(String message) {
        return failure(415, "UnsupportedMediaType", null, null, message);
    }

    /** A 405 for an HTTP method the emulator does not serve. */
    public static MockResponse methodNotAllowed(String method) {
        return failure(HttpURLConnection.HTTP_BAD_METHOD, "MethodNotAllowed", null, null,
                method + " is not supported by the local cluster's API emulator");
    }

    /** A 500 with the message given. */
    public static MockResponse internalError(String message) {
        return failure(HttpURLConnection.HTTP_INTERNAL_ERROR, "InternalError", null, null, message);
    }

    /** What the API server answers to a successful binding: a bare {@code Success} status. */
    public static MockResponse created() {
        Status status = new StatusBuilder().withStatus("Success").withCode(HttpURLConnection.HTTP_CREATED).build();
        return json(HttpURLConnection.HTTP_CREATED, status);
    }

    private static MockResponse failure(int code, String reason, String resource, String name, String message) {
        StatusBuilder status = new StatusBuilder().withStatus("Failure").withCode(code).withReason(reason)
                .withMessage(message);
        if (resource != null) {
            status.withNewDetails().withKind(resource).withName(name).endDetails();
        }
        return json(code, status.build());
    }

    /** A JSON response of any body and code. */
    public static MockResponse json(int code, Object body) {
        return new MockResponse().setResponseCode(code).setHeader("Content-Type", "application/json")
                .setBody(Serialization.asJson(body));
    }
}
