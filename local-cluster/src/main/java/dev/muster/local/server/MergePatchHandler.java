package dev.muster.local.server;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.muster.local.protocol.FieldError;
import dev.muster.local.protocol.Json;
import dev.muster.local.protocol.RequestQuery;
import dev.muster.local.protocol.StatusResponses;
import dev.muster.local.store.FieldSet;
import dev.muster.local.store.ListTypes;
import dev.muster.local.store.ManagedFields;
import dev.muster.local.store.MergePatches;
import dev.muster.local.store.StoredObjects;
import io.fabric8.kubernetes.api.model.Status;
import io.fabric8.kubernetes.api.model.StatusBuilder;
import io.fabric8.kubernetes.api.model.StatusCauseBuilder;
import io.fabric8.mockwebserver.http.MockResponse;

import java.io.IOException;
import java.net.HttpURLConnection;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.function.Consumer;
import java.util.function.Function;

/**
 * PATCH requests other than JSON Patch, which the stock dispatcher handles itself: JSON merge patch (fabric8's
 * {@code patch()} of a whole object, kubectl on custom resources), strategic merge patch (kubectl on built-in
 * kinds) and server-side apply ({@link ManagedFields#apply}: field ownership, conflicts, removal of what the
 * applier no longer sets; an apply to a missing object creates it). The patched object is written as a PUT of
 * the whole object, which keeps the stock dispatcher's status-subresource rules and optimistic locking: a
 * patch carrying a stale {@code metadata.resourceVersion} answers 409.
 */
final class MergePatchHandler {
    /** The merge flavours, by PATCH content type. */
    enum Flavour {
        JSON_MERGE("application/merge-patch+json"),
        STRATEGIC("application/strategic-merge-patch+json"),
        APPLY("application/apply-patch+yaml");

        private final String contentType;

        Flavour(String contentType) {
            this.contentType = contentType;
        }

        static Optional<Flavour> of(String contentType) {
            if (contentType == null) {
                return Optional.empty();
            }
            String mediaType = contentType.split(";")[0].trim();
            for (Flavour flavour : values()) {
                if (flavour.contentType.equalsIgnoreCase(mediaType)) {
                    return Optional.of(flavour);
                }
            }
            return Optional.empty();
        }
    }

    private static final String STATUS_SUFFIX = "/status";

    private final StoredObjects store;
    private final Function<String, ListTypes> lists;
    private final Consumer<ArrayNode> appliedFields;

    /**
     * @param lists         the list types of the kind at an API path
     * @param appliedFields told an apply's managedFields before it is written, since a status write would drop them
     */
    MergePatchHandler(StoredObjects store, Function<String, ListTypes> lists, Consumer<ArrayNode> appliedFields) {
        this.store = store;
        this.lists = lists;
        this.appliedFields = appliedFields;
    }

    /**
     * Applies a patch to the object at {@code path} (without query; {@code pathWithQuery} carries an apply's
     * {@code fieldManager} and {@code force}). The caller must keep other writes out until this returns, since
     * the read and the write are one step.
     */
    MockResponse patch(String path, String pathWithQuery, Flavour flavour, String body) {
        JsonNode patch;
        try {
            patch = flavour == Flavour.APPLY ? Json.parseYaml(body) : Json.parse(body.getBytes(StandardCharsets.UTF_8));
        } catch (IOException e) {
            return StatusResponses.badRequest("the patch is not valid " + (flavour == Flavour.APPLY ? "YAML" : "JSON")
                    + ": " + e.getMessage());
        }
        if (patch == null || !patch.isObject()) {
            return StatusResponses.badRequest("the patch must be an object");
        }
        Optional<ObjectNode> current = store.get(path);
        if (flavour == Flavour.APPLY) {
            return apply(path, pathWithQuery, (ObjectNode) patch, current);
        }
        if (current.isEmpty()) {
            // An empty 404, which the dispatcher words like the API server.
            return new MockResponse().setResponseCode(HttpURLConnection.HTTP_NOT_FOUND);
        }
        Optional<JsonNode> patched = flavour == Flavour.STRATEGIC
                ? MergePatches.strategicMerge(current.get(), patch)
                : Optional.of(MergePatches.jsonMerge(current.get(), patch));
        return patched.map(object -> store.replace(path, object))
                .orElseGet(() -> StatusResponses.badRequest("a patch cannot delete the object; use DELETE"));
    }

    /**
     * Server-side apply. Without a {@code fieldManager} it is refused as kube-apiserver's patch options
     * validation refuses it; with conflicts and no {@code force=true}, answered 409 with one cause per conflict.
     */
    private MockResponse apply(String path, String pathWithQuery, ObjectNode config, Optional<ObjectNode> current) {
        String manager = RequestQuery.values(pathWithQuery, "fieldManager").stream().findFirst().orElse("");
        if (manager.isEmpty()) {
            return StatusResponses.invalid("meta.k8s.io", "PatchOptions", "",
                    List.of(new FieldError(FieldError.Type.REQUIRED, "fieldManager", null, "is required for apply patch")));
        }
        boolean force = RequestQuery.values(pathWithQuery, "force").contains("true");
        if (current.isEmpty() && path.endsWith(STATUS_SUFFIX)) {
            // An empty 404, which the dispatcher words like the API server.
            return new MockResponse().setResponseCode(HttpURLConnection.HTTP_NOT_FOUND);
        }
        String subresource = path.endsWith(STATUS_SUFFIX) ? "status" : "";
        ManagedFields.Applied applied = ManagedFields.apply(current.orElse(null), config,
                ManagedFields.Manager.apply(manager, config.path("apiVersion").asText(""), subresource), force,
                lists.apply(path), Instant.now());
        if (!applied.conflicts().isEmpty()) {
            Status status = new StatusBuilder().withStatus("Failure").withCode(HttpURLConnection.HTTP_CONFLICT)
                    .withReason("Conflict").withMessage(applied.message()).withNewDetails()
                    .withCauses(applied.conflicts().stream().map(conflict -> new StatusCauseBuilder()
                            .withReason("FieldManagerConflict").withMessage("conflict with " + conflict.owner().printed())
                            .withField(FieldSet.describe(conflict.path())).build()).toList())
                    .endDetails().build();
            return StatusResponses.json(HttpURLConnection.HTTP_CONFLICT, status);
        }
        appliedFields.accept((ArrayNode) applied.object().path("metadata").path("managedFields"));
        return current.isEmpty() ? store.create(path.substring(0, path.lastIndexOf('/')), applied.object())
                : store.replace(path, applied.object());
    }
}
