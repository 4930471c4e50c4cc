package dev.muster.local.store;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;

import java.util.Map;
import java.util.Optional;

/**
 * The two merge flavours of PATCH. The stock CRUD dispatcher merges with Jackson's
 * {@code readerForUpdating}, which appends to arrays and stores {@code null} instead of deleting, and it
 * rejects strategic merge patches (415) although kubectl sends them for every built-in kind.
 */
public final class MergePatches {
    private static final String DIRECTIVE_PREFIX = "$";
    private static final String PATCH_DIRECTIVE = "$patch";

    /**
     * Keys that identify list elements in strategic merge, by field name. The real API server reads them from
     * the Go types' {@code patchMergeKey} tags per schema path; keying by field name alone is exact for the
     * pod, node and service fields people patch. Lists not named here are replaced, as in a JSON merge patch.
     */
    private static final Map<String, String> MERGE_KEYS = Map.of(
            "containers", "name",
            "initContainers", "name",
            "ephemeralContainers", "name",
            "env", "name",
            "volumes", "name",
            "imagePullSecrets", "name",
            "volumeMounts", "mountPath",
            "conditions", "type",
            "ownerReferences", "uid");

    private MergePatches() {
    }

    /** RFC 7386 JSON merge patch; never modifies its arguments. */
    public static JsonNode jsonMerge(JsonNode target, JsonNode patch) {
        if (!patch.isObject()) {
            return patch.deepCopy();
        }
        ObjectNode result = target != null && target.isObject() ? target.deepCopy() : JsonNodeFactory.instance.objectNode();
        for (Map.Entry<String, JsonNode> field : patch.properties()) {
            if (field.getValue().isNull()) {
                result.remove(field.getKey());
            } else {
                result.set(field.getKey(), jsonMerge(result.get(field.getKey()), field.getValue()));
            }
        }
        return result;
    }

    /**
     * Strategic merge patch as kubectl uses it: maps merge, {@code null} deletes, lists of objects with a known
     * merge key merge element-wise, and {@code $patch: replace|delete} directives apply. The ordering
     * directives ({@code $setElementOrder/...}) and {@code $retainKeys} are dropped: they order or prune fields
     * that the patch lists anyway.
     *
     * @return the patched document; empty when the patch deletes the whole document
     */
    public static Optional<JsonNode> strategicMerge(JsonNode target, JsonNode patch) {
        if (!patch.isObject()) {
            return Optional.of(patch.deepCopy());
        }
        String directive = patch.path(PATCH_DIRECTIVE).asText("");
        if (directive.equals("delete")) {
            return Optional.empty();
        }
        boolean replace = directive.equals("replace");
        ObjectNode result = !replace && target != null && target.isObject()
                ? target.deepCopy() : JsonNodeFactory.instance.objectNode();
        for (Map.Entry<String, JsonNode> field : patch.properties()) {
            String name = field.getKey();
            JsonNode value = field.getValue();
            if (name.startsWith(DIRECTIVE_PREFIX)) {
                continue;
            }
            JsonNode current = result.get(name);
            String mergeKey = MERGE_KEYS.get(name);
            if (value.isNull()) {
                result.remove(name);
            } else if (mergeKey != null && value.isArray() && current != null && current.isArray()) {
                result.set(name, mergeList((ArrayNode) current, (ArrayNode) value, mergeKey));
            } else {
                strategicMerge(current, value).ifPresentOrElse(merged -> result.set(name, merged),
                        () -> result.remove(name));
            }
        }
        return Optional.of(result);
    }

    private static ArrayNode mergeList(ArrayNode current, ArrayNode patch, String mergeKey) {
        ArrayNode result = current.deepCopy();
        for (JsonNode element : patch) {
            int index = indexOf(result, mergeKey, element.path(mergeKey));
            if (index < 0) {
                if (!element.path(PATCH_DIRECTIVE).asText("").equals("delete")) {
                    strategicMerge(null, element).ifPresent(result::add);
                }
            } else {
                Optional<JsonNode> merged = strategicMerge(result.get(index), element);
                if (merged.isPresent()) {
                    result.set(index, merged.get());
                } else {
                    result.remove(index);
                }
            }
        }
        return result;
    }

    private static int indexOf(ArrayNode list, String mergeKey, JsonNode key) {
        if (key.isMissingNode()) {
            return -1;
        }
        for (int i = 0; i < list.size(); i++) {
            if (key.equals(list.get(i).path(mergeKey))) {
                return i;
            }
        }
        return -1;
    }
}
