package dev.muster.local.server;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.netty.handler.codec.http.QueryStringDecoder;
import io.netty.handler.codec.http.QueryStringEncoder;

import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

/**
 * {@code events.k8s.io/v1} Events as a view of core/v1 Events, as kube-apiserver serves them: one store, each
 * Event readable and writable through both APIs. A request to the events.k8s.io API is translated to the core one
 * (its path, its field selector's labels, its body), and what comes back translated again.
 *
 * <p>The two kinds differ in field names only (kube-apiserver's
 * <a href="https://github.com/kubernetes/kubernetes/blob/master/pkg/apis/events/v1/conversion.go">conversion.go</a>):
 * {@code regarding} is {@code involvedObject}, {@code note} is {@code message}, {@code reportingController} is
 * {@code reportingComponent}, and {@code deprecatedSource}, {@code deprecatedFirstTimestamp},
 * {@code deprecatedLastTimestamp} and {@code deprecatedCount} are {@code source}, {@code firstTimestamp},
 * {@code lastTimestamp} and {@code count}; the other fields have one name in both.
 */
final class EventsV1View {
    static final String API_VERSION = "events.k8s.io/v1";
    private static final String PREFIX = "/apis/" + API_VERSION + "/";
    private static final String CORE_PREFIX = "/api/v1/";
    private static final Pattern EVENTS_PATH = Pattern.compile("^/apis/events\\.k8s\\.io/v1/(namespaces/[^/]+/)?events(/[^/]+)?$");
    /** events.k8s.io/v1 name to core/v1 name, for the fields whose names differ. */
    private static final Map<String, String> TO_CORE = Map.of(
            "regarding", "involvedObject",
            "note", "message",
            "reportingController", "reportingComponent",
            "deprecatedSource", "source",
            "deprecatedFirstTimestamp", "firstTimestamp",
            "deprecatedLastTimestamp", "lastTimestamp",
            "deprecatedCount", "count");
    private static final Map<String, String> TO_V1 = inverse(TO_CORE);
    /** The field selector labels events.k8s.io/v1 supports, and the core ones they select on. */
    private static final Map<String, String> FIELD_LABELS = Map.ofEntries(
            Map.entry("reason", "reason"),
            Map.entry("regarding.kind", "involvedObject.kind"),
            Map.entry("regarding.namespace", "involvedObject.namespace"),
            Map.entry("regarding.name", "involvedObject.name"),
            Map.entry("regarding.uid", "involvedObject.uid"),
            Map.entry("regarding.apiVersion", "involvedObject.apiVersion"),
            Map.entry("regarding.resourceVersion", "involvedObject.resourceVersion"),
            Map.entry("regarding.fieldPath", "involvedObject.fieldPath"),
            Map.entry("reportingController", "reportingComponent"),
            Map.entry("source", "source"),
            Map.entry("type", "type"),
            Map.entry("metadata.namespace", "metadata.namespace"),
            Map.entry("metadata.name", "metadata.name"));
    private static final Pattern FIELD_TERM = Pattern.compile("^\\s*([^\\s!=]+)(.*)$", Pattern.DOTALL);

    private EventsV1View() {
    }

    /** Whether a path (without query) is events.k8s.io/v1 Events: the collection, a namespace's, or one Event. */
    static boolean isViewPath(String path) {
        return EVENTS_PATH.matcher(path).matches();
    }

    /**
     * The core/v1 path and query of an events.k8s.io/v1 one, its field selector in core labels.
     *
     * @throws IllegalArgumentException for a field selector label events.k8s.io/v1 does not support, in
     *                                  kube-apiserver's words
     */
    static String corePathWithQuery(String pathWithQuery) {
        QueryStringDecoder decoded = new QueryStringDecoder(pathWithQuery);
        QueryStringEncoder core = new QueryStringEncoder(CORE_PREFIX + decoded.path().substring(PREFIX.length()));
        decoded.parameters().forEach((name, values) -> values.forEach(value ->
                core.addParam(name, name.equals("fieldSelector") ? coreFieldSelector(value) : value)));
        return core.toString();
    }

    private static String coreFieldSelector(String selector) {
        List<String> terms = new ArrayList<>();
        for (String term : selector.split(",")) {
            if (term.isBlank()) {
                continue;
            }
            Matcher matcher = FIELD_TERM.matcher(term);
            String label = matcher.matches() ? matcher.group(1) : term;
            String core = FIELD_LABELS.get(label);
            if (core == null) {
                throw new IllegalArgumentException("field label not supported: " + label);
            }
            terms.add(core + matcher.group(2));
        }
        return String.join(",", terms);
    }

    /** An events.k8s.io/v1 Event as the core/v1 Event kube-apiserver stores. */
    static ObjectNode toCore(ObjectNode event) {
        ObjectNode core = renamed(event, TO_CORE);
        core.put("apiVersion", "v1");
        return core;
    }

    /** A stored core/v1 Event as events.k8s.io/v1 shows it. */
    static ObjectNode toV1(ObjectNode event) {
        ObjectNode v1 = renamed(event, TO_V1);
        v1.put("apiVersion", API_VERSION);
        return v1;
    }

    /** A merge or strategic merge patch of an events.k8s.io/v1 Event as one of the core/v1 Event. */
    static ObjectNode mergePatchToCore(ObjectNode patch) {
        ObjectNode core = renamed(patch, TO_CORE);
        if (core.has("apiVersion")) {
            core.put("apiVersion", "v1");
        }
        return core;
    }

    /** A JSON patch (RFC 6902) of an events.k8s.io/v1 Event as one of the core/v1 Event: its paths renamed. */
    static ArrayNode jsonPatchToCore(ArrayNode patch) {
        ArrayNode core = patch.deepCopy();
        for (JsonNode operation : core) {
            if (operation instanceof ObjectNode op) {
                for (String pointer : List.of("path", "from")) {
                    if (op.hasNonNull(pointer)) {
                        op.put(pointer, corePointer(op.get(pointer).asText()));
                    }
                }
            }
        }
        return core;
    }

    /**
     * A response of the core API as the events.k8s.io one: an Event, or a list of them. Anything else, a Status
     * for one, is the same in both (Tables are rendered later, from what this returns).
     */
    static JsonNode responseToV1(JsonNode body) {
        if (!(body instanceof ObjectNode object)) {
            return body;
        }
        String kind = object.path("kind").asText();
        if (kind.equals("Event")) {
            return toV1(object);
        }
        if (kind.equals("EventList")) {
            ObjectNode list = object.deepCopy();
            list.put("apiVersion", API_VERSION);
            list.set("items", eventsToV1(object.path("items")));
            return list;
        }
        return body;
    }

    private static ArrayNode eventsToV1(JsonNode items) {
        ArrayNode converted = JsonNodeFactory.instance.arrayNode();
        for (JsonNode item : items) {
            converted.add(item instanceof ObjectNode event ? toV1(event) : item);
        }
        return converted;
    }

    private static String corePointer(String pointer) {
        if (!pointer.startsWith("/")) {
            return pointer;
        }
        int end = pointer.indexOf('/', 1);
        String first = end < 0 ? pointer.substring(1) : pointer.substring(1, end);
        String core = TO_CORE.get(first);
        return core == null ? pointer : "/" + core + (end < 0 ? "" : pointer.substring(end));
    }

    /** A copy with the top-level fields renamed, in the order they came. */
    private static ObjectNode renamed(ObjectNode object, Map<String, String> names) {
        ObjectNode renamed = object.objectNode();
        for (Iterator<Map.Entry<String, JsonNode>> fields = object.fields(); fields.hasNext(); ) {
            Map.Entry<String, JsonNode> field = fields.next();
            renamed.set(names.getOrDefault(field.getKey(), field.getKey()), field.getValue().deepCopy());
        }
        return renamed;
    }

    private static Map<String, String> inverse(Map<String, String> map) {
        return map.entrySet().stream().collect(Collectors.toUnmodifiableMap(Map.Entry::getValue, Map.Entry::getKey));
    }
}
