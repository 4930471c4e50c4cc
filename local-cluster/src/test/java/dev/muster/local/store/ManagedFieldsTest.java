package dev.muster.local.store;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.muster.local.protocol.Json;
import org.junit.jupiter.api.Test;

import java.time.Instant;

import static org.assertj.core.api.Assertions.assertThat;

/** {@link ManagedFields}: ownership by update and by apply, conflicts, force, removal, lists, FieldsV1. */
class ManagedFieldsTest {
    private static final Instant NOW = Instant.parse("2026-01-02T03:04:05.678Z");
    private static final ManagedFields.Manager APPLIER = ManagedFields.Manager.apply("applier", "v1", "");
    private static final ManagedFields.Manager EDITOR = ManagedFields.Manager.update("editor", "v1", "");

    private static ObjectNode cm(String labels, String data) {
        return Json.stored("{\"apiVersion\":\"v1\",\"kind\":\"ConfigMap\",\"metadata\":{\"name\":\"ssa\",\"uid\":\"u\","
                + "\"labels\":" + labels + "},\"data\":" + data + "}");
    }

    private static ObjectNode applied(ObjectNode live, ObjectNode config, boolean force) {
        ManagedFields.Applied applied = ManagedFields.apply(live, config, APPLIER, force, ListTypes.BUILT_IN, NOW);
        assertThat(applied.conflicts()).isEmpty();
        return applied.object();
    }

    private static ObjectNode updated(ObjectNode before, ObjectNode after) {
        ObjectNode copy = after.deepCopy();
        copy.withObjectProperty("metadata").set("managedFields",
                ManagedFields.update(before, after, EDITOR, ListTypes.BUILT_IN, NOW));
        return copy;
    }

    @Test
    void anApplyOwnsItsLeavesInFieldsV1WithoutTheServersMetadata() {
        ObjectNode created = applied(null, cm("{\"a\":\"1\"}", "{\"x\":\"1\"}"), false);

        JsonNode entry = created.path("metadata").path("managedFields").get(0);
        assertThat(entry.path("manager").asText()).isEqualTo("applier");
        assertThat(entry.path("operation").asText()).isEqualTo("Apply");
        assertThat(entry.path("time").asText()).isEqualTo("2026-01-02T03:04:05Z");
        assertThat(entry.path("fieldsType").asText()).isEqualTo("FieldsV1");
        assertThat(entry.path("fieldsV1").toString())
                .isEqualTo("{\"f:data\":{\"f:x\":{}},\"f:metadata\":{\"f:labels\":{\"f:a\":{}}}}");
        assertThat(entry.has("subresource")).isFalse();
    }

    @Test
    void anApplyRemovesWhatItNoLongerSetsUnlessAnotherManagerOwnsIt() {
        ObjectNode first = applied(null, cm("{\"a\":\"1\",\"b\":\"2\"}", "{\"x\":\"1\",\"y\":\"2\",\"z\":\"3\"}"), false);
        ObjectNode edited = first.deepCopy();
        ((ObjectNode) edited.get("data")).put("z", "changed");
        ObjectNode shared = updated(first, edited);

        ObjectNode second = applied(shared, cm("{\"a\":\"1\"}", "{\"x\":\"1\"}"), false);

        assertThat(second.path("metadata").path("labels").toString()).isEqualTo("{\"a\":\"1\"}");
        assertThat(second.path("data").toString()).isEqualTo("{\"x\":\"1\",\"z\":\"changed\"}");
    }

    @Test
    void anUpdateTakesTheFieldsItChangesFromTheirOwners() {
        ObjectNode first = applied(null, cm("{\"a\":\"1\"}", "{\"x\":\"1\",\"y\":\"2\"}"), false);
        ObjectNode edited = first.deepCopy();
        ((ObjectNode) edited.get("data")).put("x", "changed");

        ArrayNode entries = (ArrayNode) updated(first, edited).path("metadata").path("managedFields");

        assertThat(entries).hasSize(2);
        assertThat(entries.get(0).path("fieldsV1").toString())
                .isEqualTo("{\"f:data\":{\"f:y\":{}},\"f:metadata\":{\"f:labels\":{\"f:a\":{}}}}");
        assertThat(entries.get(1).path("manager").asText()).isEqualTo("editor");
        assertThat(entries.get(1).path("operation").asText()).isEqualTo("Update");
        assertThat(entries.get(1).path("fieldsV1").toString()).isEqualTo("{\"f:data\":{\"f:x\":{}}}");
    }

    @Test
    void anEmptyListSentByTheClientResetsManagedFields() {
        ObjectNode first = applied(null, cm("{\"a\":\"1\"}", "{\"x\":\"1\"}"), false);
        ObjectNode reset = first.deepCopy();
        reset.withObjectProperty("metadata").putArray("managedFields");

        assertThat(ManagedFields.update(first, reset, EDITOR, ListTypes.BUILT_IN, NOW)).isEmpty();
    }

    @Test
    void anApplyChangingAnotherManagersFieldConflictsUnlessForced() {
        ObjectNode first = applied(null, cm("{\"a\":\"1\"}", "{\"x\":\"1\",\"y\":\"2\"}"), false);
        ObjectNode edited = first.deepCopy();
        ((ObjectNode) edited.get("data")).put("x", "changed").put("y", "changed");
        ObjectNode live = updated(first, edited);

        ManagedFields.Applied one = ManagedFields.apply(live, cm("{\"a\":\"1\"}", "{\"x\":\"1\"}"), APPLIER, false,
                ListTypes.BUILT_IN, NOW);
        ManagedFields.Applied two = ManagedFields.apply(live, cm("{\"a\":\"1\"}", "{\"x\":\"1\",\"y\":\"2\"}"), APPLIER,
                false, ListTypes.BUILT_IN, NOW);
        ManagedFields.Applied same = ManagedFields.apply(live, cm("{\"a\":\"1\"}", "{\"x\":\"changed\"}"), APPLIER,
                false, ListTypes.BUILT_IN, NOW);
        ObjectNode forced = applied(live, cm("{\"a\":\"1\"}", "{\"x\":\"1\"}"), true);

        assertThat(one.object()).isNull();
        assertThat(one.message()).isEqualTo("Apply failed with 1 conflict: conflict with \"editor\" using v1: .data.x");
        assertThat(two.message()).isEqualTo(
                "Apply failed with 2 conflicts: conflicts with \"editor\" using v1:\n- .data.x\n- .data.y");
        assertThat(same.conflicts()).as("the same value is shared, not a conflict").isEmpty();
        assertThat(forced.path("data").path("x").asText()).isEqualTo("1");
        assertThat(forced.path("metadata").path("managedFields").toString())
                .contains("\"manager\":\"editor\"").doesNotContain("\"f:x\"},\"manager\"");
        JsonNode editor = forced.path("metadata").path("managedFields").get(0);
        assertThat(editor.path("fieldsV1").toString()).isEqualTo("{\"f:data\":{\"f:y\":{}}}");
    }

    @Test
    void keyedListsMergeByKeyAndAtomicListsAreReplacedWhole() {
        ObjectNode pod = Json.stored("""
                {"apiVersion":"v1","kind":"Pod","metadata":{"name":"p"},"spec":{
                 "containers":[{"name":"a","image":"one","args":["x","y"]},{"name":"b","image":"two"}],
                 "tolerations":[{"key":"k1"},{"key":"k2"}]}}""");
        ObjectNode live = updated(null, pod);
        ObjectNode config = Json.stored("""
                {"apiVersion":"v1","kind":"Pod","metadata":{"name":"p"},"spec":{
                 "containers":[{"name":"a","args":["z"]}],"tolerations":[{"key":"k3"}]}}""");

        ManagedFields.Applied conflicting = ManagedFields.apply(live, config, APPLIER, false, ListTypes.BUILT_IN, NOW);
        ObjectNode merged = applied(live, config, true);

        assertThat(conflicting.message()).isEqualTo("Apply failed with 2 conflicts: conflicts with \"editor\" using v1:\n"
                + "- .spec.containers[name=\"a\"].args\n- .spec.tolerations");
        assertThat(merged.path("spec").path("containers").toString()).isEqualTo(
                "[{\"name\":\"a\",\"image\":\"one\",\"args\":[\"z\"]},{\"name\":\"b\",\"image\":\"two\"}]");
        assertThat(merged.path("spec").path("tolerations").toString()).isEqualTo("[{\"key\":\"k3\"}]");
        JsonNode applierFields = merged.path("metadata").path("managedFields").get(1).path("fieldsV1");
        assertThat(applierFields.toString()).isEqualTo("{\"f:spec\":{\"f:containers\":{\"k:{\\\"name\\\":\\\"a\\\"}\":"
                + "{\".\":{},\"f:args\":{},\"f:name\":{}}},\"f:tolerations\":{}}}");
    }

    @Test
    void aSchemasSetListOwnsEachValueAndPortsAreKeyedWithTheirDefaultProtocol() {
        ObjectNode pod = Json.stored("""
                {"metadata":{"finalizers":["a","b"]},"spec":{"containers":[{"name":"c","ports":[{"containerPort":80}]}]}}""");

        assertThat(FieldSet.serialise(FieldSet.of(pod, ListTypes.BUILT_IN).paths()).toString()).isEqualTo(
                "{\"f:metadata\":{\"f:finalizers\":{\"v:\\\"a\\\"\":{},\"v:\\\"b\\\"\":{}}},\"f:spec\":{\"f:containers\":"
                        + "{\"k:{\\\"name\\\":\\\"c\\\"}\":{\".\":{},\"f:name\":{},\"f:ports\":{\"k:{\\\"containerPort\\\":80,"
                        + "\\\"protocol\\\":\\\"TCP\\\"}\":{\".\":{},\"f:containerPort\":{}}}}}}}");
        assertThat(FieldSet.parse(FieldSet.serialise(FieldSet.of(pod, ListTypes.BUILT_IN).paths())))
                .isEqualTo(FieldSet.of(pod, ListTypes.BUILT_IN).paths());
    }
}
