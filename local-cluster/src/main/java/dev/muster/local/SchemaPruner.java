package dev.muster.local;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Drops the fields a structural schema does not declare, as the API server does when it decodes a custom
 * resource: at every level, except below {@code x-kubernetes-preserve-unknown-fields: true} (where declared
 * properties are still pruned inside), in maps ({@code additionalProperties}), and for {@code apiVersion},
 * {@code kind} and {@code metadata} at the root and of embedded resources. What was dropped is returned, for
 * the API server's {@code fieldValidation} ({@code Strict} refuses it, {@code Warn} warns).
 *
 * <p>JSON Schema has no counterpart: {@code additionalProperties: false} refuses an unknown field where the
 * API server drops it, so pruning is done here rather than by the schema validator.
 */
public final class SchemaPruner {
    private static final Set<String> OBJECT_HEADER = Set.of("apiVersion", "kind", "metadata");

    private SchemaPruner() {
    }

    /** Prunes a whole object in place against its version's {@code openAPIV3Schema}; returns the dropped fields' paths. */
    public static List<String> pruneObject(ObjectNode object, JsonNode schema) {
        List<String> dropped = new ArrayList<>();
        pruneFields(object, schema, true, "", dropped);
        return dropped;
    }

    /** Prunes a value at {@code path} in place against the schema of its field; returns the dropped fields' paths. */
    static List<String> prune(JsonNode value, JsonNode schema, String path) {
        List<String> dropped = new ArrayList<>();
        prune(value, schema, path, dropped);
        return dropped;
    }

    private static void prune(JsonNode value, JsonNode schema, String path, List<String> dropped) {
        if (schema == null || value == null) {
            return;
        }
        if (value.isObject()) {
            pruneFields((ObjectNode) value, schema, schema.path("x-kubernetes-embedded-resource").asBoolean(false),
                    path, dropped);
        } else if (value.isArray() && schema.has("items")) {
            for (int i = 0; i < value.size(); i++) {
                prune(value.get(i), schema.get("items"), path + "[" + i + "]", dropped);
            }
        }
    }

    private static void pruneFields(ObjectNode object, JsonNode schema, boolean hasObjectHeader, String path,
                                    List<String> dropped) {
        JsonNode properties = schema.path("properties");
        JsonNode additional = schema.get("additionalProperties");
        boolean preserve = schema.path("x-kubernetes-preserve-unknown-fields").asBoolean(false)
                || additional != null && additional.asBoolean(false);
        for (Iterator<Map.Entry<String, JsonNode>> it = object.fields(); it.hasNext(); ) {
            Map.Entry<String, JsonNode> field = it.next();
            String at = path.isEmpty() ? field.getKey() : path + "." + field.getKey();
            if (properties.has(field.getKey())) {
                prune(field.getValue(), properties.get(field.getKey()), at, dropped);
            } else if (additional != null && additional.isObject()) {
                prune(field.getValue(), additional, at, dropped);
            } else if (!preserve && !(hasObjectHeader && OBJECT_HEADER.contains(field.getKey()))) {
                it.remove();
                dropped.add(at);
            }
        }
    }
}
