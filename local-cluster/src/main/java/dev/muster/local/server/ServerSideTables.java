package dev.muster.local.server;

import dev.muster.api.KubeTime;
import dev.muster.api.Sidecars;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceColumnDefinition;
import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceDefinition;
import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceDefinitionVersion;

import java.time.Duration;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;
import java.util.function.Supplier;

/**
 * The {@code meta.k8s.io/v1 Table} rendering kubectl asks for on {@code get} ({@code Accept: ...;as=Table}), for
 * every served kind, as kube-apiserver renders it: kube-apiserver's columns for pods, nodes, events (both groups),
 * namespaces, config maps, secrets, leases and priority classes; {@code additionalPrinterColumns} for custom
 * resources; Name and Age for the other built-in kinds. Without it kubectl prints only NAME and AGE, hiding the
 * phase columns of Muster's Jobs and PodGroups and what an Event says. As on kube-apiserver, every column is in
 * every row (kubectl hides those of priority above 0 unless {@code -o wide}).
 */
final class ServerSideTables {
    private static final JsonNodeFactory JSON = JsonNodeFactory.instance;

    private record Column(String name, String type, int priority, Function<JsonNode, JsonNode> cell) {
    }

    private final Supplier<List<CustomResourceDefinition>> storedCrds;

    ServerSideTables(Supplier<List<CustomResourceDefinition>> storedCrds) {
        this.storedCrds = storedCrds;
    }

    /** Whether an Accept header asks for a Table. */
    static boolean requested(String accept) {
        return accept != null && accept.contains("as=Table");
    }

    /**
     * The Table for a GET response body (an object or a list) of {@code group}/{@code plural}, a served
     * resource; empty when there is no Table for it.
     *
     * @param fullObjects whether rows carry the whole object ({@code includeObject=Object}) rather than metadata
     */
    Optional<ObjectNode> render(String group, String plural, JsonNode body, boolean fullObjects) {
        Optional<List<Column>> columns = columns(group == null ? "" : group, plural);
        if (columns.isEmpty()) {
            return Optional.empty();
        }
        ObjectNode table = JSON.objectNode().put("kind", "Table").put("apiVersion", "meta.k8s.io/v1");
        table.putObject("metadata").put("resourceVersion", body.path("metadata").path("resourceVersion").asText(""));
        ArrayNode definitions = table.putArray("columnDefinitions");
        for (Column column : columns.get()) {
            definitions.addObject().put("name", column.name()).put("type", column.type())
                    .put("format", column.name().equals("Name") ? "name" : "").put("description", "")
                    .put("priority", column.priority());
        }
        ArrayNode rows = table.putArray("rows");
        Iterable<JsonNode> items = body.has("items") ? body.get("items") : List.of(body);
        for (JsonNode item : items) {
            ObjectNode row = rows.addObject();
            ArrayNode cells = row.putArray("cells");
            columns.get().forEach(column -> cells.add(column.cell().apply(item)));
            row.set("object", fullObjects ? item : JSON.objectNode().put("kind", "PartialObjectMetadata")
                    .put("apiVersion", "meta.k8s.io/v1").set("metadata", item.path("metadata")));
        }
        return Optional.of(table);
    }

    /** The columns of a served resource: its own, a CRD's, or Name and Age for a built-in kind without its own. */
    private Optional<List<Column>> columns(String group, String plural) {
        List<Column> builtIn = BUILT_IN_COLUMNS.get(group + "/" + plural);
        if (builtIn != null) {
            return Optional.of(builtIn);
        }
        return Optional.of(storedCrds.get().stream()
                .filter(crd -> crd.getSpec().getGroup().equals(group) && crd.getSpec().getNames().getPlural().equals(plural))
                .findFirst().map(ServerSideTables::customResourceColumns)
                .orElse(NAME_AND_AGE));
    }

    private static final List<Column> NAME_AND_AGE = List.of(
            new Column("Name", "string", 0, ServerSideTables::name),
            new Column("Age", "string", 0, ServerSideTables::age));

    /** kube-apiserver's columns of the built-in kinds that have more than Name and Age, by group/plural. */
    private static final Map<String, List<Column>> BUILT_IN_COLUMNS = Map.ofEntries(
            Map.entry("/pods", PodColumns.COLUMNS),
            Map.entry("/nodes", NodeColumns.COLUMNS),
            Map.entry("/events", EventColumns.COLUMNS),
            Map.entry("events.k8s.io/events", EventColumns.COLUMNS),
            Map.entry("/namespaces", List.of(
                    new Column("Name", "string", 0, ServerSideTables::name),
                    new Column("Status", "string", 0, ns -> JSON.textNode(ns.path("status").path("phase").asText("Active"))),
                    new Column("Age", "string", 0, ServerSideTables::age))),
            Map.entry("/configmaps", List.of(
                    new Column("Name", "string", 0, ServerSideTables::name),
                    new Column("Data", "integer", 0, cm -> JSON.numberNode(cm.path("data").size() + cm.path("binaryData").size())),
                    new Column("Age", "string", 0, ServerSideTables::age))),
            Map.entry("/secrets", List.of(
                    new Column("Name", "string", 0, ServerSideTables::name),
                    new Column("Type", "string", 0, secret -> JSON.textNode(secret.path("type").asText("Opaque"))),
                    new Column("Data", "integer", 0, secret -> JSON.numberNode(secret.path("data").size())),
                    new Column("Age", "string", 0, ServerSideTables::age))),
            Map.entry("coordination.k8s.io/leases", List.of(
                    new Column("Name", "string", 0, ServerSideTables::name),
                    new Column("Holder", "string", 0, lease -> JSON.textNode(lease.path("spec").path("holderIdentity").asText(""))),
                    new Column("Age", "string", 0, ServerSideTables::age))),
            Map.entry("resource.k8s.io/resourceslices", List.of(
                    new Column("Name", "string", 0, ServerSideTables::name),
                    new Column("Node", "string", 0, slice -> text(slice.path("spec").path("nodeName"))),
                    new Column("Driver", "string", 0, slice -> text(slice.path("spec").path("driver"))),
                    new Column("Pool", "string", 0, slice -> text(slice.path("spec").path("pool").path("name"))),
                    new Column("Age", "string", 0, ServerSideTables::age))),
            Map.entry("resource.k8s.io/resourceclaims", List.of(
                    new Column("Name", "string", 0, ServerSideTables::name),
                    new Column("State", "string", 0, ServerSideTables::claimState),
                    new Column("Age", "string", 0, ServerSideTables::age))),
            Map.entry("scheduling.k8s.io/priorityclasses", List.of(
                    new Column("Name", "string", 0, ServerSideTables::name),
                    new Column("Value", "integer", 0, pc -> JSON.numberNode(pc.path("value").asInt())),
                    new Column("Global-Default", "boolean", 0, pc -> JSON.booleanNode(pc.path("globalDefault").asBoolean())),
                    new Column("Age", "string", 0, ServerSideTables::age),
                    new Column("Preemption-Policy", "string", 0,
                            pc -> JSON.textNode(pc.path("preemptionPolicy").asText("PreemptLowerPriority"))))));

    private static List<Column> customResourceColumns(CustomResourceDefinition crd) {
        List<Column> columns = new ArrayList<>();
        columns.add(new Column("Name", "string", 0, ServerSideTables::name));
        CustomResourceDefinitionVersion version = crd.getSpec().getVersions().stream()
                .filter(v -> Boolean.TRUE.equals(v.getStorage())).findFirst().orElse(crd.getSpec().getVersions().get(0));
        List<CustomResourceColumnDefinition> printerColumns = version.getAdditionalPrinterColumns();
        if (printerColumns == null || printerColumns.isEmpty()) {
            columns.add(new Column("Age", "date", 0, ServerSideTables::age));
            return columns;
        }
        for (CustomResourceColumnDefinition definition : printerColumns) {
            String[] path = definition.getJsonPath().replaceFirst("^\\.", "").split("\\.");
            boolean date = "date".equals(definition.getType());
            columns.add(new Column(definition.getName(), definition.getType(),
                    definition.getPriority() == null ? 0 : definition.getPriority(), item -> {
                JsonNode value = item;
                for (String field : path) {
                    value = value.path(field);
                }
                if (value.isMissingNode() || value.isNull()) {
                    return JSON.nullNode();
                }
                return date ? JSON.textNode(humanAge(value.asText(), Instant.now())) : value;
            }));
        }
        return columns;
    }

    /**
     * kubectl's pod columns; STATUS shows the container reason (Completed, Error) as kubectl does, or while the init
     * containers run, theirs ({@code Init:0/2}).
     */
    private static final class PodColumns {
        static final List<Column> COLUMNS = List.of(
                new Column("Name", "string", 0, ServerSideTables::name),
                new Column("Ready", "string", 0, PodColumns::ready),
                new Column("Status", "string", 0, PodColumns::status),
                new Column("Restarts", "string", 0, PodColumns::restarts),
                new Column("Age", "string", 0, ServerSideTables::age),
                new Column("IP", "string", 1, pod -> text(pod.path("status").path("podIP"))),
                new Column("Node", "string", 1, pod -> text(pod.path("spec").path("nodeName"))),
                new Column("Nominated Node", "string", 1, pod -> text(pod.path("status").path("nominatedNodeName"))),
                new Column("Readiness Gates", "string", 1, pod -> JSON.textNode("<none>")));

        /** Ready containers of all, sidecars (restartable init containers) counted among them, as kubectl's printPod. */
        private static JsonNode ready(JsonNode pod) {
            int ready = 0;
            int all = pod.path("spec").path("containers").size();
            for (JsonNode status : pod.path("status").path("initContainerStatuses")) {
                if (isSidecar(pod, status.path("name").asText())) {
                    all++;
                    ready += status.path("started").asBoolean() && status.path("ready").asBoolean() ? 1 : 0;
                }
            }
            for (JsonNode status : pod.path("status").path("containerStatuses")) {
                ready += status.path("ready").asBoolean() ? 1 : 0;
            }
            return JSON.textNode(ready + "/" + all);
        }

        private static JsonNode status(JsonNode pod) {
            if (!pod.path("metadata").path("deletionTimestamp").isMissingNode()) {
                return JSON.textNode("Terminating");
            }
            String reason = pod.path("status").path("reason").asText(pod.path("status").path("phase").asText("Pending"));
            Optional<String> initializing = initStatus(pod);
            if (initializing.isPresent() && !initialized(pod)) {
                return JSON.textNode(initializing.get());
            }
            for (JsonNode status : pod.path("status").path("containerStatuses")) {
                JsonNode state = status.path("state");
                String containerReason = state.path("waiting").path("reason").asText(
                        state.path("terminated").path("reason").asText(""));
                if (!containerReason.isEmpty()) {
                    reason = containerReason;
                }
            }
            return JSON.textNode(reason);
        }

        /**
         * What kubectl's printPod says of a pod whose init containers have not all done: the first one that has
         * not, as {@code Init:1/2}, {@code Init:CrashLoopBackOff}, {@code Init:Error} or {@code Init:ExitCode:1};
         * empty when every one exited 0 or, a sidecar, started.
         */
        private static Optional<String> initStatus(JsonNode pod) {
            JsonNode statuses = pod.path("status").path("initContainerStatuses");
            int count = pod.path("spec").path("initContainers").size();
            for (int i = 0; i < statuses.size(); i++) {
                JsonNode status = statuses.get(i);
                JsonNode terminated = status.path("state").path("terminated");
                String waiting = status.path("state").path("waiting").path("reason").asText("");
                if (!terminated.isMissingNode() && terminated.path("exitCode").asInt() == 0) {
                    continue;
                }
                if (isSidecar(pod, status.path("name").asText()) && status.path("started").asBoolean()) {
                    continue;
                }
                if (!terminated.isMissingNode()) {
                    String why = terminated.path("reason").asText("");
                    return Optional.of(!why.isEmpty() ? "Init:" + why : terminated.path("signal").asInt() != 0
                            ? "Init:Signal:" + terminated.path("signal").asInt()
                            : "Init:ExitCode:" + terminated.path("exitCode").asInt());
                }
                if (!waiting.isEmpty() && !waiting.equals("PodInitializing")) {
                    return Optional.of("Init:" + waiting);
                }
                return Optional.of("Init:" + i + "/" + count);
            }
            return Optional.empty();
        }

        private static boolean initialized(JsonNode pod) {
            for (JsonNode condition : pod.path("status").path("conditions")) {
                if (condition.path("type").asText().equals("Initialized")) {
                    return condition.path("status").asText().equals("True");
                }
            }
            return false;
        }

        private static boolean isSidecar(JsonNode pod, String name) {
            for (JsonNode container : pod.path("spec").path("initContainers")) {
                if (container.path("name").asText().equals(name)) {
                    return container.path("restartPolicy").asText("").equals(Sidecars.RESTART_POLICY);
                }
            }
            return false;
        }

        /** Restarts of every container, init containers included, as kubectl counts them. */
        private static JsonNode restarts(JsonNode pod) {
            int restarts = 0;
            for (String list : List.of("initContainerStatuses", "containerStatuses")) {
                for (JsonNode status : pod.path("status").path(list)) {
                    restarts += status.path("restartCount").asInt();
                }
            }
            return JSON.textNode(String.valueOf(restarts));
        }
    }

    /**
     * kube-apiserver's event columns (its printEvent): LAST SEEN, TYPE, REASON, OBJECT ({@code kind/name}, the kind
     * in lower case) and MESSAGE; SUBOBJECT, SOURCE, FIRST SEEN, COUNT and NAME with {@code -o wide}. Reads core/v1
     * Events and events.k8s.io/v1 ones ({@code regarding}, {@code note}, {@code deprecated...}), which kube-apiserver
     * prints alike.
     */
    private static final class EventColumns {
        static final List<Column> COLUMNS = List.of(
                new Column("Last Seen", "string", 0, EventColumns::lastSeen),
                new Column("Type", "string", 0, event -> JSON.textNode(event.path("type").asText(""))),
                new Column("Reason", "string", 0, event -> JSON.textNode(event.path("reason").asText(""))),
                new Column("Object", "string", 0, EventColumns::object),
                new Column("Subobject", "string", 1, event -> JSON.textNode(regarding(event).path("fieldPath").asText(""))),
                new Column("Source", "string", 1, EventColumns::source),
                new Column("Message", "string", 0, event -> JSON.textNode(
                        either(event, "message", "note").asText("").strip())),
                new Column("First Seen", "string", 1, event -> JSON.textNode(firstSeen(event))),
                new Column("Count", "integer", 1, EventColumns::count),
                new Column("Name", "string", 1, ServerSideTables::name));

        private static JsonNode regarding(JsonNode event) {
            return either(event, "involvedObject", "regarding");
        }

        private static String firstSeen(JsonNode event) {
            String first = either(event, "firstTimestamp", "deprecatedFirstTimestamp").asText("");
            return since(first.isEmpty() ? event.path("eventTime").asText("") : first);
        }

        private static JsonNode lastSeen(JsonNode event) {
            JsonNode series = event.path("series");
            if (series.isObject()) {
                return JSON.textNode(since(series.path("lastObservedTime").asText("")));
            }
            String last = either(event, "lastTimestamp", "deprecatedLastTimestamp").asText("");
            return JSON.textNode(last.isEmpty() ? firstSeen(event) : since(last));
        }

        private static JsonNode object(JsonNode event) {
            JsonNode regarding = regarding(event);
            String kind = regarding.path("kind").asText("").toLowerCase(Locale.ROOT);
            String name = regarding.path("name").asText("");
            return JSON.textNode(name.isEmpty() ? kind : kind + "/" + name);
        }

        private static JsonNode source(JsonNode event) {
            JsonNode source = either(event, "source", "deprecatedSource");
            String component = source.path("component").asText("");
            String host = source.path("host").asText("");
            component = component.isEmpty() ? event.path("reportingController").asText("") : component;
            host = host.isEmpty() ? event.path("reportingInstance").asText("") : host;
            return JSON.textNode(host.isEmpty() ? component : component + ", " + host);
        }

        private static JsonNode count(JsonNode event) {
            JsonNode series = event.path("series");
            if (series.isObject()) {
                return JSON.numberNode(series.path("count").asInt());
            }
            int count = either(event, "count", "deprecatedCount").asInt(0);
            return JSON.numberNode(count == 0 ? 1 : count);
        }

        /** A core/v1 field, or its events.k8s.io/v1 counterpart. */
        private static JsonNode either(JsonNode event, String core, String eventsV1) {
            JsonNode value = event.path(core);
            return value.isMissingNode() || value.isNull() ? event.path(eventsV1) : value;
        }

        /** kube-apiserver's translateTimestampSince: {@code <unknown>} for no time. */
        private static String since(String timestamp) {
            return timestamp.isEmpty() ? "<unknown>" : humanAge(timestamp, Instant.now());
        }
    }

    /** kubectl's node columns. */
    private static final class NodeColumns {
        private static final String ROLE_PREFIX = "node-role.kubernetes.io/";

        static final List<Column> COLUMNS = List.of(
                new Column("Name", "string", 0, ServerSideTables::name),
                new Column("Status", "string", 0, NodeColumns::status),
                new Column("Roles", "string", 0, NodeColumns::roles),
                new Column("Age", "string", 0, ServerSideTables::age),
                new Column("Version", "string", 0, node -> text(node.path("status").path("nodeInfo").path("kubeletVersion"))),
                new Column("Internal-IP", "string", 1, NodeColumns::internalIp),
                new Column("OS-Image", "string", 1, node -> text(node.path("status").path("nodeInfo").path("osImage"))));

        private static JsonNode status(JsonNode node) {
            String ready = "Unknown";
            for (JsonNode condition : node.path("status").path("conditions")) {
                if (condition.path("type").asText().equals("Ready")) {
                    ready = condition.path("status").asText().equals("True") ? "Ready" : "NotReady";
                }
            }
            return JSON.textNode(node.path("spec").path("unschedulable").asBoolean() ? ready + ",SchedulingDisabled" : ready);
        }

        private static JsonNode roles(JsonNode node) {
            List<String> roles = new ArrayList<>();
            for (var label : node.path("metadata").path("labels").properties()) {
                if (label.getKey().startsWith(ROLE_PREFIX)) {
                    roles.add(label.getKey().substring(ROLE_PREFIX.length()));
                }
            }
            return JSON.textNode(roles.isEmpty() ? "<none>" : String.join(",", roles));
        }

        private static JsonNode internalIp(JsonNode node) {
            for (JsonNode address : node.path("status").path("addresses")) {
                if (address.path("type").asText().equals("InternalIP")) {
                    return JSON.textNode(address.path("address").asText());
                }
            }
            return JSON.textNode("<none>");
        }
    }

    /** kube-apiserver's claim state: {@code pending}, or {@code allocated} and {@code reserved}, after {@code deleted}. */
    private static JsonNode claimState(JsonNode claim) {
        List<String> states = new ArrayList<>();
        boolean deleted = claim.path("metadata").hasNonNull("deletionTimestamp");
        if (deleted) {
            states.add("deleted");
        }
        JsonNode status = claim.path("status");
        if (status.path("allocation").isObject()) {
            states.add("allocated");
        } else if (!deleted) {
            states.add("pending");
        }
        if (!status.path("reservedFor").isEmpty()) {
            states.add("reserved");
        }
        return JSON.textNode(String.join(",", states));
    }

    private static JsonNode name(JsonNode item) {
        return JSON.textNode(item.path("metadata").path("name").asText());
    }

    private static JsonNode age(JsonNode item) {
        return JSON.textNode(humanAge(item.path("metadata").path("creationTimestamp").asText(""), Instant.now()));
    }

    private static JsonNode text(JsonNode value) {
        return JSON.textNode(value.asText("").isEmpty() ? "<none>" : value.asText());
    }

    /** Ages as kubectl prints them (its {@code duration.HumanDuration}): 42s, 3m7s, 5h, 12d. */
    static String humanAge(String timestamp, Instant now) {
        Duration age;
        try {
            age = Duration.between(KubeTime.parse(timestamp), now);
        } catch (DateTimeParseException e) {
            return "<unknown>";
        }
        long seconds = Math.max(0, age.getSeconds());
        long minutes = seconds / 60;
        long hours = minutes / 60;
        long days = hours / 24;
        if (seconds < 120) {
            return seconds + "s";
        } else if (minutes < 10) {
            return seconds % 60 == 0 ? minutes + "m" : minutes + "m" + seconds % 60 + "s";
        } else if (hours < 3) {
            return minutes + "m";
        } else if (hours < 8) {
            return minutes % 60 == 0 ? hours + "h" : hours + "h" + minutes % 60 + "m";
        } else if (hours < 48) {
            return hours + "h";
        } else if (days < 8) {
            return hours % 24 == 0 ? days + "d" : days + "d" + hours % 24 + "h";
        } else if (days < 365 * 2) {
            return days + "d";
        }
        long years = days / 365;
        return days % 365 == 0 || years >= 8 ? years + "y" : years + "y" + days % 365 + "d";
    }
}
