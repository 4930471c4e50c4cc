package dev.muster.local;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

import java.util.Iterator;
import java.util.Map;
import java.util.Set;

/**
 * Drops the fields a structural schema does not declare, as the API server does when it decodes a custom
 * resource: silently, at every level, except below {@code x-kubernetes-preserve-unknown-fields: true} (where
 * declared properties are still pruned inside), in maps ({@code additionalProperties}), and for
 * {@code apiVersion}, {@code kind} and {@code metadata} at the root and of embedded resources.
 *
 * <p>JSON Schema has no counterpart: {@code additionalProperties: false} refuses an unknown field where the
 * API server drops it, so pruning is done here rather than by the schema validator.
 */
final class SchemaPruner {
    private static final Set<String> OBJECT_HEADER = Set.of("apiVersion", "kind", "metadata");

    private SchemaPruner() {
    }

    /** Prunes a whole object in place against its version's {@code openAPIV3Schema}. */
    static void pruneObject(ObjectNode object, JsonNode schema) {
        pruneFields(object, schema, true);
    }

    /** Prunes a value in place against the schema of its field. */
    static void prune(JsonNode value, JsonNode schema) {
        if (schema == null || value == null) {
            return;
        }
        if (value.isObject()) {
            pruneFields((ObjectNode) value, schema, schema.path("x-kubernetes-embedded-resource").asBoolean(false));
        } else if (value.isArray() && schema.has("items")) {
            value.forEach(item -> prune(item, schema.get("items")));
        }
    }

    private static void pruneFields(ObjectNode object, JsonNode schema, boolean hasObjectHeader) {
        JsonNode properties = schema.path("properties");
        JsonNode additional = schema.get("additionalProperties");
        boolean preserve = schema.path("x-kubernetes-preserve-unknown-fields").asBoolean(false)
                || additional != null && additional.asBoolean(false);
        for (Iterator<Map.Entry<String, JsonNode>> it = object.fields(); it.hasNext(); ) {
            Map.Entry<String, JsonNode> field = it.next();
            if (properties.has(field.getKey())) {
                prune(field.getValue(), properties.get(field.getKey()));
            } else if (additional != null && additional.isObject()) {
                prune(field.getValue(), additional);
            } else if (!preserve && !(hasObjectHeader && OBJECT_HEADER.contains(field.getKey()))) {
                it.remove();
            }
        }
    }
}
