package dev.muster.local.store;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.fabric8.zjsonpatch.JsonPatch;

/**
 * JSON Patch (RFC 6902) as the stock dispatcher applies it, so that clients see no change now that the emulator
 * applies JSON patches of custom resources itself: missing parent objects of every operation's path are
 * created first (fabric8's {@code edit()} adds {@code /metadata/annotations/x} to objects without annotations).
 */
public final class JsonPatches {
    private JsonPatches() {
    }

    /**
     * The patched copy of {@code target}.
     *
     * @throws RuntimeException (zjsonpatch's) if an operation does not apply
     */
    public static JsonNode apply(JsonNode patch, JsonNode target) {
        JsonNode copy = target.deepCopy();
        for (JsonNode operation : patch) {
            String[] segments = operation.path("path").asText().replaceFirst("^/", "").split("/");
            JsonNode node = copy;
            for (int i = 0; i < segments.length - 1; i++) {
                String name = segments[i].replace("~1", "/").replace("~0", "~");
                if (node.isObject() && node.get(name) == null) {
                    ((ObjectNode) node).putObject(name);
                }
                node = node.isArray() && name.matches("\\d+") ? node.path(Integer.parseInt(name)) : node.path(name);
            }
        }
        return JsonPatch.apply(patch, copy);
    }
}
