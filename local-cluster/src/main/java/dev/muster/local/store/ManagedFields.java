package dev.muster.local.store;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;

import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeMap;

/**
 * {@code metadata.managedFields} as kube-apiserver keeps it: one entry per manager, operation ({@code Apply} or
 * {@code Update}), apiVersion and subresource, each with the fields it owns in FieldsV1. An update takes the
 * fields it changes from whoever owned them; an apply owns what its configuration sets, conflicts with other
 * owners of the values it would change, and removes what it set before and no one else owns.
 */
public final class ManagedFields {
    private static final String APPLY = "Apply";
    private static final String UPDATE = "Update";

    /** Who writes, as kube's managers are keyed: the entry's identity without its fields and time. */
    public record Manager(String name, String operation, String apiVersion, String subresource) {
        /** A manager of an update (create, PUT, any patch but apply). */
        public static Manager update(String name, String apiVersion, String subresource) {
            return new Manager(name, UPDATE, apiVersion, subresource);
        }

        /** A manager of an apply. */
        public static Manager apply(String name, String apiVersion, String subresource) {
            return new Manager(name, APPLY, apiVersion, subresource);
        }

        /** The manager as kube names it in a conflict: {@code "editor" using v1} for an update. */
        public String printed() {
            String printed = '"' + name + '"';
            if (!subresource.isEmpty()) {
                printed += " with subresource \"" + subresource + '"';
            }
            return operation.equals(UPDATE) ? printed + " using " + apiVersion : printed;
        }

        /** The entry's identity ignoring apiVersion, which kube also merges across versions of one kind. */
        boolean sameAs(Manager other) {
            return name.equals(other.name) && operation.equals(other.operation) && subresource.equals(other.subresource);
        }
    }

    /** A field another manager owns and an apply would change. */
    public record Conflict(Manager owner, List<String> path) {
    }

    /** An apply's result: the object to store, with its managedFields, or the conflicts that refuse it. */
    public record Applied(ObjectNode object, List<Conflict> conflicts) {
        /** kube's message for the conflicts: {@code Apply failed with 1 conflict: conflict with "editor" using v1: .data.x}. */
        public String message() {
            if (conflicts.size() == 1) {
                Conflict only = conflicts.get(0);
                return "Apply failed with 1 conflict: conflict with " + only.owner().printed() + ": "
                        + FieldSet.describe(only.path());
            }
            Map<String, List<String>> byManager = new TreeMap<>();
            conflicts.forEach(conflict -> byManager.computeIfAbsent(conflict.owner().printed(), key -> new ArrayList<>())
                    .add(FieldSet.describe(conflict.path())));
            List<String> lines = new ArrayList<>();
            byManager.forEach((manager, paths) -> {
                lines.add("conflicts with " + manager + ":");
                paths.forEach(path -> lines.add("- " + path));
            });
            return "Apply failed with " + conflicts.size() + " conflicts: " + String.join("\n", lines);
        }
    }

    private record Entry(Manager manager, Set<List<String>> paths, String time) {
    }

    /** What an update does to an object's fields: those it sets to a new value, and those it takes away. */
    record Changes(Set<List<String>> changed, Set<List<String>> removed) {
        static Changes between(FieldSet old, FieldSet updated) {
            Set<List<String>> changed = new LinkedHashSet<>();
            updated.fields().forEach((path, value) -> {
                if (!value.equals(old.get(path))) {
                    changed.add(path);
                }
            });
            Set<List<String>> removed = new HashSet<>(old.paths());
            removed.removeAll(updated.paths());
            return new Changes(changed, removed);
        }
    }

    private ManagedFields() {
    }

    /**
     * The managedFields after an update from {@code before} (null for a create) to {@code after}. What the client
     * sent in {@code after}'s managedFields is ignored, except an explicit empty list, which resets them to none
     * as kube's does; kube would also keep a valid list the client sent, which is not done here.
     */
    public static ArrayNode update(JsonNode before, JsonNode after, Manager manager, ListTypes lists, Instant now) {
        JsonNode sent = after.path("metadata").path("managedFields");
        if (sent.isArray() && sent.isEmpty()) {
            return JsonNodeFactory.instance.arrayNode();
        }
        JsonNode[] cut = ChangedSubtrees.of(before, after);
        Changes changes = Changes.between(FieldSet.of(cut[0], lists), FieldSet.of(cut[1], lists));
        Set<List<String>> changed = changes.changed();
        Set<List<String>> removed = changes.removed();
        List<Entry> entries = entries(before);
        if (changed.isEmpty() && removed.isEmpty()) {
            return serialise(entries);
        }
        String time = timestamp(now);
        List<Entry> result = new ArrayList<>();
        Set<List<String>> own = new LinkedHashSet<>();
        for (Entry entry : entries) {
            if (entry.manager().sameAs(manager)) {
                own.addAll(entry.paths());
            } else {
                result.add(without(entry, changed, removed));
            }
        }
        own.addAll(changed);
        own.removeAll(removed);
        result.add(new Entry(manager, own, time));
        return serialise(result);
    }

    /**
     * Applies a configuration to the live object (null when the apply creates it).
     *
     * @param force whether fields other managers own are taken over instead of refused
     */
    public static Applied apply(ObjectNode live, ObjectNode config, Manager manager, boolean force, ListTypes lists,
                                Instant now) {
        FieldSet applied = FieldSet.of(config, lists);
        FieldSet current = FieldSet.of(live, lists);
        List<Entry> entries = entries(live);
        List<Conflict> conflicts = new ArrayList<>();
        Set<List<String>> conflicting = new HashSet<>();
        applied.fields().forEach((path, value) -> {
            JsonNode liveValue = current.get(path);
            if (liveValue == null || liveValue.equals(value)) {
                return;
            }
            for (Entry entry : entries) {
                if (!entry.manager().sameAs(manager) && entry.paths().contains(path)) {
                    conflicts.add(new Conflict(entry.manager(), path));
                    conflicting.add(path);
                }
            }
        });
        if (!conflicts.isEmpty() && !force) {
            return new Applied(null, conflicts);
        }
        ObjectNode merged = (ObjectNode) merge(live, config, new ArrayList<>(), lists);
        merged.withObjectProperty("metadata").remove("managedFields");
        Set<List<String>> previous = new LinkedHashSet<>();
        Set<List<String>> ownedByOthers = new HashSet<>();
        List<Entry> result = new ArrayList<>();
        for (Entry entry : entries) {
            if (entry.manager().sameAs(manager)) {
                previous.addAll(entry.paths());
            } else {
                Entry kept = without(entry, conflicting, Set.of());
                ownedByOthers.addAll(kept.paths());
                result.add(kept);
            }
        }
        for (List<String> path : previous) {
            if (applied.get(path) == null && !ownedByOthers.contains(path)) {
                FieldSet.remove(merged, path);
            }
        }
        result.add(new Entry(manager, new LinkedHashSet<>(applied.paths()), timestamp(now)));
        merged.withObjectProperty("metadata").set("managedFields", serialise(result));
        return new Applied(merged, List.of());
    }

    /** Maps merged, keyed lists merged by key, sets united, atomic lists and scalars replaced. */
    private static JsonNode merge(JsonNode live, JsonNode config, List<String> names, ListTypes lists) {
        if (live != null && live.isObject() && config.isObject()) {
            ObjectNode result = live.deepCopy();
            for (Map.Entry<String, JsonNode> field : config.properties()) {
                if (field.getValue().isNull()) {
                    result.remove(field.getKey());
                } else {
                    names.add(field.getKey());
                    result.set(field.getKey(), merge(live.get(field.getKey()), field.getValue(), names, lists));
                    names.remove(names.size() - 1);
                }
            }
            return result;
        }
        if (live != null && live.isArray() && config.isArray()) {
            ListTypes.ListType type = lists.at(names);
            if (type.kind() != ListTypes.Kind.ATOMIC) {
                return mergeList((ArrayNode) live, (ArrayNode) config, type, names, lists);
            }
        }
        return config.deepCopy();
    }

    private static JsonNode mergeList(ArrayNode live, ArrayNode config, ListTypes.ListType type, List<String> names,
                                      ListTypes lists) {
        ArrayNode result = live.deepCopy();
        for (JsonNode element : config) {
            String name = FieldSet.elementName(element, type);
            if (name == null) {
                return config.deepCopy();
            }
            int index = indexOf(result, name, type);
            if (index < 0) {
                result.add(element.deepCopy());
            } else if (type.kind() == ListTypes.Kind.MAP) {
                result.set(index, merge(result.get(index), element, names, lists));
            }
        }
        return result;
    }

    private static int indexOf(ArrayNode list, String name, ListTypes.ListType type) {
        for (int i = 0; i < list.size(); i++) {
            if (name.equals(FieldSet.elementName(list.get(i), type))) {
                return i;
            }
        }
        return -1;
    }

    private static Entry without(Entry entry, Set<List<String>> taken, Set<List<String>> removed) {
        Set<List<String>> kept = new LinkedHashSet<>(entry.paths());
        kept.removeAll(taken);
        kept.removeAll(removed);
        return kept.size() == entry.paths().size() ? entry : new Entry(entry.manager(), kept, entry.time());
    }

    private static List<Entry> entries(JsonNode object) {
        List<Entry> entries = new ArrayList<>();
        if (object == null) {
            return entries;
        }
        for (JsonNode entry : object.path("metadata").path("managedFields")) {
            Manager manager = new Manager(entry.path("manager").asText(""), entry.path("operation").asText(UPDATE),
                    entry.path("apiVersion").asText(""), entry.path("subresource").asText(""));
            entries.add(new Entry(manager, FieldSet.parse(entry.path("fieldsV1")),
                    entry.path("time").isTextual() ? entry.get("time").asText() : null));
        }
        return entries;
    }

    /** Entries left owning nothing are dropped, as kube drops them. */
    private static ArrayNode serialise(List<Entry> entries) {
        ArrayNode array = JsonNodeFactory.instance.arrayNode();
        for (Entry entry : entries) {
            if (entry.paths().isEmpty()) {
                continue;
            }
            ObjectNode json = array.addObject().put("manager", entry.manager().name())
                    .put("operation", entry.manager().operation()).put("apiVersion", entry.manager().apiVersion());
            if (entry.time() != null) {
                json.put("time", entry.time());
            }
            json.put("fieldsType", "FieldsV1").set("fieldsV1", FieldSet.serialise(entry.paths()));
            if (!entry.manager().subresource().isEmpty()) {
                json.put("subresource", entry.manager().subresource());
            }
        }
        return array;
    }

    private static String timestamp(Instant now) {
        return Objects.requireNonNull(now).truncatedTo(ChronoUnit.SECONDS).toString();
    }
}
