package dev.muster.local.store;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;

import java.util.LinkedHashSet;
import java.util.Set;

/**
 * Two versions of an object cut down to the maps where they differ, for {@link ManagedFields#update}: what an
 * update changes and removes is the same in the cut-down pair as in the whole objects, since fields equal on both
 * sides add nothing to either. Most writes change a few fields of a large object (a status write leaves the spec
 * as it was), so flattening only what differs is what keeps field ownership cheap on every write. Maps are cut at
 * every depth; lists are kept whole, their elements being matched by key, not by position. A map that would be
 * left empty on one side keeps one field equal on both, since an empty map is a field of its own.
 */
final class ChangedSubtrees {
    private ChangedSubtrees() {
    }

    /** The pair cut down: {@code [before, after]}, either of them the same node when it is not a map. */
    static JsonNode[] of(JsonNode before, JsonNode after) {
        if (!(before instanceof ObjectNode beforeMap) || !(after instanceof ObjectNode afterMap)) {
            return new JsonNode[] {before, after};
        }
        ObjectNode beforeCut = JsonNodeFactory.instance.objectNode();
        ObjectNode afterCut = JsonNodeFactory.instance.objectNode();
        Set<String> names = new LinkedHashSet<>();
        beforeMap.fieldNames().forEachRemaining(names::add);
        afterMap.fieldNames().forEachRemaining(names::add);
        String anchor = null;
        for (String name : names) {
            JsonNode was = beforeMap.get(name);
            JsonNode is = afterMap.get(name);
            if (was != null && was.equals(is)) {
                anchor = anchor == null ? name : anchor;
                continue;
            }
            JsonNode[] cut = of(was, is);
            if (cut[0] != null) {
                beforeCut.set(name, cut[0]);
            }
            if (cut[1] != null) {
                afterCut.set(name, cut[1]);
            }
        }
        if (anchor != null && (beforeCut.isEmpty() && !beforeMap.isEmpty() || afterCut.isEmpty() && !afterMap.isEmpty())) {
            beforeCut.set(anchor, beforeMap.get(anchor));
            afterCut.set(anchor, afterMap.get(anchor));
        }
        return new JsonNode[] {beforeCut, afterCut};
    }
}
