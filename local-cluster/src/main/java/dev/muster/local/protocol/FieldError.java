package dev.muster.local.protocol;

import com.fasterxml.jackson.databind.JsonNode;
import io.fabric8.kubernetes.api.model.StatusCause;
import io.fabric8.kubernetes.api.model.StatusCauseBuilder;

import java.util.List;
import java.util.stream.Collectors;

/**
 * One reason the API server refuses an object, worded as the API server's {@code field.Error}: a field path
 * ({@code spec.tasks[0].replicas}, or {@code <nil>} for the object itself), a type that becomes the
 * {@code StatusCause} reason, the offending value where the type shows one, and a detail.
 *
 * @param type   what is wrong
 * @param field  the field path as the API server writes it
 * @param value  the value shown after the type, or {@code null} where the type shows none
 * @param detail what the value should have been; may be empty
 */
public record FieldError(Type type, String field, Object value, String detail) {
    /** The field path of errors about the object as a whole: the API server prints its nil path so. */
    public static final String ROOT = "<nil>";

    /** The API server's {@code field.ErrorType}s that admission produces: cause reason and printed name. */
    public enum Type {
        REQUIRED("FieldValueRequired", "Required value", false),
        INVALID("FieldValueInvalid", "Invalid value", true),
        TYPE_INVALID("FieldValueTypeInvalid", "Invalid value", true),
        NOT_SUPPORTED("FieldValueNotSupported", "Unsupported value", true),
        TOO_LONG("FieldValueTooLong", "Too long", false),
        TOO_MANY("FieldValueTooMany", "Too many", true),
        FORBIDDEN("FieldValueForbidden", "Forbidden", false),
        DUPLICATE("FieldValueDuplicate", "Duplicate value", true),
        NOT_FOUND("FieldValueNotFound", "Not found", true);

        private final String reason;
        private final String printed;
        private final boolean showsValue;

        Type(String reason, String printed, boolean showsValue) {
            this.reason = reason;
            this.printed = printed;
            this.showsValue = showsValue;
        }
    }

    /**
     * A value the API server prints in Go's syntax rather than as a string or number, such as the
     * {@code []string{"x"}} of a query parameter's values; shown as given, unquoted.
     *
     * @param text the value as the API server prints it
     */
    public record Literal(String text) {
        @Override
        public String toString() {
            return text;
        }
    }

    /** A required field that is missing ({@code FieldValueRequired}). */
    public static FieldError required(String field) {
        return new FieldError(Type.REQUIRED, field, null, "");
    }

    /** A value that breaks a rule, with what the rule says ({@code FieldValueInvalid}). */
    public static FieldError invalid(String field, Object value, String detail) {
        return new FieldError(Type.INVALID, field, value, detail);
    }

    /** A value of the wrong JSON type ({@code FieldValueTypeInvalid}). */
    public static FieldError typeInvalid(String field, String actualType, String detail) {
        return new FieldError(Type.TYPE_INVALID, field, actualType, detail);
    }

    /** A value outside an enumeration, listing the supported ones ({@code FieldValueNotSupported}). */
    public static FieldError notSupported(String field, Object value, List<String> supported) {
        return new FieldError(Type.NOT_SUPPORTED, field, value, "supported values: "
                + supported.stream().map(FieldError::quoted).collect(Collectors.joining(", ")));
    }

    /** A field that may not be set or changed, saying why ({@code FieldValueForbidden}). */
    public static FieldError forbidden(String field, String detail) {
        return new FieldError(Type.FORBIDDEN, field, null, detail);
    }

    /** A value that must be unique and is not ({@code FieldValueDuplicate}). */
    public static FieldError duplicate(String field, Object value) {
        return new FieldError(Type.DUPLICATE, field, value, "");
    }

    /** A reference to something that does not exist, such as a volume a mount names ({@code FieldValueNotFound}). */
    public static FieldError notFound(String field, Object value) {
        return new FieldError(Type.NOT_FOUND, field, value, "");
    }

    /** A string longer than its schema allows ({@code FieldValueTooLong}). */
    public static FieldError tooLong(String field, long maxLength) {
        return new FieldError(Type.TOO_LONG, field, null, "may not be more than " + maxLength + " bytes");
    }

    /** A list or map with more items than its schema allows ({@code FieldValueTooMany}). */
    public static FieldError tooMany(String field, long actual, long max) {
        return new FieldError(Type.TOO_MANY, field, actual, "must have at most " + max + " items");
    }

    /** What follows the field in the API server's message: {@code Invalid value: "x": detail}. */
    String body() {
        StringBuilder body = new StringBuilder(type.printed);
        if (type.showsValue) {
            body.append(": ").append(printed(value));
        }
        if (!detail.isEmpty()) {
            body.append(": ").append(detail);
        }
        return body.toString();
    }

    StatusCause toCause() {
        return new StatusCauseBuilder().withReason(type.reason).withField(field).withMessage(body()).build();
    }

    @Override
    public String toString() {
        return field + ": " + body();
    }

    /** Strings quoted, numbers, booleans and null bare, anything else as JSON, as the API server prints them. */
    private static String printed(Object value) {
        if (value == null) {
            return "null";
        }
        if (value instanceof JsonNode json) {
            return json.isTextual() ? quoted(json.asText()) : json.toString();
        }
        return value instanceof String text ? quoted(text) : String.valueOf(value);
    }

    private static String quoted(String text) {
        return '"' + text.replace("\\", "\\\\").replace("\"", "\\\"") + '"';
    }
}
