package dev.muster.local.admission;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

import java.util.Iterator;
import java.util.Map;

/**
 * Fills in the {@code default}s of a structural schema, as kube-apiserver does when it decodes a custom resource
 * (apiextensions-apiserver's structural defaulting): a declared field that is absent, or null without being
 * {@code nullable}, gets a copy of its default, at every level (object properties, list items, map values), and
 * the defaults are then defaulted within. A field is only defaulted where its parent object exists: a default on
 * {@code spec.preemption.reclaim} fills a {@code preemption} the object has, it does not create one.
 *
 * <p>Written by hand because no JSON Schema library applies defaults with the API server's rules (nulls, and no
 * defaults below an absent object); it runs after pruning, which leaves a null only where a default may replace it.
 */
final class SchemaDefaulter {

    private SchemaDefaulter() {
    }

    /** Defaults {@code value} in place against the schema of its field. */
    static void applyDefaults(JsonNode value, JsonNode schema) {
        if (value == null || schema == null) {
            return;
        }
        if (value.isObject()) {
            defaultFields((ObjectNode) value, schema);
        } else if (value.isArray() && schema.has("items")) {
            for (JsonNode item : value) {
                applyDefaults(item, schema.get("items"));
            }
        }
    }

    private static void defaultFields(ObjectNode object, JsonNode schema) {
        JsonNode properties = schema.path("properties");
        for (Iterator<Map.Entry<String, JsonNode>> it = properties.fields(); it.hasNext(); ) {
            Map.Entry<String, JsonNode> property = it.next();
            JsonNode fallback = property.getValue().get("default");
            JsonNode present = object.get(property.getKey());
            if (fallback != null && (present == null
                    || present.isNull() && !property.getValue().path("nullable").asBoolean(false))) {
                object.set(property.getKey(), fallback.deepCopy());
            }
        }
        JsonNode additional = schema.get("additionalProperties");
        for (Iterator<Map.Entry<String, JsonNode>> it = object.fields(); it.hasNext(); ) {
            Map.Entry<String, JsonNode> field = it.next();
            JsonNode declared = properties.get(field.getKey());
            applyDefaults(field.getValue(), declared != null ? declared
                    : additional != null && additional.isObject() ? additional : null);
        }
    }
}
