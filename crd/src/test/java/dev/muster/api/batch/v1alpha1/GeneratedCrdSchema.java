package dev.muster.api.batch.v1alpha1;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import dev.cel.common.CelValidationException;
import dev.cel.common.types.SimpleType;
import dev.cel.compiler.CelCompiler;
import dev.cel.compiler.CelCompilerFactory;
import dev.cel.parser.CelStandardMacro;
import dev.cel.runtime.CelEvaluationException;
import dev.cel.runtime.CelRuntime;
import dev.cel.runtime.CelRuntimeFactory;
import io.fabric8.kubernetes.client.utils.Serialization;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;

/**
 * The generated Job CRD's schema applied to an object the way an API server applies it at admission:
 * required fields, {@code minimum}, {@code pattern}, {@code maxLength}, {@code minItems}/{@code maxItems}, and
 * every {@code x-kubernetes-validations} rule evaluated with CEL. Only the keywords the generated CRD uses
 * are implemented; the schema is read from the jar the crd-generator built, never from a copy.
 */
final class GeneratedCrdSchema {
    private static final String JOB_CRD = "META-INF/fabric8/jobs.batch.muster.dev-v1.yml";
    private static final CelCompiler COMPILER = CelCompilerFactory.standardCelCompilerBuilder()
            .addVar("self", SimpleType.DYN)
            .addVar("oldSelf", SimpleType.DYN)
            .setStandardMacros(CelStandardMacro.STANDARD_MACROS)
            .build();
    private static final CelRuntime RUNTIME = CelRuntimeFactory.standardCelRuntimeBuilder().build();

    private final JsonNode schema;
    private final Map<String, CelRuntime.Program> programs = new HashMap<>();

    private GeneratedCrdSchema(JsonNode schema) {
        this.schema = schema;
    }

    static GeneratedCrdSchema job() {
        try (InputStream in = GeneratedCrdSchema.class.getClassLoader().getResourceAsStream(JOB_CRD)) {
            if (in == null) {
                throw new IllegalStateException(JOB_CRD + " is not on the class path; run the crd-generator first");
            }
            JsonNode crd = new ObjectMapper(new YAMLFactory()).readTree(in);
            return new GeneratedCrdSchema(crd.at("/spec/versions/0/schema/openAPIV3Schema"));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Every rule in the schema, to check that each compiles. */
    List<String> rules() {
        List<String> rules = new ArrayList<>();
        collectRules(schema, rules);
        return rules;
    }

    /** What the API server would refuse the object for at creation, as {@code path: message}; empty when admitted. */
    List<String> violations(Object object) {
        return violations(object, null);
    }

    /**
     * What the API server would refuse an update from {@code old} to {@code object} for. Transition rules
     * (those using {@code oldSelf}) see the old value where the API server correlates it: object fields and
     * map entries, not list items.
     */
    List<String> violations(Object object, Object old) {
        List<String> violations = new ArrayList<>();
        walk("", schema, json(object), old == null ? null : json(old), violations);
        return violations;
    }

    private static Object json(Object object) {
        return celValue(Serialization.jsonMapper().valueToTree(object));
    }

    private void walk(String path, JsonNode node, Object value, Object old, List<String> out) {
        if (value == null) {
            return;
        }
        String at = path.isEmpty() ? "<root>" : path;
        if (value instanceof Long number && node.has("minimum") && number < node.get("minimum").asDouble()) {
            out.add(at + ": should be greater than or equal to " + node.get("minimum").asLong());
        }
        if (value instanceof String text) {
            if (node.has("pattern") && !Pattern.compile(node.get("pattern").asText()).matcher(text).find()) {
                out.add(at + ": should match '" + node.get("pattern").asText() + "'");
            }
            if (node.has("maxLength") && text.length() > node.get("maxLength").asInt()) {
                out.add(at + ": may not be longer than " + node.get("maxLength").asInt());
            }
        }
        if (value instanceof List<?> list) {
            if (node.has("minItems") && list.size() < node.get("minItems").asInt()) {
                out.add(at + ": should have at least " + node.get("minItems").asInt() + " items");
            }
            if (node.has("maxItems") && list.size() > node.get("maxItems").asInt()) {
                out.add(at + ": should have at most " + node.get("maxItems").asInt() + " items");
            }
            for (int i = 0; i < list.size() && node.has("items"); i++) {
                walk(path + "[" + i + "]", node.get("items"), list.get(i), null, out);
            }
        }
        if (value instanceof Map<?, ?> map) {
            node.path("required").forEach(r -> {
                if (!map.containsKey(r.asText())) {
                    out.add((path.isEmpty() ? "" : path + ".") + r.asText() + ": Required value");
                }
            });
            Map<?, ?> oldMap = old instanceof Map<?, ?> m ? m : Map.of();
            node.path("properties").fields().forEachRemaining(p -> walk((path.isEmpty() ? "" : path + ".") + p.getKey(),
                    p.getValue(), map.get(p.getKey()), oldMap.get(p.getKey()), out));
            if (node.has("additionalProperties") && node.get("additionalProperties").isObject()) {
                map.forEach((k, v) -> walk(path + "." + k, node.get("additionalProperties"), v, oldMap.get(k), out));
            }
        }
        for (JsonNode rule : node.path("x-kubernetes-validations")) {
            String text = rule.get("rule").asText();
            boolean transition = text.contains("oldSelf");
            if (transition && old == null) {
                continue;
            }
            if (!Boolean.TRUE.equals(evaluate(text, value, old))) {
                out.add(at + ": " + rule.get("message").asText());
            }
        }
    }

    private Object evaluate(String rule, Object self, Object oldSelf) {
        try {
            return program(rule).eval(oldSelf == null ? Map.of("self", self) : Map.of("self", self, "oldSelf", oldSelf));
        } catch (CelEvaluationException e) {
            throw new IllegalStateException("rule failed to evaluate: " + rule, e);
        }
    }

    private CelRuntime.Program program(String rule) {
        return programs.computeIfAbsent(rule, r -> {
            try {
                return RUNTIME.createProgram(COMPILER.compile(r).getAst());
            } catch (CelValidationException | CelEvaluationException e) {
                throw new IllegalStateException("rule does not compile: " + r, e);
            }
        });
    }

    /** Every rule compiles, so a syntax error fails here rather than at CRD installation. */
    void compileAll() {
        rules().forEach(this::program);
    }

    private static void collectRules(JsonNode node, List<String> rules) {
        node.path("x-kubernetes-validations").forEach(r -> rules.add(r.get("rule").asText()));
        node.fields().forEachRemaining(e -> {
            if (e.getValue().isContainerNode() && !e.getKey().equals("x-kubernetes-validations")) {
                if (e.getValue().isArray()) {
                    e.getValue().forEach(child -> collectRules(child, rules));
                } else {
                    collectRules(e.getValue(), rules);
                }
            }
        });
    }

    /** JSON as CEL sees it: integers are 64-bit. */
    private static Object celValue(JsonNode json) {
        if (json.isObject()) {
            Map<String, Object> map = new LinkedHashMap<>();
            json.fields().forEachRemaining(e -> map.put(e.getKey(), celValue(e.getValue())));
            return map;
        }
        if (json.isArray()) {
            List<Object> list = new ArrayList<>();
            json.forEach(e -> list.add(celValue(e)));
            return list;
        }
        if (json.isIntegralNumber()) {
            return json.asLong();
        }
        if (json.isNumber()) {
            return json.asDouble();
        }
        if (json.isBoolean()) {
            return json.asBoolean();
        }
        return json.isNull() ? null : json.asText();
    }
}
