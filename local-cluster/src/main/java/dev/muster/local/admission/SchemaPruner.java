package dev.muster.local.admission;

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
 * {@code kind} and {@code metadata} at the root and of embedded resources, which the schema never prunes. Nulls in
 * declared fields that are neither nullable nor defaulted are dropped too, silently, as kube-apiserver does before
 * it validates. What was dropped as unknown is returned, for the API server's {@code fieldValidation}
 * ({@code Strict} refuses it, {@code Warn} warns).
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

    /**
     * Whether a null in a field of this schema is dropped before validation, as kube-apiserver's
     * PruneNonNullableNullsWithoutDefaults does (Go clients write {@code "field": null} for every struct field
     * without omitempty): the field is not nullable and has no default. Not a pruned unknown field: no warning.
     */
    private static boolean droppedWhenNull(JsonNode schema) {
        return !schema.path("nullable").asBoolean(false) && !schema.has("default");
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
            JsonNode declared = properties.has(field.getKey()) ? properties.get(field.getKey())
                    : additional != null && additional.isObject() ? additional : null;
            if (hasObjectHeader && OBJECT_HEADER.contains(field.getKey())) {
                // Never pruned by the schema, whatever it says of them: controller-gen declares the root metadata
                // as a bare {type: object}, which would otherwise drop name, namespace and labels.
                continue;
            }
            if (declared != null && field.getValue().isNull() && droppedWhenNull(declared)) {
                it.remove();
            } else if (declared != null) {
                prune(field.getValue(), declared, at, dropped);
            } else if (!preserve) {
                it.remove();
                dropped.add(at);
            }
        }
    }
}
