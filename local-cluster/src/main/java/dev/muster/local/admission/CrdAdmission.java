package dev.muster.local.admission;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.muster.local.protocol.FieldError;
import dev.muster.local.protocol.Json;
import dev.muster.local.protocol.StatusResponses;
import io.fabric8.mockwebserver.dsl.HttpMethod;
import io.fabric8.mockwebserver.http.Buffer;
import io.fabric8.mockwebserver.http.MockResponse;
import io.fabric8.mockwebserver.http.RecordedRequest;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Function;

/**
 * The API server's admission of custom resources, driven by the CustomResourceDefinitions stored in the
 * emulator (so a CRD a user applies is enforced as well as Muster's own): before a create or an update of a
 * custom resource is written, unknown fields are pruned (and reported as the {@code fieldValidation} parameter
 * asks), the schema's defaults are filled in and the object is checked against its version's structural schema and CEL rules; a refused write
 * answers 422 {@code Invalid} with a cause per field.
 * A {@code /status} write is checked on its status part only. Objects of resources no stored CRD defines,
 * and versions without a schema, pass unchanged.
 *
 * <p>Schemas and rules are compiled once per stored CRD document: the cache is keyed by the identity of the
 * stored JSON, which every write of the CRD replaces.
 */
public final class CrdAdmission {
    private static final String STATUS = "status";

    private final Function<String, String> storedCrds;
    private final Map<String, CompiledCrd> compiled = new ConcurrentHashMap<>();

    /** @param storedCrds a CRD's stored JSON document by the CRD's name, or {@code null} if there is none */
    public CrdAdmission(Function<String, String> storedCrds) {
        this.storedCrds = storedCrds;
    }

    /**
     * Admits the create ({@code current} empty) or update ({@code current} the stored object) in
     * {@code request}: refuses it with a 422, or passes it to {@code write} with its body pruned.
     */
    public MockResponse admit(RecordedRequest request, Function<String, Optional<ObjectNode>> current,
                       Function<RecordedRequest, MockResponse> write) {
        Optional<Target> target = target(request.getPath());
        if (target.isEmpty()) {
            return write.apply(request);
        }
        JsonNode body;
        try {
            body = Json.parse(request.getBody().getBytes());
        } catch (IOException e) {
            return write.apply(request);
        }
        boolean create = request.method() == HttpMethod.POST;
        Optional<ObjectNode> old = create ? Optional.empty() : current.apply(request.getPath());
        if (!body.isObject() || !create && old.isEmpty()) {
            // Left to the stock handlers, which answer these as the API server does (400, 404).
            return write.apply(request);
        }
        ObjectNode admitted = ((ObjectNode) body).deepCopy();
        Target to = target.get();
        boolean status = to.path().status();
        if (!status) {
            keepStatusOfSubresource(to, admitted, old.orElse(null));
        }
        List<String> dropped = status ? to.schema().pruneStatus(admitted.get(STATUS)) : to.schema().pruneObject(admitted);
        FieldValidation validation = FieldValidation.of(request.getPath());
        Optional<MockResponse> refused = validation.refusal(to.crd().kind(), to.path().version(), dropped);
        if (refused.isPresent()) {
            return refused.get();
        }
        if (status) {
            to.schema().defaultStatus(admitted.get(STATUS));
        } else {
            to.schema().defaultObject(admitted);
        }
        List<FieldError> errors = status
                ? to.schema().validateStatus(admitted.get(STATUS), old.get().get(STATUS))
                : to.schema().validateObject(admitted, old.orElse(null));
        if (!errors.isEmpty()) {
            String name = to.path().name() != null ? to.path().name() : admitted.path("metadata").path("name").asText("");
            return StatusResponses.invalid(to.crd().group(), to.crd().kind(), name, errors);
        }
        return validation.warned(write.apply(withBody(request, admitted)), dropped);
    }

    /** Whether writes to {@code path} are admitted here: it names a resource of a stored CRD with a schema. */
    boolean governs(String path) {
        return target(path).isPresent();
    }

    /** As the stock handlers will write it: with a status subresource, only {@code /status} writes set the status. */
    private static void keepStatusOfSubresource(Target target, ObjectNode object, ObjectNode old) {
        if (target.crd().statusSubresource().getOrDefault(target.path().version(), false)) {
            if (old == null || old.get(STATUS) == null) {
                object.remove(STATUS);
            } else {
                object.set(STATUS, old.get(STATUS).deepCopy());
            }
        }
    }

    private Optional<Target> target(String path) {
        Optional<CustomResourcePath> parsed = CustomResourcePath.of(path);
        if (parsed.isEmpty()) {
            return Optional.empty();
        }
        String crdName = parsed.get().crdName();
        String document = storedCrds.apply(crdName);
        if (document == null) {
            return Optional.empty();
        }
        CompiledCrd crd = compiled.get(crdName);
        if (crd == null || crd.document() != document) {
            // Compiled again only when the CRD was written; the common path takes no lock.
            crd = compiled.compute(crdName, (name, known) ->
                    known != null && known.document() == document ? known : CompiledCrd.of(document));
        }
        StructuralSchema schema = crd.schemas().get(parsed.get().version());
        return schema == null ? Optional.empty() : Optional.of(new Target(parsed.get(), crd, schema));
    }

    private static RecordedRequest withBody(RecordedRequest request, JsonNode body) {
        return new RecordedRequest(request.getHttpVersion(), request.method(), request.getPath(), request.getHeaders(),
                new Buffer(body.toString().getBytes(StandardCharsets.UTF_8)));
    }

    private record Target(CustomResourcePath path, CompiledCrd crd, StructuralSchema schema) {
    }

    /** A stored CRD's schemas by version, compiled; {@code document} is the stored JSON they were compiled from. */
    private record CompiledCrd(String document, String group, String kind, Map<String, StructuralSchema> schemas,
                               Map<String, Boolean> statusSubresource) {
        static CompiledCrd of(String document) {
            JsonNode crd = Json.stored(document);
            Map<String, StructuralSchema> schemas = new HashMap<>();
            Map<String, Boolean> status = new HashMap<>();
            for (JsonNode version : crd.path("spec").path("versions")) {
                String name = version.path("name").asText();
                JsonNode schema = version.path("schema").path("openAPIV3Schema");
                if (schema.isObject()) {
                    schemas.put(name, new StructuralSchema(schema));
                }
                status.put(name, version.path("subresources").has(STATUS));
            }
            return new CompiledCrd(document, crd.path("spec").path("group").asText(),
                    crd.path("spec").path("names").path("kind").asText(), schemas, status);
        }
    }
}
