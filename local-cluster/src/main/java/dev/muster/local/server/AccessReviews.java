package dev.muster.local.server;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.muster.local.protocol.Json;
import dev.muster.local.protocol.StatusResponses;
import io.fabric8.mockwebserver.http.MockResponse;

import java.io.IOException;
import java.net.HttpURLConnection;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The review APIs, decided by {@link ClusterAccess}: {@code TokenReview} and {@code SelfSubjectReview}
 * ({@code authentication.k8s.io/v1}), {@code SubjectAccessReview}, {@code SelfSubjectAccessReview} and
 * {@code LocalSubjectAccessReview} ({@code authorization.k8s.io/v1}). As in kube-apiserver they are create-only
 * and stored nowhere: the answer (201) echoes the request's spec with the status filled in. A self review
 * asks about the requester, named by its bearer token ({@code system:anonymous} without one; an unknown token
 * is refused with 401, as kube-apiserver refuses any request with a bad token).
 */
final class AccessReviews {
    private static final String AUTHENTICATION = "/apis/authentication.k8s.io/v1/";
    private static final String AUTHORIZATION = "/apis/authorization.k8s.io/v1/";
    private static final Pattern LOCAL = Pattern.compile(
            "/apis/authorization\\.k8s\\.io/v1/namespaces/([^/]+)/localsubjectaccessreviews");
    private static final int UNPROCESSABLE_ENTITY = 422;
    private static final ClusterAccess.User ANONYMOUS =
            new ClusterAccess.User("system:anonymous", List.of("system:unauthenticated"));
    private static final String BEARER = "Bearer ";

    private final ClusterAccess access;

    AccessReviews(ClusterAccess access) {
        this.access = access;
    }

    /** Whether {@code path} (without query) is one of the review collections. */
    static boolean isReview(String path) {
        return kind(path).isPresent();
    }

    /**
     * The review of {@code content} (JSON; kubectl's protobuf is read into JSON before) posted to {@code path};
     * {@code authorization} is the request's header, if any.
     */
    MockResponse review(String path, byte[] content, String authorization) {
        JsonNode body;
        try {
            body = Json.parse(content);
        } catch (IOException e) {
            return StatusResponses.badRequest("the request body cannot be read: " + e.getMessage());
        }
        String kind = kind(path).orElseThrow(() -> new IllegalArgumentException("not a review path: " + path));
        if (!body.isObject() || !kind.equals(body.path("kind").asText(kind))) {
            return StatusResponses.badRequest("the body of a " + kind + " request must be a " + kind);
        }
        ObjectNode review = ((ObjectNode) body).deepCopy();
        review.put("apiVersion", path.startsWith(AUTHENTICATION) ? "authentication.k8s.io/v1" : "authorization.k8s.io/v1");
        review.put("kind", kind);
        if (!review.path("metadata").isObject()) {
            review.putObject("metadata");
        }
        ObjectNode spec = review.path("spec").isObject() ? (ObjectNode) review.get("spec") : review.putObject("spec");
        Optional<ClusterAccess.User> requester = requester(authorization);
        return switch (kind) {
            case "TokenReview" -> tokenReview(review, spec);
            case "SelfSubjectReview" -> requester.map(user -> {
                writeUser(review.putObject("status").putObject("userInfo"), user);
                return created(review);
            }).orElseGet(AccessReviews::unauthorized);
            case "SelfSubjectAccessReview" -> requester.map(user -> accessReview(review, spec, user))
                    .orElseGet(AccessReviews::unauthorized);
            case "LocalSubjectAccessReview" -> localReview(path, review, spec);
            default -> subjectReview(review, spec);
        };
    }

    private MockResponse tokenReview(ObjectNode review, ObjectNode spec) {
        String token = spec.path("token").asText("");
        if (token.isEmpty()) {
            return StatusResponses.badRequest("token is required for TokenReview in authentication");
        }
        ObjectNode status = review.putObject("status");
        Optional<ClusterAccess.User> user = access.authenticate(token);
        status.put("authenticated", user.isPresent());
        user.ifPresent(u -> writeUser(status.putObject("user"), u));
        if (user.isPresent() && spec.path("audiences").isArray() && !spec.path("audiences").isEmpty()) {
            // The local cluster's tokens are good for any audience.
            status.set("audiences", spec.get("audiences").deepCopy());
        }
        if (user.isEmpty()) {
            status.put("error", "invalid bearer token");
        }
        return created(review);
    }

    private MockResponse subjectReview(ObjectNode review, ObjectNode spec) {
        String name = spec.path("user").asText("");
        List<String> groups = strings(spec.path("groups"));
        if (name.isEmpty() && groups.isEmpty()) {
            return invalid(review, "spec.user: Invalid value: \"\": at least one of user or group must be specified");
        }
        return accessReview(review, spec, new ClusterAccess.User(name, spec.path("uid").asText(""), groups));
    }

    private MockResponse localReview(String path, ObjectNode review, ObjectNode spec) {
        Matcher local = LOCAL.matcher(path);
        String namespace = local.matches() ? local.group(1) : "";
        JsonNode attributes = spec.path("resourceAttributes");
        if (!attributes.isObject() || !namespace.equals(attributes.path("namespace").asText(""))) {
            return invalid(review, "spec.resourceAttributes.namespace: Invalid value: \""
                    + attributes.path("namespace").asText("") + "\": must match metadata.namespace");
        }
        return subjectReview(review, spec);
    }

    private MockResponse accessReview(ObjectNode review, ObjectNode spec, ClusterAccess.User user) {
        JsonNode resource = spec.path("resourceAttributes");
        JsonNode nonResource = spec.path("nonResourceAttributes");
        if (resource.isObject() == nonResource.isObject()) {
            return invalid(review, "spec.resourceAttributes: Invalid value: \"null\": exactly one of "
                    + "nonResourceAttributes or resourceAttributes must be specified");
        }
        ClusterAccess.Request request = resource.isObject()
                ? new ClusterAccess.Request(user, text(resource, "verb"), text(resource, "group"),
                text(resource, "resource"), text(resource, "subresource"), text(resource, "namespace"),
                text(resource, "name"), null)
                : new ClusterAccess.Request(user, text(nonResource, "verb"), "", "", "", "", "",
                text(nonResource, "path"));
        boolean allowed = access.allows(request);
        ObjectNode status = review.putObject("status");
        status.put("allowed", allowed);
        if (allowed) {
            status.put("reason", access.allowsEverything() ? "the local cluster allows every request"
                    : "allowed by the local cluster's authorizer");
        }
        return created(review);
    }

    private Optional<ClusterAccess.User> requester(String authorization) {
        if (authorization == null || !authorization.regionMatches(true, 0, BEARER, 0, BEARER.length())) {
            return Optional.of(ANONYMOUS);
        }
        return access.authenticate(authorization.substring(BEARER.length()).trim());
    }

    private static Optional<String> kind(String path) {
        if (path.equals(AUTHENTICATION + "tokenreviews")) {
            return Optional.of("TokenReview");
        }
        if (path.equals(AUTHENTICATION + "selfsubjectreviews")) {
            return Optional.of("SelfSubjectReview");
        }
        if (path.equals(AUTHORIZATION + "subjectaccessreviews")) {
            return Optional.of("SubjectAccessReview");
        }
        if (path.equals(AUTHORIZATION + "selfsubjectaccessreviews")) {
            return Optional.of("SelfSubjectAccessReview");
        }
        return LOCAL.matcher(path).matches() ? Optional.of("LocalSubjectAccessReview") : Optional.empty();
    }

    private static void writeUser(ObjectNode target, ClusterAccess.User user) {
        target.put("username", user.name());
        if (!user.uid().isEmpty()) {
            target.put("uid", user.uid());
        }
        ArrayNode groups = target.putArray("groups");
        user.groups().forEach(groups::add);
    }

    private static List<String> strings(JsonNode array) {
        List<String> values = new ArrayList<>();
        array.forEach(value -> values.add(value.asText()));
        return values;
    }

    private static String text(JsonNode node, String field) {
        return node.path(field).asText("");
    }

    private static MockResponse created(ObjectNode review) {
        return StatusResponses.json(HttpURLConnection.HTTP_CREATED, review);
    }

    private static MockResponse invalid(ObjectNode review, String problem) {
        return StatusResponses.json(UNPROCESSABLE_ENTITY, JsonNodeFactory.instance.objectNode()
                .put("apiVersion", "v1").put("kind", "Status").put("status", "Failure").put("code", UNPROCESSABLE_ENTITY)
                .put("reason", "Invalid")
                .put("message", review.path("kind").asText() + "." + review.path("apiVersion").asText().split("/")[0]
                        + " \"\" is invalid: " + problem));
    }

    private static MockResponse unauthorized() {
        return StatusResponses.json(HttpURLConnection.HTTP_UNAUTHORIZED, JsonNodeFactory.instance.objectNode()
                .put("apiVersion", "v1").put("kind", "Status").put("status", "Failure")
                .put("code", HttpURLConnection.HTTP_UNAUTHORIZED).put("reason", "Unauthorized")
                .put("message", "Unauthorized"));
    }
}
