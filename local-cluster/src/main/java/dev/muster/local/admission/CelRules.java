package dev.muster.local.admission;

import com.fasterxml.jackson.databind.JsonNode;
import dev.cel.common.CelOptions;
import dev.cel.common.CelValidationException;
import dev.cel.common.types.SimpleType;
import dev.cel.common.values.NullValue;
import dev.cel.compiler.CelCompiler;
import dev.cel.compiler.CelCompilerFactory;
import dev.cel.extensions.CelExtensions;
import dev.cel.parser.CelStandardMacro;
import dev.cel.runtime.CelEvaluationException;
import dev.cel.runtime.CelRuntime;
import dev.cel.runtime.CelRuntimeFactory;
import dev.muster.local.protocol.FieldError;

import java.util.ArrayList;
import java.util.IdentityHashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * Every {@code x-kubernetes-validations} rule of a structural schema, compiled once, evaluated as the API
 * server evaluates them: {@code self} is the value at the rule's node, rules on absent or null values do not
 * run, and a transition rule (one that reads {@code oldSelf}) runs only on update and only where the old
 * value correlates with the new one (object fields, map values and items of {@code x-kubernetes-list-type:
 * map} lists matched by their keys; not items of other lists). At the root, {@code self.metadata} holds only
 * {@code name} and {@code generateName}. A failed rule reports the value of {@code messageExpression}, else
 * {@code message}, else {@code failed rule: <rule>}, at the rule's node plus its {@code fieldPath},
 * with its {@code reason}. On update, a rule that does not read {@code oldSelf} is skipped where the value is
 * unchanged (the API server's ratcheting).
 *
 * <p>Rules are compiled with {@code self} and {@code oldSelf} dynamically typed, where the API server declares
 * their types from the schema; a rule that only type-checks against those types is refused at evaluation
 * rather than when the CRD is created.
 */
final class CelRules {
    private static final CelOptions OPTIONS = CelOptions.current().build();
    private static final CelCompiler COMPILER = CelCompilerFactory.standardCelCompilerBuilder()
            .setOptions(OPTIONS)
            .addVar("self", SimpleType.DYN)
            .addVar("oldSelf", SimpleType.DYN)
            .setStandardMacros(CelStandardMacro.STANDARD_MACROS)
            .addLibraries(CelExtensions.strings(), CelExtensions.sets(OPTIONS))
            .addFunctionDeclarations(KubernetesListFunctions.declarations())
            .build();
    private static final CelRuntime RUNTIME = CelRuntimeFactory.standardCelRuntimeBuilder()
            .setOptions(OPTIONS)
            .addLibraries(CelExtensions.strings(), CelExtensions.sets(OPTIONS))
            .addFunctionBindings(KubernetesListFunctions.bindings())
            .build();

    private final Node root;

    private CelRules(Node root) {
        this.root = root;
    }

    /** Compiles the rules of {@code schema}, a structural schema or a part of one. */
    static CelRules compile(JsonNode schema) {
        return new CelRules(Node.of(schema));
    }

    /** The rules that do not compile, as {@code rule: compiler message}; the API server refuses such a CRD. */
    List<String> uncompilable() {
        List<String> problems = new ArrayList<>();
        collectUncompilable(root, problems);
        return problems;
    }

    private static void collectUncompilable(Node node, List<String> problems) {
        if (node == null) {
            return;
        }
        node.rules().stream().filter(rule -> rule.program() == null)
                .forEach(rule -> problems.add(rule.text() + ": " + rule.compileError()));
        node.properties().values().forEach(child -> collectUncompilable(child, problems));
        collectUncompilable(node.additionalProperties(), problems);
        collectUncompilable(node.items(), problems);
    }

    /**
     * The rules {@code value} (at {@code path}, empty for the object itself) breaks; {@code old} is the value
     * before an update, or {@code null} on create.
     */
    List<FieldError> validate(String path, JsonNode value, JsonNode old) {
        List<FieldError> errors = new ArrayList<>();
        if (root != null) {
            new Evaluation(errors).visit(root, path, value, old, path.isEmpty());
        }
        return errors;
    }

    /** A schema node that has rules, or descendants with rules; subtrees without any are left out. */
    private record Node(String type, List<Rule> rules, Map<String, Node> properties, Node additionalProperties,
                        Node items, List<String> listMapKeys) {

        static Node of(JsonNode schema) {
            if (schema == null || !schema.isObject()) {
                return null;
            }
            List<Rule> rules = new ArrayList<>();
            schema.path("x-kubernetes-validations").forEach(rule -> rules.add(Rule.of(rule)));
            Map<String, Node> properties = new LinkedHashMap<>();
            schema.path("properties").fields().forEachRemaining(p -> {
                Node child = of(p.getValue());
                if (child != null) {
                    properties.put(p.getKey(), child);
                }
            });
            Node additional = of(schema.get("additionalProperties"));
            Node items = of(schema.get("items"));
            if (rules.isEmpty() && properties.isEmpty() && additional == null && items == null) {
                return null;
            }
            List<String> keys = new ArrayList<>();
            if ("map".equals(schema.path("x-kubernetes-list-type").asText())) {
                schema.path("x-kubernetes-list-map-keys").forEach(k -> keys.add(k.asText()));
            }
            return new Node(schema.path("x-kubernetes-int-or-string").asBoolean(false) ? "" : schema.path("type").asText(""),
                    rules, properties, additional, items, keys);
        }
    }

    /** One compiled rule; a rule that does not compile is kept with its compiler's message, reported when it runs. */
    private record Rule(String text, CelRuntime.Program program, String compileError, boolean transition,
                        String message, CelRuntime.Program messageExpression, String fieldPath, FieldError.Type reason) {

        static Rule of(JsonNode rule) {
            String text = rule.path("rule").asText();
            CelRuntime.Program program = null;
            String compileError = null;
            try {
                program = compileProgram(text);
            } catch (CelValidationException | CelEvaluationException e) {
                compileError = e.getMessage();
            }
            CelRuntime.Program messageExpression = null;
            if (rule.hasNonNull("messageExpression")) {
                try {
                    messageExpression = compileProgram(rule.get("messageExpression").asText());
                } catch (CelValidationException | CelEvaluationException e) {
                    // The API server refuses such a CRD; here the rule falls back to its other messages.
                    messageExpression = null;
                }
            }
            return new Rule(text, program, compileError, text.contains("oldSelf"), rule.path("message").asText(""),
                    messageExpression, rule.path("fieldPath").asText(""), reason(rule.path("reason").asText("")));
        }

        private static CelRuntime.Program compileProgram(String expression) throws CelValidationException, CelEvaluationException {
            return RUNTIME.createProgram(COMPILER.compile(expression).getAst());
        }

        private static FieldError.Type reason(String reason) {
            return switch (reason) {
                case "FieldValueRequired" -> FieldError.Type.REQUIRED;
                case "FieldValueForbidden" -> FieldError.Type.FORBIDDEN;
                case "FieldValueDuplicate" -> FieldError.Type.DUPLICATE;
                default -> FieldError.Type.INVALID;
            };
        }
    }

    /** One validation pass; converts each JSON value to CEL's representation at most once. */
    private static final class Evaluation {
        private final List<FieldError> errors;
        private final Map<JsonNode, Object> converted = new IdentityHashMap<>();

        Evaluation(List<FieldError> errors) {
            this.errors = errors;
        }

        void visit(Node node, String path, JsonNode value, JsonNode old, boolean isRoot) {
            if (value == null || value.isNull() || value.isMissingNode()) {
                return;
            }
            boolean correlated = old != null && !old.isNull() && !old.isMissingNode();
            // Ratcheting: a rule is not re-checked against a value the update left as it was.
            boolean unchanged = correlated && value.equals(old);
            for (Rule rule : node.rules()) {
                if (rule.transition() ? correlated : !unchanged) {
                    check(rule, node, path, value, correlated ? old : null, isRoot);
                }
            }
            if (value.isObject()) {
                node.properties().forEach((name, child) ->
                        visit(child, child(path, name), value.get(name), correlated ? old.get(name) : null, false));
                if (node.additionalProperties() != null) {
                    value.fields().forEachRemaining(field -> visit(node.additionalProperties(), child(path, field.getKey()),
                            field.getValue(), correlated ? old.get(field.getKey()) : null, false));
                }
            } else if (value.isArray() && node.items() != null) {
                for (int i = 0; i < value.size(); i++) {
                    JsonNode item = value.get(i);
                    visit(node.items(), path + "[" + i + "]", item,
                            correlated ? sameKeys(node.listMapKeys(), item, old) : null, false);
                }
            }
        }

        private void check(Rule rule, Node node, String path, JsonNode value, JsonNode old, boolean isRoot) {
            String at = field(path, rule.fieldPath());
            if (rule.program() == null) {
                errors.add(FieldError.invalid(at, node.type(), "compilation failed: " + rule.compileError()));
                return;
            }
            Map<String, Object> variables = new LinkedHashMap<>();
            variables.put("self", isRoot ? rootValue(value) : cel(value));
            if (old != null) {
                variables.put("oldSelf", isRoot ? rootValue(old) : cel(old));
            }
            Object result;
            try {
                result = rule.program().eval(variables);
            } catch (CelEvaluationException e) {
                errors.add(FieldError.invalid(at, node.type(), "rule evaluation error: " + e.getMessage()));
                return;
            }
            if (!Boolean.TRUE.equals(result)) {
                errors.add(new FieldError(rule.reason(), at, node.type(), message(rule, variables)));
            }
        }

        /**
         * As the API server: {@code messageExpression} wins over {@code message}; where it fails, or gives a blank
         * string or one with a line break, the rule reads as if it had none.
         */
        private static String message(Rule rule, Map<String, Object> variables) {
            if (rule.messageExpression() != null) {
                try {
                    Object message = rule.messageExpression().eval(variables);
                    if (message instanceof String text && !text.isBlank() && !text.contains("\n")) {
                        return text;
                    }
                } catch (CelEvaluationException e) {
                    // Falls back below, as the API server does.
                }
            }
            if (!rule.message().isEmpty()) {
                return rule.message();
            }
            return "failed rule: " + rule.text();
        }

        /** The root as rules see it: metadata reduced to name and generateName. */
        private Object rootValue(JsonNode object) {
            @SuppressWarnings("unchecked")
            Map<String, Object> self = new LinkedHashMap<>((Map<String, Object>) cel(object));
            JsonNode metadata = object.path("metadata");
            Map<String, Object> visible = new LinkedHashMap<>();
            for (String field : List.of("name", "generateName")) {
                if (metadata.hasNonNull(field)) {
                    visible.put(field, metadata.get(field).asText());
                }
            }
            self.put("metadata", visible);
            return self;
        }

        /** JSON as CEL sees it: integers are 64-bit, null is CEL's null. */
        private Object cel(JsonNode json) {
            Object known = converted.get(json);
            if (known != null) {
                return known;
            }
            Object value;
            if (json.isObject()) {
                Map<String, Object> map = new LinkedHashMap<>();
                json.fields().forEachRemaining(e -> map.put(e.getKey(), cel(e.getValue())));
                value = map;
            } else if (json.isArray()) {
                List<Object> list = new ArrayList<>();
                json.forEach(e -> list.add(cel(e)));
                value = list;
            } else if (json.isIntegralNumber()) {
                value = json.asLong();
            } else if (json.isNumber()) {
                value = json.asDouble();
            } else if (json.isBoolean()) {
                value = json.asBoolean();
            } else if (json.isTextual()) {
                value = json.asText();
            } else {
                value = NullValue.NULL_VALUE;
            }
            converted.put(json, value);
            return value;
        }

        /** The old item of a {@code list-type: map} list with the same keys as {@code item}; none for other lists. */
        private static JsonNode sameKeys(List<String> keys, JsonNode item, JsonNode oldList) {
            if (keys.isEmpty() || !oldList.isArray()) {
                return null;
            }
            for (JsonNode candidate : oldList) {
                if (keys.stream().allMatch(k -> Objects.equals(candidate.get(k), item.get(k)))) {
                    return candidate;
                }
            }
            return null;
        }

        private static String child(String path, String name) {
            return path.isEmpty() ? name : path + "." + name;
        }

        /** The rule's node plus its {@code fieldPath} (such as {@code .spec.replicas}), relative to the node. */
        private static String field(String path, String fieldPath) {
            String field = path + fieldPath;
            field = field.startsWith(".") ? field.substring(1) : field;
            return field.isEmpty() ? FieldError.ROOT : field;
        }
    }
}
