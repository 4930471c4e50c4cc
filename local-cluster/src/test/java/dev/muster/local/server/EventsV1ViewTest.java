package dev.muster.local.server;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.muster.local.protocol.Json;
import org.junit.jupiter.api.Test;

import java.io.IOException;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** The translation between events.k8s.io/v1 and core/v1 Events, field by field. */
class EventsV1ViewTest {

    @Test
    void everyRenamedFieldGoesThereAndBack() throws IOException {
        ObjectNode v1 = (ObjectNode) Json.parse(("{\"apiVersion\":\"events.k8s.io/v1\",\"kind\":\"Event\","
                + "\"metadata\":{\"name\":\"e\"},\"regarding\":{\"kind\":\"Pod\",\"name\":\"p\"},\"note\":\"n\","
                + "\"reportingController\":\"c\",\"reportingInstance\":\"i\",\"deprecatedSource\":{\"component\":\"s\"},"
                + "\"deprecatedFirstTimestamp\":\"2026-11-28T10:00:00Z\",\"deprecatedLastTimestamp\":\"2026-11-28T10:01:00Z\","
                + "\"deprecatedCount\":2,\"series\":{\"count\":2},\"reason\":\"R\",\"type\":\"Normal\",\"action\":\"A\"}")
                .getBytes());

        ObjectNode core = EventsV1View.toCore(v1);

        assertThat(core.path("apiVersion").asText()).isEqualTo("v1");
        assertThat(core.path("involvedObject").path("name").asText()).isEqualTo("p");
        assertThat(core.path("message").asText()).isEqualTo("n");
        assertThat(core.path("reportingComponent").asText()).isEqualTo("c");
        assertThat(core.path("source").path("component").asText()).isEqualTo("s");
        assertThat(core.path("firstTimestamp").asText()).isEqualTo("2026-11-28T10:00:00Z");
        assertThat(core.path("lastTimestamp").asText()).isEqualTo("2026-11-28T10:01:00Z");
        assertThat(core.path("count").asInt()).isEqualTo(2);
        assertThat(core.path("reportingInstance").asText()).isEqualTo("i");
        assertThat(core.has("note") || core.has("regarding") || core.has("deprecatedCount")).isFalse();
        assertThat(EventsV1View.toV1(core)).isEqualTo(v1);
    }

    @Test
    void patchesNameTheCoreFields() throws IOException {
        JsonNode merge = EventsV1View.mergePatchToCore((ObjectNode) Json.parse(
                "{\"series\":{\"count\":3},\"deprecatedCount\":3,\"note\":null}".getBytes()));
        assertThat(merge.toString()).isEqualTo("{\"series\":{\"count\":3},\"count\":3,\"message\":null}");

        ArrayNode json = EventsV1View.jsonPatchToCore((ArrayNode) Json.parse(("[{\"op\":\"replace\",\"path\":\"/note\","
                + "\"value\":\"x\"},{\"op\":\"copy\",\"from\":\"/regarding/name\",\"path\":\"/reason\"},"
                + "{\"op\":\"add\",\"path\":\"/notes\",\"value\":1}]").getBytes()));
        assertThat(json.findValuesAsText("path")).containsExactly("/message", "/reason", "/notes");
        assertThat(json.findValuesAsText("from")).containsExactly("/involvedObject/name");
    }

    @Test
    void pathsAndFieldSelectorsAreTheCoreOnes() {
        assertThat(EventsV1View.corePathWithQuery("/apis/events.k8s.io/v1/namespaces/a/events?fieldSelector="
                + "regarding.name%3Dp%2Creason%21%3DX&watch=1"))
                .isEqualTo("/api/v1/namespaces/a/events?fieldSelector=involvedObject.name%3Dp%2Creason%21%3DX&watch=1");
        assertThat(EventsV1View.corePathWithQuery("/apis/events.k8s.io/v1/events")).isEqualTo("/api/v1/events");
        assertThatThrownBy(() -> EventsV1View.corePathWithQuery("/apis/events.k8s.io/v1/events?fieldSelector=message%3Dx"))
                .hasMessage("field label not supported: message");
        assertThat(EventsV1View.isViewPath("/apis/events.k8s.io/v1/namespaces/a/events/e")).isTrue();
        assertThat(EventsV1View.isViewPath("/apis/events.k8s.io/v1")).isFalse();
    }

    @Test
    void aListOfCoreEventsIsShownAsAnEventsV1List() throws IOException {
        JsonNode shown = EventsV1View.responseToV1(Json.parse(("{\"apiVersion\":\"v1\",\"kind\":\"EventList\","
                + "\"metadata\":{\"resourceVersion\":\"5\"},\"items\":[{\"apiVersion\":\"v1\",\"kind\":\"Event\","
                + "\"message\":\"m\"}]}").getBytes()));
        assertThat(shown.path("apiVersion").asText()).isEqualTo("events.k8s.io/v1");
        assertThat(shown.path("metadata").path("resourceVersion").asText()).isEqualTo("5");
        assertThat(shown.path("items").get(0).path("note").asText()).isEqualTo("m");
        JsonNode status = Json.parse("{\"kind\":\"Status\",\"message\":\"m\"}".getBytes());
        assertThat(EventsV1View.responseToV1(status)).isSameAs(status);
    }
}
