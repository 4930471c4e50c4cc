package dev.muster.local.store;

import com.fasterxml.jackson.databind.JsonNode;

import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The {@code labelSelector} and {@code fieldSelector} of a list, watch or delete-collection request, evaluated
 * on JSON objects. The stock dispatcher evaluates field selectors only on {@code metadata.name} and
 * {@code metadata.namespace} (any other {@code =} selector matches nothing, {@code !=} everything) and
 * ignores set-based label requirements ({@code in}, {@code notin}). Here any field path can be selected on,
 * a missing field reading as the empty string, as the API server does for {@code spec.nodeName=}.
 */
public final class Selectors {
    private static final Pattern SET_REQUIREMENT = Pattern.compile("([^\\s!=,()]+)\\s+(in|notin)\\s*\\((.*)\\)");
    private static final Pattern VALUE_REQUIREMENT = Pattern.compile("([^\\s!=,()]+)\\s*(==|!=|=)\\s*([^\\s,()]*)");
    private static final Pattern KEY = Pattern.compile("!?[^\\s!=,()]+");
    private static final Set<String> SELECTOR_PARAMETERS = Set.of("labelSelector", "fieldSelector");
    /**
     * Field labels that are not their field's path: an Event's {@code source} selects on {@code source.component},
     * as kube-apiserver's Event strategy has it; no other kind has a field label {@code source}.
     */
    private static final Map<String, String> FIELD_LABEL_PATHS = Map.of("source", "source.component");

    private enum Operator { IN, NOT_IN, EXISTS, NOT_EXISTS }

    private record Requirement(Function<JsonNode, String> valueOf, Operator operator, Set<String> values) {
        boolean matches(JsonNode object) {
            String value = valueOf.apply(object);
            return switch (operator) {
                case IN -> value != null && values.contains(value);
                case NOT_IN -> value == null || !values.contains(value);
                case EXISTS -> value != null;
                case NOT_EXISTS -> value == null;
            };
        }
    }

    private final List<Requirement> requirements;

    private Selectors(List<Requirement> requirements) {
        this.requirements = requirements;
    }

    /**
     * The selectors in a request path's query.
     *
     * @throws IllegalArgumentException if a selector cannot be parsed
     */
    public static Selectors of(String pathWithQuery) {
        List<Requirement> requirements = new ArrayList<>();
        int query = pathWithQuery.indexOf('?');
        if (query >= 0) {
            for (String parameter : pathWithQuery.substring(query + 1).split("&")) {
                int equals = parameter.indexOf('=');
                String name = equals < 0 ? parameter : parameter.substring(0, equals);
                String value = equals < 0 ? "" : URLDecoder.decode(parameter.substring(equals + 1), StandardCharsets.UTF_8);
                if (name.equals("labelSelector")) {
                    splitRequirements(value).forEach(r -> requirements.add(labelRequirement(r)));
                } else if (name.equals("fieldSelector")) {
                    splitFieldTerms(value).forEach(r -> requirements.add(fieldRequirement(r)));
                }
            }
        }
        return new Selectors(requirements);
    }

    /**
     * A {@code meta/v1 LabelSelector} object ({@code matchLabels}, {@code matchExpressions} with {@code In},
     * {@code NotIn}, {@code Exists}, {@code DoesNotExist}) as label requirements, as
     * {@code metav1.LabelSelectorAsSelector} reads it: an empty selector selects everything.
     *
     * @throws IllegalArgumentException if an expression has an unknown operator, naming it
     */
    public static Selectors ofLabelSelector(JsonNode selector) {
        List<Requirement> requirements = new ArrayList<>();
        selector.path("matchLabels").fields().forEachRemaining(label -> requirements.add(
                new Requirement(labelValue(label.getKey()), Operator.IN, Set.of(label.getValue().asText()))));
        for (JsonNode expression : selector.path("matchExpressions")) {
            String key = expression.path("key").asText();
            Set<String> values = new HashSet<>();
            expression.path("values").forEach(value -> values.add(value.asText()));
            Operator operator = switch (expression.path("operator").asText()) {
                case "In" -> Operator.IN;
                case "NotIn" -> Operator.NOT_IN;
                case "Exists" -> Operator.EXISTS;
                case "DoesNotExist" -> Operator.NOT_EXISTS;
                default -> throw new IllegalArgumentException("matchExpressions: \"" + expression.path("operator").asText()
                        + "\" is not a valid label selector operator");
            };
            requirements.add(new Requirement(labelValue(key), operator, Set.copyOf(values)));
        }
        return new Selectors(requirements);
    }

    /** The path without its selector parameters, for the stock dispatcher, which would misapply them. */
    public static String withoutSelectors(String pathWithQuery) {
        int query = pathWithQuery.indexOf('?');
        if (query < 0) {
            return pathWithQuery;
        }
        List<String> kept = new ArrayList<>();
        for (String parameter : pathWithQuery.substring(query + 1).split("&")) {
            int equals = parameter.indexOf('=');
            if (!SELECTOR_PARAMETERS.contains(equals < 0 ? parameter : parameter.substring(0, equals))) {
                kept.add(parameter);
            }
        }
        return pathWithQuery.substring(0, query) + (kept.isEmpty() ? "" : "?" + String.join("&", kept));
    }

    /** Whether the request named no requirement, so that every object matches. */
    public boolean isEmpty() {
        return requirements.isEmpty();
    }

    /** Whether the object (as stored JSON) meets every requirement of both selectors. */
    public boolean matches(JsonNode object) {
        return requirements.stream().allMatch(r -> r.matches(object));
    }

    private static Function<JsonNode, String> labelValue(String key) {
        return object -> {
            JsonNode value = object.path("metadata").path("labels").path(key);
            return value.isMissingNode() || value.isNull() ? null : value.asText();
        };
    }

    private static Requirement labelRequirement(String requirement) {
        Function<String, Function<JsonNode, String>> label = Selectors::labelValue;
        Matcher set = SET_REQUIREMENT.matcher(requirement);
        if (set.matches()) {
            Set<String> values = Set.copyOf(List.of(set.group(3).trim().split("\\s*,\\s*")));
            return new Requirement(label.apply(set.group(1)), set.group(2).equals("in") ? Operator.IN : Operator.NOT_IN, values);
        }
        Matcher value = VALUE_REQUIREMENT.matcher(requirement);
        if (value.matches()) {
            return new Requirement(label.apply(value.group(1)), operator(value.group(2)), Set.of(value.group(3)));
        }
        if (KEY.matcher(requirement).matches()) {
            return requirement.startsWith("!")
                    ? new Requirement(label.apply(requirement.substring(1)), Operator.NOT_EXISTS, Set.of())
                    : new Requirement(label.apply(requirement), Operator.EXISTS, Set.of());
        }
        throw new IllegalArgumentException("unable to parse requirement: " + requirement);
    }

    /**
     * One term of a field selector, {@code key=value}, {@code key==value} or {@code key!=value}, split at its first
     * operator that is not escaped; the value may hold any character, with {@code \\}, {@code \,} and {@code \=}
     * escaped, as kube-apiserver's {@code fields.ParseSelector} reads it.
     */
    private static Requirement fieldRequirement(String requirement) {
        for (int i = 0; i < requirement.length(); i++) {
            char c = requirement.charAt(i);
            if (c == '\\') {
                i++;
            } else if (c == '!' || c == '=') {
                String operator = requirement.startsWith("!=", i) ? "!=" : requirement.startsWith("==", i) ? "==" : c == '=' ? "=" : null;
                if (operator != null) {
                    return fieldRequirement(requirement.substring(0, i).trim(), operator,
                            unescape(requirement, requirement.substring(i + operator.length()).trim()));
                }
            }
        }
        throw new IllegalArgumentException("invalid selector: '" + requirement + "'; can't understand '" + requirement + "'");
    }

    private static String unescape(String term, String value) {
        StringBuilder plain = new StringBuilder(value.length());
        for (int i = 0; i < value.length(); i++) {
            char c = value.charAt(i);
            if (c == '\\') {
                if (i + 1 == value.length() || "\\,=".indexOf(value.charAt(i + 1)) < 0) {
                    throw new IllegalArgumentException("invalid field selector: '" + term + "': invalid escape sequence");
                }
                plain.append(value.charAt(++i));
            } else if (c == ',' || c == '=') {
                throw new IllegalArgumentException("invalid field selector: '" + term + "': unescaped " + c);
            } else {
                plain.append(c);
            }
        }
        return plain.toString();
    }

    private static Requirement fieldRequirement(String key, String operator, String expected) {
        if (key.isEmpty()) {
            throw new IllegalArgumentException("invalid field selector: a term has no field name");
        }
        String[] path = FIELD_LABEL_PATHS.getOrDefault(key, key).split("\\.");
        Function<JsonNode, String> field = object -> {
            JsonNode node = object;
            for (String name : path) {
                node = node.path(name);
            }
            return node.isValueNode() ? node.asText() : "";
        };
        return new Requirement(field, operator(operator), Set.of(expected));
    }

    private static Operator operator(String symbol) {
        return symbol.equals("!=") ? Operator.NOT_IN : Operator.IN;
    }

    /** Splits a label selector on the commas between requirements, not those inside {@code in (a,b)}. */
    private static List<String> splitRequirements(String selector) {
        return split(selector, false);
    }

    /** Splits a field selector on the commas between its terms, not escaped ones ({@code \,}). */
    private static List<String> splitFieldTerms(String selector) {
        return split(selector, true);
    }

    private static List<String> split(String selector, boolean escapes) {
        List<String> parts = new ArrayList<>();
        int depth = 0;
        int start = 0;
        for (int i = 0; i < selector.length(); i++) {
            char c = selector.charAt(i);
            if (escapes && c == '\\') {
                i++;
            } else if (!escapes && c == '(') {
                depth++;
            } else if (!escapes && c == ')') {
                depth--;
            } else if (c == ',' && depth == 0) {
                parts.add(selector.substring(start, i).trim());
                start = i + 1;
            }
        }
        parts.add(selector.substring(start).trim());
        parts.removeIf(String::isEmpty);
        return parts;
    }
}
