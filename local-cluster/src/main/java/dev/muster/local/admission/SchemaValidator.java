package dev.muster.local.admission;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.networknt.schema.JsonNodePath;
import com.networknt.schema.JsonSchema;
import com.networknt.schema.JsonSchemaFactory;
import com.networknt.schema.SchemaValidatorsConfig;
import com.networknt.schema.SpecVersion;
import com.networknt.schema.ValidationMessage;
import dev.muster.local.protocol.FieldError;

import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The type and value constraints of a CRD's structural schema (OpenAPI v3: {@code type}, {@code required},
 * {@code enum}, bounds, lengths, item counts, {@code pattern}, {@code anyOf}...) checked by networknt's JSON
 * Schema validator, with its findings reworded as the API server's {@link FieldError}s.
 *
 * <p>The validator speaks JSON Schema draft 4, on which OpenAPI v3 schemas are based; what Kubernetes adds is
 * translated here before compiling: {@code nullable} and {@code x-kubernetes-int-or-string} become type
 * lists, {@code x-kubernetes-embedded-resource} requires {@code apiVersion} and {@code kind}, and every other
 * {@code x-kubernetes-*} keyword is dropped (pruning and CEL rules are {@link SchemaPruner}'s and
 * {@link CelRules}'s, since no JSON Schema validator knows them). {@code format} is dropped too: the API server
 * checks only its own formats, which draft 4 validators do not share.
 */
final class SchemaValidator {
    private static final JsonSchemaFactory FACTORY = JsonSchemaFactory.getInstance(SpecVersion.VersionFlag.V4);
    private static final SchemaValidatorsConfig CONFIG = SchemaValidatorsConfig.builder()
            .typeLoose(false).failFast(false).formatAssertionsEnabled(false).build();
    /** Keywords of draft 4 that structural schemas may use and that mean the same in both. */
    private static final Set<String> KEPT = Set.of("required", "enum", "minimum", "maximum", "exclusiveMinimum",
            "exclusiveMaximum", "minLength", "maxLength", "pattern", "minItems", "maxItems", "uniqueItems",
            "minProperties", "maxProperties", "multipleOf");
    private static final Set<String> SUBSCHEMA_LISTS = Set.of("allOf", "anyOf", "oneOf");

    private final JsonSchema schema;
    private final String basePath;

    /**
     * @param structural an {@code openAPIV3Schema}, or a part of one
     * @param basePath   the field path of the values it will check ({@code status} for the status part), or empty
     */
    SchemaValidator(JsonNode structural, String basePath) {
        this.schema = FACTORY.getSchema(asJsonSchema(structural), CONFIG);
        this.basePath = basePath;
    }

    /** Everything the schema refuses in {@code value}; empty when it is valid. */
    List<FieldError> validate(JsonNode value) {
        List<FieldError> errors = new ArrayList<>();
        for (ValidationMessage message : schema.validate(value)) {
            errors.add(fieldError(message));
        }
        return errors;
    }

    private FieldError fieldError(ValidationMessage message) {
        String path = path(message.getInstanceLocation());
        JsonNode value = message.getInstanceNode();
        // The value of the keyword that failed: 0 for minimum: 0.
        JsonNode constraint = message.getSchemaNode();
        String in = path + " in body ";
        return switch (message.getType()) {
            case "type" -> FieldError.typeInvalid(path, typeName(value),
                    in + "must be of type " + declaredTypes(constraint) + ": \"" + typeName(value) + "\"");
            case "required" -> FieldError.required(child(path, message.getProperty()));
            case "enum" -> FieldError.notSupported(path, value, enumValues(constraint));
            case "maxLength" -> FieldError.tooLong(path, constraint.asLong());
            case "maxItems", "maxProperties" -> FieldError.tooMany(path, value.size(), constraint.asLong());
            case "minimum" -> FieldError.invalid(path, value, in + "should be greater than "
                    + (exclusive(message) ? "" : "or equal to ") + number(constraint));
            case "maximum" -> FieldError.invalid(path, value, in + "should be less than "
                    + (exclusive(message) ? "" : "or equal to ") + number(constraint));
            case "pattern" -> FieldError.invalid(path, value, in + "should match '" + constraint.asText() + "'");
            case "minLength" -> FieldError.invalid(path, value, in + "should be at least " + constraint.asLong() + " chars long");
            case "minItems" -> FieldError.invalid(path, value.size(), in + "should have at least " + constraint.asLong() + " items");
            case "minProperties" -> FieldError.invalid(path, value.size(), in + "should have at least " + constraint.asLong() + " properties");
            case "multipleOf" -> FieldError.invalid(path, value, in + "should be a multiple of " + number(constraint));
            case "uniqueItems" -> FieldError.invalid(path, value, in + "shouldn't contain duplicates");
            case "anyOf" -> combinator(path, "must validate at least one schema (anyOf)");
            case "oneOf" -> combinator(path, "must validate one and only one schema (oneOf)");
            case "allOf" -> combinator(path, "must validate all the schemas (allOf)");
            case "not" -> combinator(path, "must not validate the schema (not)");
            default -> FieldError.invalid(path, value, message.getMessage());
        };
    }

    /** The API server reports a failed combinator against the object itself, naming the field in the detail. */
    private static FieldError combinator(String path, String detail) {
        return FieldError.invalid(FieldError.ROOT, "", "\"" + path + "\" " + detail);
    }

    /** Draft 4's {@code exclusiveMinimum: true} and {@code exclusiveMaximum: true} change the validator's message only. */
    private static boolean exclusive(ValidationMessage message) {
        return message.getMessageKey().startsWith("exclusive");
    }

    /** {@code spec.tasks[0].name}, below the validator's base path. */
    private String path(JsonNodePath location) {
        StringBuilder path = new StringBuilder(basePath);
        for (int i = 0; i < location.getNameCount(); i++) {
            Object element = location.getElement(i);
            if (element instanceof Integer index) {
                path.append('[').append(index).append(']');
            } else {
                if (!path.isEmpty()) {
                    path.append('.');
                }
                path.append(element);
            }
        }
        return path.toString();
    }

    private static String child(String path, String name) {
        return path.isEmpty() ? name : path + "." + name;
    }

    /** JSON's type names as the API server prints them; an integral number is an integer. */
    static String typeName(JsonNode value) {
        if (value == null || value.isNull() || value.isMissingNode()) {
            return "null";
        }
        if (value.isIntegralNumber()) {
            return "integer";
        }
        return switch (value.getNodeType()) {
            case NUMBER -> "number";
            case BOOLEAN -> "boolean";
            case STRING -> "string";
            case ARRAY -> "array";
            case OBJECT -> "object";
            default -> "null";
        };
    }

    /** The declared type(s) without the {@code null} that {@code nullable} added. */
    private static String declaredTypes(JsonNode type) {
        if (type == null || !type.isArray()) {
            return type == null ? "" : type.asText();
        }
        List<String> names = new ArrayList<>();
        type.forEach(t -> {
            if (!"null".equals(t.asText())) {
                names.add(t.asText());
            }
        });
        return String.join(",", names);
    }

    private static List<String> enumValues(JsonNode values) {
        List<String> names = new ArrayList<>();
        if (values != null) {
            values.forEach(v -> names.add(v.isTextual() ? v.asText() : v.toString()));
        }
        return names;
    }

    /** A bound as Go's {@code %v} prints a float64: {@code 0}, {@code 1.5}. */
    private static String number(JsonNode bound) {
        return new BigDecimal(bound.asText()).stripTrailingZeros().toPlainString();
    }

    /** The structural schema as a draft 4 JSON Schema; see the class comment for what is translated. */
    static JsonNode asJsonSchema(JsonNode structural) {
        ObjectNode out = JsonNodeFactory.instance.objectNode();
        if (structural == null || !structural.isObject()) {
            return out;
        }
        List<String> types = new ArrayList<>();
        if (structural.path("x-kubernetes-int-or-string").asBoolean(false)) {
            types.add("integer");
            types.add("string");
        } else if (structural.hasNonNull("type")) {
            types.add(structural.get("type").asText());
        }
        if (!types.isEmpty() && structural.path("nullable").asBoolean(false)) {
            types.add("null");
        }
        if (types.size() == 1) {
            out.put("type", types.get(0));
        } else if (!types.isEmpty()) {
            ArrayNode list = out.putArray("type");
            types.forEach(list::add);
        }
        for (Iterator<Map.Entry<String, JsonNode>> it = structural.fields(); it.hasNext(); ) {
            Map.Entry<String, JsonNode> field = it.next();
            String keyword = field.getKey();
            JsonNode value = field.getValue();
            if (KEPT.contains(keyword)) {
                out.set(keyword, value.deepCopy());
            } else if (keyword.equals("properties")) {
                ObjectNode properties = out.putObject("properties");
                value.fields().forEachRemaining(p -> properties.set(p.getKey(), asJsonSchema(p.getValue())));
            } else if (keyword.equals("items") || keyword.equals("not")
                    || keyword.equals("additionalProperties") && value.isObject()) {
                out.set(keyword, asJsonSchema(value));
            } else if (SUBSCHEMA_LISTS.contains(keyword)) {
                ArrayNode list = out.putArray(keyword);
                value.forEach(s -> list.add(asJsonSchema(s)));
            }
        }
        if (structural.path("x-kubernetes-embedded-resource").asBoolean(false)) {
            ObjectNode properties = out.has("properties") ? (ObjectNode) out.get("properties") : out.putObject("properties");
            properties.putObject("apiVersion").put("type", "string");
            properties.putObject("kind").put("type", "string");
            properties.putObject("metadata").put("type", "object");
            ArrayNode required = out.has("required") ? (ArrayNode) out.get("required") : out.putArray("required");
            required.add("apiVersion").add("kind");
        }
        return out;
    }
}
