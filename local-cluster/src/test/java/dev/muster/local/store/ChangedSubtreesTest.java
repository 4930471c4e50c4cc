package dev.muster.local.store;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.muster.local.protocol.Json;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The cut-down pair an update's field ownership is computed from changes and removes exactly the fields the whole
 * objects do: checked against the plain comparison of the whole objects on random objects and edits (nested maps,
 * empty maps, keyed lists, sets, atomic lists), and on the cases the cut must take care of.
 */
class ChangedSubtreesTest {
    private static final JsonNodeFactory JSON = JsonNodeFactory.instance;
    private static final String[] NAMES = {"a", "b", "c", "d"};

    /** What an update changes and removes, from the whole objects or from the cut-down pair. */
    private static ManagedFields.Changes changes(JsonNode before, JsonNode after, boolean cut) {
        JsonNode[] pair = cut ? ChangedSubtrees.of(before, after) : new JsonNode[] {before, after};
        return ManagedFields.Changes.between(FieldSet.of(pair[0], ListTypes.BUILT_IN), FieldSet.of(pair[1], ListTypes.BUILT_IN));
    }

    @Test
    void aFieldAddedBesideEqualOnesAndAMapEmptiedAreSeenAsInTheWholeObjects() throws IOException {
        List<String[]> cases = List.of(
                new String[] {"{\"spec\":{\"a\":1}}", "{\"spec\":{\"a\":1,\"b\":2}}"},
                new String[] {"{\"spec\":{\"a\":{\"x\":1}}}", "{\"spec\":{\"a\":{}}}"},
                new String[] {"{\"spec\":{\"a\":{}}}", "{\"spec\":{\"a\":{\"x\":1}}}"},
                new String[] {"{\"spec\":{\"a\":1},\"status\":{\"p\":\"Pending\"}}", "{\"spec\":{\"a\":1},\"status\":{\"p\":\"Running\"}}"},
                new String[] {"{\"spec\":{\"containers\":[{\"name\":\"m\",\"image\":\"x\"}]}}",
                        "{\"spec\":{\"containers\":[{\"name\":\"m\",\"image\":\"y\"},{\"name\":\"s\"}]}}"});
        for (String[] pair : cases) {
            JsonNode before = Json.parse(pair[0].getBytes());
            JsonNode after = Json.parse(pair[1].getBytes());
            assertThat(changes(before, after, true)).as(pair[0] + " -> " + pair[1]).isEqualTo(changes(before, after, false));
        }
        // The status write leaves the spec out of the comparison altogether.
        JsonNode[] cut = ChangedSubtrees.of(Json.parse(cases.get(3)[0].getBytes()), Json.parse(cases.get(3)[1].getBytes()));
        assertThat(cut[1].has("spec")).isFalse();
    }

    @Test
    void randomEditsChangeAndRemoveWhatTheWholeObjectsDo() {
        Random random = new Random(7);
        for (int round = 0; round < 2_000; round++) {
            ObjectNode before = randomMap(random, 3);
            ObjectNode after = before.deepCopy();
            int edits = 1 + random.nextInt(4);
            for (int i = 0; i < edits; i++) {
                edit(random, after, 3);
            }
            assertThat(changes(before, after, true)).as("round %d: %s -> %s", round, before, after)
                    .isEqualTo(changes(before, after, false));
        }
    }

    private static ObjectNode randomMap(Random random, int depth) {
        ObjectNode map = JSON.objectNode();
        int fields = random.nextInt(4);
        for (int i = 0; i < fields; i++) {
            map.set(NAMES[random.nextInt(NAMES.length)], randomValue(random, depth - 1));
        }
        if (depth > 1 && random.nextInt(3) == 0) {
            map.set("containers", containers(random));
        }
        if (random.nextInt(4) == 0) {
            map.set("finalizers", JSON.arrayNode().add("f" + random.nextInt(3)));
        }
        return map;
    }

    private static JsonNode randomValue(Random random, int depth) {
        return switch (depth <= 0 ? random.nextInt(2) : random.nextInt(4)) {
            case 0 -> JSON.numberNode(random.nextInt(3));
            case 1 -> JSON.textNode("v" + random.nextInt(3));
            case 2 -> randomMap(random, depth);
            default -> JSON.arrayNode().add(random.nextInt(3));
        };
    }

    private static ArrayNode containers(Random random) {
        ArrayNode list = JSON.arrayNode();
        int count = random.nextInt(3);
        for (int i = 0; i < count; i++) {
            list.add(JSON.objectNode().put("name", "c" + i).put("image", "i" + random.nextInt(2)));
        }
        return list;
    }

    private static void edit(Random random, ObjectNode map, int depth) {
        List<String> names = new ArrayList<>();
        map.fieldNames().forEachRemaining(names::add);
        int choice = random.nextInt(6);
        if (!names.isEmpty() && choice < 3) {
            String name = names.get(random.nextInt(names.size()));
            JsonNode child = map.get(name);
            if (choice == 0 && child instanceof ObjectNode nested && depth > 1) {
                edit(random, nested, depth - 1);
            } else if (choice == 1 && child instanceof ArrayNode list && name.equals("containers") && !list.isEmpty()) {
                ((ObjectNode) list.get(random.nextInt(list.size()))).put("image", "changed");
            } else {
                map.remove(name);
            }
        } else if (choice == 3 && !names.isEmpty()) {
            String name = names.get(random.nextInt(names.size()));
            if (map.get(name) instanceof ObjectNode nested) {
                nested.removeAll();
            }
        } else {
            map.set(NAMES[random.nextInt(NAMES.length)], randomValue(random, depth - 1));
        }
    }
}
