package dev.muster.local.store;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.databind.node.TextNode;
import dev.muster.local.protocol.Json;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * The fields of an object as server-side apply counts them, each path with its value: leaves (scalars, atomic
 * lists, empty maps) and the elements of keyed lists and sets. A path is a list of FieldsV1 elements:
 * {@code f:name} for a field, {@code k:{"name":"main"}} for the element of a keyed list, {@code v:"x"} for a
 * member of a set. There is no Java port of kube's structured-merge-diff, hence this small one.
 */
public final class FieldSet {
    /** Fields kube never gives an owner: identity and bookkeeping the server sets. */
    private static final Set<String> UNOWNED_METADATA = Set.of("name", "namespace", "uid", "resourceVersion",
            "generation", "creationTimestamp", "managedFields", "deletionTimestamp", "deletionGracePeriodSeconds",
            "selfLink");
    private static final Set<String> UNOWNED_TOP = Set.of("apiVersion", "kind");
    /** kube's schema defaults a port's protocol to TCP, and keys ports with that default. */
    private static final Map<String, JsonNode> KEY_DEFAULTS = Map.of("protocol", TextNode.valueOf("TCP"));
    private static final String SELF = ".";

    private final Map<List<String>, JsonNode> fields;

    private FieldSet(Map<List<String>, JsonNode> fields) {
        this.fields = fields;
    }

    /** The fields of an object (none for null), each with its value; a keyed element's value is its key. */
    public static FieldSet of(JsonNode object, ListTypes lists) {
        Map<List<String>, JsonNode> fields = new LinkedHashMap<>();
        if (object != null && object.isObject()) {
            walk(object, new ArrayList<>(), new ArrayList<>(), lists, fields);
        }
        return new FieldSet(fields);
    }

    /** The paths of a FieldsV1 document, without values. */
    public static Set<List<String>> parse(JsonNode fieldsV1) {
        Set<List<String>> paths = new LinkedHashSet<>();
        parse(fieldsV1, new ArrayList<>(), paths);
        return paths;
    }

    /** The paths as FieldsV1: a tree of elements, {@code "."} marking an owned element that has owned fields inside. */
    public static ObjectNode serialise(Set<List<String>> paths) {
        Tree root = new Tree();
        for (List<String> path : paths) {
            Tree node = root;
            for (String element : path) {
                node = node.children.computeIfAbsent(element, key -> new Tree());
            }
            node.member = true;
        }
        return root.toJson();
    }

    /** A path as kube prints it in a conflict: {@code .spec.containers[name="main"].image}. */
    public static String describe(List<String> path) {
        StringBuilder described = new StringBuilder();
        for (String element : path) {
            String rest = element.substring(2);
            if (element.startsWith("f:")) {
                described.append('.').append(rest);
            } else if (element.startsWith("v:")) {
                described.append("[=").append(rest).append(']');
            } else {
                List<String> pairs = new ArrayList<>();
                key(rest).properties().forEach(pair -> pairs.add(pair.getKey() + "=" + pair.getValue()));
                described.append('[').append(String.join(",", pairs)).append(']');
            }
        }
        return described.toString();
    }

    /** Every path with its value, in the object's order. */
    public Map<List<String>, JsonNode> fields() {
        return fields;
    }

    /** The paths. */
    public Set<List<String>> paths() {
        return fields.keySet();
    }

    /** The value at a path; null when the object has none there. */
    public JsonNode get(List<String> path) {
        return fields.get(path);
    }

    /**
     * Removes the field or list element at a path from an object, if it is there; the maps and lists around it
     * stay, even when left empty.
     */
    public static void remove(JsonNode object, List<String> path) {
        JsonNode parent = object;
        for (String element : path.subList(0, path.size() - 1)) {
            parent = child(parent, element);
            if (parent == null) {
                return;
            }
        }
        String last = path.get(path.size() - 1);
        if (last.startsWith("f:") && parent instanceof ObjectNode map) {
            map.remove(last.substring(2));
        } else if (parent instanceof ArrayNode list) {
            for (int i = 0; i < list.size(); i++) {
                if (isElement(list.get(i), last)) {
                    list.remove(i);
                    return;
                }
            }
        }
    }

    /** The FieldsV1 element naming a list element: its key, or its value for a set; null if it has no key. */
    static String elementName(JsonNode element, ListTypes.ListType type) {
        if (type.kind() == ListTypes.Kind.SET) {
            return element.isValueNode() ? "v:" + element : null;
        }
        ObjectNode key = keyOf(element, type);
        return key == null ? null : "k:" + key;
    }

    /** The key of an element of a keyed list, its fields sorted by name as kube writes them; null if it has none. */
    private static ObjectNode keyOf(JsonNode element, ListTypes.ListType type) {
        if (type.kind() != ListTypes.Kind.MAP || !element.isObject() || type.keys().isEmpty()) {
            return null;
        }
        ObjectNode key = JsonNodeFactory.instance.objectNode();
        for (String name : type.keys().stream().sorted().toList()) {
            JsonNode value = element.hasNonNull(name) ? element.get(name) : KEY_DEFAULTS.get(name);
            if (value == null) {
                return null;
            }
            key.set(name, value);
        }
        return key;
    }

    private static JsonNode child(JsonNode parent, String element) {
        if (element.startsWith("f:")) {
            return parent.get(element.substring(2));
        }
        if (!parent.isArray()) {
            return null;
        }
        for (JsonNode item : parent) {
            if (isElement(item, element)) {
                return item;
            }
        }
        return null;
    }

    private static boolean isElement(JsonNode item, String element) {
        return element.startsWith("v:") ? element.equals("v:" + item) : matches(item, key(element.substring(2)));
    }

    private static boolean matches(JsonNode item, ObjectNode key) {
        if (!item.isObject()) {
            return false;
        }
        for (Map.Entry<String, JsonNode> pair : key.properties()) {
            JsonNode value = item.hasNonNull(pair.getKey()) ? item.get(pair.getKey()) : KEY_DEFAULTS.get(pair.getKey());
            if (!pair.getValue().equals(value)) {
                return false;
            }
        }
        return true;
    }

    private static ObjectNode key(String json) {
        try {
            return (ObjectNode) Json.parse(json.getBytes(StandardCharsets.UTF_8));
        } catch (IOException | ClassCastException e) {
            return JsonNodeFactory.instance.objectNode();
        }
    }

    private static void walk(JsonNode node, List<String> path, List<String> names, ListTypes lists,
                             Map<List<String>, JsonNode> fields) {
        if (node.isObject() && !node.isEmpty()) {
            for (Map.Entry<String, JsonNode> field : node.properties()) {
                String name = field.getKey();
                JsonNode value = field.getValue();
                boolean unowned = path.isEmpty() && UNOWNED_TOP.contains(name)
                        || path.equals(List.of("f:metadata")) && UNOWNED_METADATA.contains(name);
                if (!unowned && !value.isNull()) {
                    walk(value, with(path, "f:" + name), with(names, name), lists, fields);
                }
            }
        } else if (node.isArray() && !node.isEmpty()) {
            ListTypes.ListType type = lists.at(names);
            Map<String, JsonNode> elements = new LinkedHashMap<>();
            for (JsonNode element : node) {
                String name = elementName(element, type);
                if (name == null || elements.containsKey(name)) {
                    fields.put(List.copyOf(path), node);
                    return;
                }
                elements.put(name, element);
            }
            for (Map.Entry<String, JsonNode> element : elements.entrySet()) {
                List<String> elementPath = with(path, element.getKey());
                fields.put(elementPath, type.kind() == ListTypes.Kind.SET ? element.getValue()
                        : keyOf(element.getValue(), type));
                if (type.kind() == ListTypes.Kind.MAP) {
                    walk(element.getValue(), elementPath, names, lists, fields);
                }
            }
        } else {
            fields.put(List.copyOf(path), node);
        }
    }

    private static List<String> with(List<String> path, String element) {
        List<String> longer = new ArrayList<>(path.size() + 1);
        longer.addAll(path);
        longer.add(element);
        return List.copyOf(longer);
    }

    private static void parse(JsonNode node, List<String> path, Set<List<String>> paths) {
        if (!node.isObject()) {
            return;
        }
        if (node.isEmpty() || node.has(SELF)) {
            if (!path.isEmpty()) {
                paths.add(List.copyOf(path));
            }
        }
        for (Map.Entry<String, JsonNode> child : node.properties()) {
            if (!child.getKey().equals(SELF)) {
                parse(child.getValue(), with(path, child.getKey()), paths);
            }
        }
    }

    /** A FieldsV1 tree under construction, its children in kube's order (fields, then keys, then values). */
    private static final class Tree {
        private final Map<String, Tree> children = new TreeMap<>();
        private boolean member;

        ObjectNode toJson() {
            ObjectNode json = JsonNodeFactory.instance.objectNode();
            if (member && !children.isEmpty()) {
                json.putObject(SELF);
            }
            children.forEach((element, child) -> json.set(element, child.toJson()));
            return json;
        }
    }
}
