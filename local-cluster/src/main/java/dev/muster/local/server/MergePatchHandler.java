package dev.muster.local.server;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.muster.local.protocol.Json;
import dev.muster.local.protocol.StatusResponses;
import dev.muster.local.store.MergePatches;
import dev.muster.local.store.StoredObjects;
import io.fabric8.mockwebserver.http.MockResponse;

import java.io.IOException;
import java.net.HttpURLConnection;
import java.nio.charset.StandardCharsets;
import java.util.Optional;

/**
 * PATCH requests other than JSON Patch, which the stock dispatcher handles itself: JSON merge patch (fabric8's
 * {@code patch()} of a whole object, kubectl on custom resources), strategic merge patch (kubectl on built-in
 * kinds) and server-side apply (approximated as a merge patch that creates the object if it is missing; no
 * field ownership). The patched object is written as a PUT of the whole object, which keeps the stock
 * dispatcher's status-subresource rules and optimistic locking: a patch carrying a stale
 * {@code metadata.resourceVersion} answers 409.
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

    MergePatchHandler(StoredObjects store) {
        this.store = store;
    }

    /**
     * Applies a patch to the object at {@code path} (without query). The caller must keep other writes out
     * until this returns, since the read and the write are one step.
     */
    MockResponse patch(String path, Flavour flavour, String body) {
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
        if (current.isEmpty()) {
            if (flavour == Flavour.APPLY && !path.endsWith(STATUS_SUFFIX)) {
                return store.create(path.substring(0, path.lastIndexOf('/')), patch);
            }
            // An empty 404, which the dispatcher words like the API server.
            return new MockResponse().setResponseCode(HttpURLConnection.HTTP_NOT_FOUND);
        }
        Optional<JsonNode> patched = flavour == Flavour.STRATEGIC
                ? MergePatches.strategicMerge(current.get(), patch)
                : Optional.of(MergePatches.jsonMerge(current.get(), patch));
        return patched.map(object -> store.replace(path, object))
                .orElseGet(() -> StatusResponses.badRequest("a patch cannot delete the object; use DELETE"));
    }
}
