package dev.muster.local.server;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;

import java.util.Iterator;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The OpenAPI v3 document of one group-version served by CustomResourceDefinitions, as kube-apiserver publishes it
 * at {@code /openapi/v3/apis/<group>/<version>} (built there by the apiextensions-apiserver's OpenAPI builder,
 * <a href="https://github.com/kubernetes/kubernetes/tree/master/staging/src/k8s.io/apiextensions-apiserver/pkg/controller/openapi/builder">builder</a>):
 * each kind's schema is its served version's {@code openAPIV3Schema}, with {@code apiVersion}, {@code kind} and
 * {@code metadata} replaced by Kubernetes' own and the kind named in {@code x-kubernetes-group-version-kind}; a
 * list kind beside it; and the resource's paths, whose operations name the kind too. {@code kubectl explain} finds
 * the kind from the resource's path and then its schema among the components; {@code kubectl apply} reads from the
 * PATCH operation which patch types the resource accepts (not strategic merge, for a custom resource).
 *
 * <p>Unlike kube-apiserver's, the document holds no DELETE operations and no scale subresource: their
 * responses would need the {@code Status} and {@code Scale} schemas, which no client reads from it.
 *
 * <p>A pure function of the stored CRDs, as JSON: the HTTP side ({@link OpenApiV3Documents}) caches and hashes it.
 */
final class CrdOpenApiDocument {
    private static final JsonNodeFactory NODES = JsonNodeFactory.instance;
    private static final String SCHEMAS_PREFIX = "#/components/schemas/";
    private static final String META = "io.k8s.apimachinery.pkg.apis.meta.v1.";
    private static final String OBJECT_META = META + "ObjectMeta";
    private static final String LIST_META = META + "ListMeta";
    private static final String GVK = "x-kubernetes-group-version-kind";
    private static final String CONVENTIONS = "https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md";
    private static final String API_VERSION_DESCRIPTION = "APIVersion defines the versioned schema of this representation"
            + " of an object. Servers should convert recognized schemas to the latest internal value, and may reject"
            + " unrecognized values. More info: " + CONVENTIONS + "#resources";
    private static final String KIND_DESCRIPTION = "Kind is a string value representing the REST resource this object"
            + " represents. Servers may infer this from the endpoint the client submits requests to. Cannot be updated."
            + " In CamelCase. More info: " + CONVENTIONS + "#types-kinds";
    private static final String OBJECT_METADATA_DESCRIPTION = "Standard object's metadata. More info: " + CONVENTIONS
            + "#metadata";
    private static final String LIST_METADATA_DESCRIPTION = "Standard list metadata. More info: " + CONVENTIONS
            + "#types-kinds";
    private static final List<String> BODY_TYPES = List.of("application/json", "application/yaml");
    /** A custom resource takes these patches, not strategic merge, which is what tells kubectl to send a merge patch. */
    private static final List<String> PATCH_TYPES =
            List.of("application/json-patch+json", "application/merge-patch+json", "application/apply-patch+yaml");

    private static final List<QueryParameter> LIST_PARAMETERS = List.of(
            new QueryParameter("labelSelector", "string", "Selects the listed objects by their labels."),
            new QueryParameter("fieldSelector", "string", "Selects the listed objects by their fields."),
            new QueryParameter("limit", "integer", "The most objects to return in one list call."),
            new QueryParameter("continue", "string", "The previous list call's continue token, for the next page."),
            new QueryParameter("resourceVersion", "string", "The resource version the list is at least as new as."),
            new QueryParameter("watch", "boolean", "Watch for changes to the described resources."));
    private static final List<QueryParameter> WRITE_PARAMETERS = List.of(
            new QueryParameter("dryRun", "string", "When All, the request is processed but nothing is persisted."),
            new QueryParameter("fieldManager", "string", "A name for the actor making these changes."),
            new QueryParameter("fieldValidation", "string", "How to treat unknown and duplicate fields: Ignore, Warn"
                    + " or Strict."));
    private static final QueryParameter FORCE =
            new QueryParameter("force", "boolean", "Lets an Apply patch take fields other managers own.");

    private CrdOpenApiDocument() {
    }

    /**
     * The document of {@code group}/{@code version}: every CRD in {@code crds} of that group serving that version
     * contributes its kind, list kind and paths.
     *
     * @param crds stored CustomResourceDefinitions as JSON (apiextensions.k8s.io/v1)
     * @return the document, with no paths if no CRD serves the group-version
     */
    static ObjectNode of(String group, String version, List<JsonNode> crds) {
        ObjectNode document = NODES.objectNode();
        document.put("openapi", "3.0.0");
        document.putObject("info").put("title", "Kubernetes CRD Swagger").put("version", "v0.1.0");
        ObjectNode paths = document.putObject("paths");
        ObjectNode schemas = document.putObject("components").putObject("schemas");
        for (JsonNode crd : crds) {
            JsonNode spec = crd.path("spec");
            if (!spec.path("group").asText().equals(group)) {
                continue;
            }
            for (JsonNode served : spec.path("versions")) {
                if (served.path("name").asText().equals(version) && served.path("served").asBoolean()) {
                    new Kind(group, version, spec, served).addTo(paths, schemas);
                }
            }
        }
        if (!schemas.isEmpty()) {
            schemas.set(OBJECT_META, objectMeta());
            schemas.set(LIST_META, listMeta());
        }
        return document;
    }

    /** The kinds' schema names, kube's: the group's labels reversed, then version and kind. */
    static String schemaName(String group, String version, String kind) {
        String[] labels = group.split("\\.");
        StringBuilder name = new StringBuilder();
        for (int i = labels.length - 1; i >= 0; i--) {
            name.append(labels[i]).append('.');
        }
        return name.append(version).append('.').append(kind).toString();
    }

    /** A query parameter an operation takes. */
    private record QueryParameter(String name, String type, String description) {
        ObjectNode json() {
            return queryParameter(name, description, type);
        }
    }

    /** An operation of a path item, under its HTTP method. */
    private record Method(String name, ObjectNode operation) {
    }

    /** One CRD's kind in one served version. */
    private record Kind(String group, String version, String kind, String listKind, String plural, boolean namespaced,
                        JsonNode schema, boolean hasStatus) {
        Kind(String group, String version, JsonNode spec, JsonNode served) {
            this(group, version, spec.path("names").path("kind").asText(),
                    spec.path("names").path("listKind").asText(spec.path("names").path("kind").asText() + "List"),
                    spec.path("names").path("plural").asText(), !"Cluster".equals(spec.path("scope").asText()),
                    served.path("schema").path("openAPIV3Schema"), served.path("subresources").has("status"));
        }

        void addTo(ObjectNode paths, ObjectNode schemas) {
            schemas.set(schemaName(group, version, kind), objectSchema());
            schemas.set(schemaName(group, version, listKind), listSchema());
            String root = "/apis/" + group + "/" + version;
            String collection = root + (namespaced ? "/namespaces/{namespace}/" : "/") + plural;
            String scope = namespaced ? "Namespaced" : "";
            if (namespaced) {
                paths.set(root + "/" + plural, pathItem(root + "/" + plural,
                        new Method("get", operation("list", "list" + kind + "ForAllNamespaces",
                                "list objects of kind " + kind, listKind, null))));
            }
            paths.set(collection, pathItem(collection,
                    new Method("get", operation("list", "list" + scope + kind, "list objects of kind " + kind, listKind,
                            null)),
                    new Method("post", operation("post", "create" + scope + kind, "create " + article() + kind, kind,
                            BODY_TYPES))));
            String object = collection + "/{name}";
            paths.set(object, objectPathItem(object, "", scope));
            if (hasStatus) {
                paths.set(object + "/status", objectPathItem(object + "/status", "Status", scope));
            }
        }

        private ObjectNode objectPathItem(String path, String subresource, String scope) {
            String of = subresource.isEmpty() ? "" : " " + subresource.toLowerCase(Locale.ROOT) + " of";
            return pathItem(path,
                    new Method("get", operation("get", "read" + scope + kind + subresource,
                            "read" + of + " the specified " + kind, kind, null)),
                    new Method("put", operation("put", "replace" + scope + kind + subresource,
                            "replace" + of + " the specified " + kind, kind, BODY_TYPES)),
                    new Method("patch", operation("patch", "patch" + scope + kind + subresource,
                            "partially update" + of + " the specified " + kind, kind, PATCH_TYPES)));
        }

        private String article() {
            return "AEIOU".indexOf(kind.isEmpty() ? 'x' : kind.charAt(0)) >= 0 ? "an " : "a ";
        }

        private ObjectNode pathItem(String path, Method... methods) {
            ObjectNode item = NODES.objectNode();
            for (Method method : methods) {
                item.set(method.name(), method.operation());
            }
            ArrayNode parameters = item.putArray("parameters");
            if (path.contains("{name}")) {
                parameters.add(pathParameter("name", "name of the " + kind));
            }
            if (path.contains("{namespace}")) {
                parameters.add(pathParameter("namespace", "object name and auth scope, such as for teams and projects"));
            }
            parameters.add(queryParameter("pretty", "If 'true', then the output is pretty printed.", "string"));
            return item;
        }

        /**
         * An operation on this kind; {@code bodyTypes} null for one without a request body. The write operations take
         * {@code fieldValidation}: kubectl looks for it on the PATCH operation to leave validation to the server.
         */
        private ObjectNode operation(String action, String verbAndKind, String description, String responseKind,
                                     List<String> bodyTypes) {
            ObjectNode operation = NODES.objectNode();
            operation.putArray("tags").add(tag());
            operation.put("description", description);
            operation.put("operationId", operationId(verbAndKind));
            ArrayNode parameters = operation.putArray("parameters");
            if (action.equals("list")) {
                LIST_PARAMETERS.forEach(parameter -> parameters.add(parameter.json()));
            }
            if (bodyTypes != null) {
                WRITE_PARAMETERS.forEach(parameter -> parameters.add(parameter.json()));
                if (action.equals("patch")) {
                    parameters.add(FORCE.json());
                }
                ObjectNode requestBody = operation.putObject("requestBody");
                ObjectNode content = requestBody.putObject("content");
                JsonNode bodySchema = action.equals("patch") ? NODES.objectNode().put("type", "object") : ref(responseKind);
                bodyTypes.forEach(type -> content.putObject(type).set("schema", bodySchema));
                requestBody.put("required", true);
            }
            ObjectNode responses = operation.putObject("responses");
            responses.set("200", response("OK", responseKind));
            if (action.equals("post") || action.equals("put")) {
                responses.set("201", response("Created", responseKind));
            }
            if (action.equals("post")) {
                responses.set("202", response("Accepted", responseKind));
            }
            responses.putObject("401").put("description", "Unauthorized");
            operation.put("x-kubernetes-action", action);
            operation.putObject(GVK).put("group", group).put("version", version).put("kind", kind);
            return operation;
        }

        private ObjectNode response(String description, String responseKind) {
            ObjectNode response = NODES.objectNode().put("description", description);
            ObjectNode content = response.putObject("content");
            BODY_TYPES.forEach(type -> content.putObject(type).set("schema", ref(responseKind)));
            return response;
        }

        private ObjectNode ref(String ofKind) {
            return NODES.objectNode().put("$ref", SCHEMAS_PREFIX + schemaName(group, version, ofKind));
        }

        /** As kube-apiserver names them: verb, then the group in camel case and the version, then the rest. */
        private String operationId(String verbAndKind) {
            int verbEnd = 0;
            while (verbEnd < verbAndKind.length() && Character.isLowerCase(verbAndKind.charAt(verbEnd))) {
                verbEnd++;
            }
            return verbAndKind.substring(0, verbEnd) + capitalised(camelGroup()) + capitalised(version)
                    + verbAndKind.substring(verbEnd);
        }

        private String tag() {
            return camelGroup() + "_" + version;
        }

        private String camelGroup() {
            StringBuilder camel = new StringBuilder();
            for (String label : group.split("[.-]")) {
                camel.append(camel.isEmpty() ? label : capitalised(label));
            }
            return camel.toString();
        }

        private ObjectNode objectSchema() {
            ObjectNode object;
            if (schema.isObject()) {
                object = unfolded(schema.deepCopy());
                ObjectNode properties = object.withObjectProperty("properties");
                properties.set("apiVersion", typeMeta(API_VERSION_DESCRIPTION));
                properties.set("kind", typeMeta(KIND_DESCRIPTION));
                properties.set("metadata", metadata(OBJECT_META, OBJECT_METADATA_DESCRIPTION));
            } else {
                // No schema, no fields: kube-apiserver then publishes a bare object too, which says nothing false.
                object = NODES.objectNode().put("type", "object");
            }
            object.putArray(GVK).addObject().put("group", group).put("version", version).put("kind", kind);
            return object;
        }

        private ObjectNode listSchema() {
            ObjectNode list = NODES.objectNode();
            list.put("description", listKind + " is a list of " + kind);
            list.putArray("required").add("items");
            ObjectNode properties = list.putObject("properties");
            properties.set("apiVersion", typeMeta(API_VERSION_DESCRIPTION));
            ObjectNode items = properties.putObject("items").put("description",
                    "List of " + plural + ". More info: " + CONVENTIONS).put("type", "array");
            items.set("items", ref(kind));
            properties.set("kind", typeMeta(KIND_DESCRIPTION));
            properties.set("metadata", metadata(LIST_META, LIST_METADATA_DESCRIPTION));
            list.put("type", "object");
            list.putArray(GVK).addObject().put("group", group).put("version", version).put("kind", listKind);
            return list;
        }
    }

    /**
     * The schema with what kube-apiserver's structural schemas spell out: an int-or-string field's two types, and an
     * embedded object's {@code apiVersion}, {@code kind} and {@code metadata}.
     */
    private static ObjectNode unfolded(ObjectNode schema) {
        if (schema.path("x-kubernetes-int-or-string").asBoolean() && !schema.has("anyOf") && !schema.has("allOf")) {
            ArrayNode anyOf = schema.putArray("anyOf");
            anyOf.addObject().put("type", "integer");
            anyOf.addObject().put("type", "string");
        }
        if (schema.path("x-kubernetes-embedded-resource").asBoolean()) {
            ObjectNode properties = schema.withObjectProperty("properties");
            properties.set("apiVersion", typeMeta("apiVersion defines the versioned schema of this representation of"
                    + " an object. More info: " + CONVENTIONS + "#resources"));
            properties.set("kind", typeMeta("kind is a string value representing the type of this object. In"
                    + " CamelCase. More info: " + CONVENTIONS + "#types-kinds"));
            properties.set("metadata", metadata(OBJECT_META, OBJECT_METADATA_DESCRIPTION));
            ArrayNode required = schema.withArrayProperty("required");
            for (String field : List.of("kind", "apiVersion")) {
                if (!contains(required, field)) {
                    required.add(field);
                }
            }
        }
        for (String nested : List.of("properties", "patternProperties")) {
            Iterator<Map.Entry<String, JsonNode>> fields = schema.path(nested).fields();
            while (fields.hasNext()) {
                Map.Entry<String, JsonNode> field = fields.next();
                if (field.getValue() instanceof ObjectNode child) {
                    unfolded(child);
                }
            }
        }
        for (String single : List.of("items", "additionalProperties", "not")) {
            if (schema.get(single) instanceof ObjectNode child) {
                unfolded(child);
            }
        }
        for (String alternatives : List.of("allOf", "anyOf", "oneOf")) {
            schema.path(alternatives).forEach(child -> {
                if (child instanceof ObjectNode object) {
                    unfolded(object);
                }
            });
        }
        return schema;
    }

    private static boolean contains(ArrayNode array, String text) {
        for (JsonNode element : array) {
            if (element.asText().equals(text)) {
                return true;
            }
        }
        return false;
    }

    private static ObjectNode typeMeta(String description) {
        return NODES.objectNode().put("description", description).put("type", "string");
    }

    private static ObjectNode metadata(String schema, String description) {
        return NODES.objectNode().put("$ref", SCHEMAS_PREFIX + schema).put("description", description);
    }

    private static ObjectNode pathParameter(String name, String description) {
        ObjectNode parameter = NODES.objectNode().put("name", name).put("in", "path").put("description", description)
                .put("required", true);
        parameter.putObject("schema").put("type", "string").put("uniqueItems", true);
        return parameter;
    }

    private static ObjectNode queryParameter(String name, String description, String type) {
        ObjectNode parameter = NODES.objectNode().put("name", name).put("in", "query").put("description", description);
        parameter.putObject("schema").put("type", type).put("uniqueItems", true);
        return parameter;
    }

    private static String capitalised(String word) {
        return word.isEmpty() ? word : Character.toUpperCase(word.charAt(0)) + word.substring(1);
    }

    /**
     * ObjectMeta, written here rather than taken from kube-apiserver's generated definitions (hundreds of lines of
     * schema and prose with their dependencies): the fields a custom resource's metadata has, each described in a
     * sentence, with the patch keys Kubernetes declares for its lists, so that {@code kubectl explain mjob.metadata}
     * lists them.
     */
    private static ObjectNode objectMeta() {
        ObjectNode meta = NODES.objectNode().put("description", "ObjectMeta is metadata that all persisted resources"
                + " must have, which includes all objects users must create.").put("type", "object");
        ObjectNode properties = meta.putObject("properties");
        properties.set("annotations", stringMap("Unstructured key value pairs that tools may set to store and read"
                + " arbitrary metadata; not queryable."));
        properties.set("creationTimestamp", dateTime("When the server created this object; set by the system."));
        properties.set("deletionGracePeriodSeconds", field("integer", "Seconds allowed for this object to terminate"
                + " gracefully before it is removed; set by the system with deletionTimestamp.").put("format", "int64"));
        properties.set("deletionTimestamp", dateTime("When this object will be deleted, once its finalizers are done;"
                + " set by the system when a graceful deletion is requested."));
        ObjectNode finalizers = field("array", "Entries that must be removed before the object is deleted from the"
                + " registry, each naming the component responsible for it.")
                .put("x-kubernetes-list-type", "set").put("x-kubernetes-patch-strategy", "merge");
        finalizers.putObject("items").put("type", "string");
        properties.set("finalizers", finalizers);
        properties.set("generateName", field("string", "A prefix the server uses to generate a unique name when"
                + " the name is not given."));
        properties.set("generation", field("integer", "A sequence number representing a specific generation of the"
                + " desired state; set by the system.").put("format", "int64"));
        properties.set("labels", stringMap("Map of string keys and values that can be used to organize and"
                + " categorize (scope and select) objects."));
        ObjectNode managedFields = field("array", "Which field manager manages which fields of the object; mostly"
                + " for internal housekeeping.").put("x-kubernetes-list-type", "atomic");
        managedFields.putObject("items").put("type", "object").put("x-kubernetes-preserve-unknown-fields", true);
        properties.set("managedFields", managedFields);
        properties.set("name", field("string", "Name must be unique within a namespace; it cannot be updated."));
        properties.set("namespace", field("string", "The namespace the name is unique within; empty for"
                + " cluster-scoped objects."));
        ObjectNode owners = field("array", "Objects this object depends on; when all of them are deleted, this"
                + " object is garbage collected.").put("x-kubernetes-list-type", "map").put("x-kubernetes-patch-merge-key", "uid")
                .put("x-kubernetes-patch-strategy", "merge");
        owners.putArray("x-kubernetes-list-map-keys").add("uid");
        owners.set("items", ownerReference());
        properties.set("ownerReferences", owners);
        properties.set("resourceVersion", field("string", "An opaque value that changes whenever the object does,"
                + " for optimistic concurrency, change detection and watches; set by the system."));
        properties.set("selfLink", field("string", "Deprecated; not set by the system."));
        properties.set("uid", field("string", "The unique identifier of this object in time and space; set by the"
                + " system."));
        return meta;
    }

    private static ObjectNode ownerReference() {
        ObjectNode owner = NODES.objectNode().put("description", "Enough information to identify an owning object,"
                + " which must be in the same namespace as the dependent, or cluster-scoped.").put("type", "object");
        owner.putArray("required").add("apiVersion").add("kind").add("name").add("uid");
        ObjectNode properties = owner.putObject("properties");
        properties.set("apiVersion", field("string", "API version of the referent."));
        properties.set("blockOwnerDeletion", field("boolean", "If true, the owner cannot be deleted from the"
                + " key-value store until this reference is removed (foreground deletion)."));
        properties.set("controller", field("boolean", "If true, this reference points to the managing controller."));
        properties.set("kind", field("string", "Kind of the referent."));
        properties.set("name", field("string", "Name of the referent."));
        properties.set("uid", field("string", "UID of the referent."));
        owner.put("x-kubernetes-map-type", "atomic");
        return owner;
    }

    /** ListMeta, hand-written for the reason {@link #objectMeta()} is. */
    private static ObjectNode listMeta() {
        ObjectNode meta = NODES.objectNode().put("description", "ListMeta describes metadata that synthetic"
                + " resources must have, including lists.").put("type", "object");
        ObjectNode properties = meta.putObject("properties");
        properties.set("continue", field("string", "Set when the list was limited: a token to fetch the next"
                + " page with the same query."));
        properties.set("remainingItemCount", field("integer", "How many items a limited list left out, when the"
                + " server can tell.").put("format", "int64"));
        properties.set("resourceVersion", field("string", "The version of the store the list was read at, from"
                + " which a watch can start."));
        properties.set("selfLink", field("string", "Deprecated; not set by the system."));
        return meta;
    }

    private static ObjectNode field(String type, String description) {
        return NODES.objectNode().put("description", description).put("type", type);
    }

    private static ObjectNode dateTime(String description) {
        return field("string", description).put("format", "date-time");
    }

    private static ObjectNode stringMap(String description) {
        ObjectNode map = field("object", description);
        map.putObject("additionalProperties").put("type", "string").put("default", "");
        return map;
    }
}
