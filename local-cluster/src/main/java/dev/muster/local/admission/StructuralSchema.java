package dev.muster.local.admission;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.MissingNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.muster.local.protocol.FieldError;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.function.Supplier;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * One version's {@code openAPIV3Schema} of a CustomResourceDefinition, compiled for admission: pruning, defaults, the
 * schema's constraints ({@link SchemaValidator}) and its CEL rules ({@link CelRules}), for whole objects and for
 * the status part alone (what a {@code /status} write may change).
 *
 * <p>On update, errors are ratcheted as the API server does since Kubernetes 1.30: a constraint broken by a
 * value that the update left unchanged is not reported, so that an object stored before a stricter schema can
 * still be updated elsewhere; transition rules always run.
 *
 * <p>Public so that {@code muster convert} refuses what a cluster would, in the API server's words, offline.
 */
public final class StructuralSchema {
    private static final Pattern PATH_ELEMENT = Pattern.compile("([^.\\[\\]]+)|\\[(\\d+)]");
    private static final String STATUS = "status";
    private static final String RULES_NOT_CHECKED = "some validation rules were not checked because the object was invalid; "
            + "correct the existing errors to complete validation";

    private final JsonNode schema;
    private final SchemaValidator objectValidator;
    private final SchemaValidator statusValidator;
    private final CelRules objectRules;
    private final CelRules statusRules;

    public StructuralSchema(JsonNode openApiV3Schema) {
        this.schema = openApiV3Schema;
        JsonNode statusSchema = openApiV3Schema.path("properties").path(STATUS);
        this.objectValidator = new SchemaValidator(openApiV3Schema, "");
        this.statusValidator = new SchemaValidator(statusSchema, STATUS);
        this.objectRules = CelRules.compile(openApiV3Schema);
        this.statusRules = CelRules.compile(statusSchema);
    }

    /** Prunes {@code object} in place; returns the paths of the fields dropped. */
    public List<String> pruneObject(ObjectNode object) {
        return SchemaPruner.pruneObject(object, schema);
    }

    /** Fills in {@code object}'s absent fields that the schema gives a {@code default}, in place. */
    void defaultObject(ObjectNode object) {
        SchemaDefaulter.applyDefaults(object, schema);
    }

    /** Fills in {@code status}'s absent fields that the schema gives a {@code default}, in place. */
    void defaultStatus(JsonNode status) {
        SchemaDefaulter.applyDefaults(status, schema.path("properties").path(STATUS));
    }

    /** Prunes {@code status} in place; returns the paths of the fields dropped. */
    List<String> pruneStatus(JsonNode status) {
        return SchemaPruner.prune(status, schema.path("properties").path(STATUS), STATUS);
    }

    /** What the API server would refuse a (pruned) object for; {@code old} is the stored object on update, null on create. */
    public List<FieldError> validateObject(ObjectNode object, JsonNode old) {
        return withRules(ratcheted(objectValidator.validate(object), object, old), () -> objectRules.validate("", object, old));
    }

    /** What the API server would refuse a (pruned) status for in a status write. */
    List<FieldError> validateStatus(JsonNode status, JsonNode oldStatus) {
        if (status == null || status.isNull()) {
            return List.of();
        }
        List<FieldError> errors = new ArrayList<>();
        for (FieldError error : statusValidator.validate(status)) {
            if (!unchanged(error.field(), withStatus(status), withStatus(oldStatus))) {
                errors.add(error);
            }
        }
        return withRules(errors, () -> statusRules.validate(STATUS, status, oldStatus));
    }

    /**
     * The CEL rules' errors after the schema's, or, as the API server does, instead of running the rules on an
     * object that breaks the schema, a note that they did not run.
     */
    private static List<FieldError> withRules(List<FieldError> schemaErrors, Supplier<List<FieldError>> rules) {
        List<FieldError> errors = new ArrayList<>(schemaErrors);
        if (errors.isEmpty()) {
            errors.addAll(rules.get());
        } else {
            errors.add(FieldError.invalid(FieldError.ROOT, null, RULES_NOT_CHECKED));
        }
        return errors;
    }

    private static List<FieldError> ratcheted(List<FieldError> errors, JsonNode object, JsonNode old) {
        if (old == null) {
            return errors;
        }
        List<FieldError> kept = new ArrayList<>();
        for (FieldError error : errors) {
            if (!unchanged(error.field(), object, old)) {
                kept.add(error);
            }
        }
        return kept;
    }

    private static JsonNode withStatus(JsonNode status) {
        return status == null ? null : JsonNodeFactory.instance.objectNode().set(STATUS, status);
    }

    /** Whether the value at a field path ({@code spec.tasks[0].name}) is the same in both objects, absence included. */
    private static boolean unchanged(String field, JsonNode object, JsonNode old) {
        if (old == null || field.equals(FieldError.ROOT)) {
            return false;
        }
        return Objects.equals(at(object, field), at(old, field));
    }

    private static JsonNode at(JsonNode root, String field) {
        JsonNode node = root;
        Matcher element = PATH_ELEMENT.matcher(field);
        while (element.find()) {
            node = element.group(1) != null ? node.path(element.group(1)) : node.path(Integer.parseInt(element.group(2)));
        }
        return node.isMissingNode() ? MissingNode.getInstance() : node;
    }
}
