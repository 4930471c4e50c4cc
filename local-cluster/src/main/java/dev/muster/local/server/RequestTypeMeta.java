package dev.muster.local.server;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.muster.local.protocol.FieldError;
import dev.muster.local.protocol.Json;
import dev.muster.local.protocol.StatusResponses;
import io.fabric8.mockwebserver.http.MockResponse;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Optional;

/**
 * The {@code apiVersion} and {@code kind} of an object written with POST or PUT, as kube-apiserver decodes them:
 * against the kind its URL serves. A body may leave them out (the Python client sends none unless its caller set
 * them, and its own examples do not), and a built-in kind's body gets the URL's; a custom resource's is refused
 * (kube-apiserver decodes it as unstructured, from the body alone: "Object 'Kind' is missing in ..."). A body that
 * names another version is refused with 400, another kind with 400 for a built-in kind and 422 for a custom
 * resource, as kube-apiserver refuses them, where the stock dispatcher would store it under the URL's resource.
 *
 * @param body    the body to write instead, with the URL's apiVersion and kind; empty when it names both already
 * @param refusal the answer to a body that is refused; {@code null} when it is not
 */
record RequestTypeMeta(Optional<JsonNode> body, MockResponse refusal) {
    private static final JsonFactory JSON = new JsonFactory();
    private static final RequestTypeMeta AS_SENT = new RequestTypeMeta(Optional.empty(), null);

    /**
     * Checks a body written to {@code resource}'s URL. Only its top-level fields are read, so the common case, a body
     * that names both, costs one pass of the tokenizer and no tree.
     */
    static RequestTypeMeta of(byte[] bytes, ServedResources.Resource resource) {
        String apiVersion = null;
        String kind = null;
        String name = "";
        try (JsonParser parser = JSON.createParser(bytes)) {
            if (parser.nextToken() != JsonToken.START_OBJECT) {
                // Not an object: the handlers after this one answer it.
                return AS_SENT;
            }
            while (parser.nextToken() == JsonToken.FIELD_NAME) {
                String field = parser.currentName();
                JsonToken value = parser.nextToken();
                if (value == JsonToken.VALUE_STRING && field.equals("apiVersion")) {
                    apiVersion = parser.getText();
                } else if (value == JsonToken.VALUE_STRING && field.equals("kind")) {
                    kind = parser.getText();
                } else if (value == JsonToken.START_OBJECT && field.equals("metadata")) {
                    name = nameIn(parser, name);
                } else {
                    parser.skipChildren();
                }
            }
        } catch (IOException e) {
            return AS_SENT;
        }
        if (apiVersion != null && !apiVersion.isEmpty() && !apiVersion.equals(resource.apiVersion())) {
            // kube-apiserver's own words (https://github.com/kubernetes/apiserver/blob/master/pkg/endpoints/handlers/create.go).
            return refused(StatusResponses.badRequest("the API version in the data (" + apiVersion
                    + ") does not match the expected API version (" + resource.apiVersion() + ")"));
        }
        boolean builtIn = ServedResources.isBuiltIn(resource);
        boolean hasKind = kind != null && !kind.isEmpty();
        boolean hasVersion = apiVersion != null && !apiVersion.isEmpty();
        if (hasKind && !kind.equals(resource.kind())) {
            // A built-in kind fails kube-apiserver's decoding (400); a custom resource its type-meta validation (422).
            return refused(builtIn
                    ? StatusResponses.badRequest(kind + " in version \"" + resource.version() + "\" cannot be handled as a "
                    + resource.kind() + ": this URL takes " + resource.kind())
                    : StatusResponses.invalid(resource.group(), kind, name,
                    List.of(FieldError.invalid("kind", kind, "must be " + resource.kind()))));
        }
        if (hasVersion && hasKind) {
            return AS_SENT;
        }
        if (!builtIn) {
            // A custom resource is decoded as unstructured, which takes its type from the body alone.
            return refused(StatusResponses.badRequest("Object '" + (hasKind ? "apiVersion" : "Kind") + "' is missing in '"
                    + new String(bytes, StandardCharsets.UTF_8).strip() + "'"));
        }
        ObjectNode completed;
        try {
            completed = (ObjectNode) Json.parse(bytes);
        } catch (IOException e) {
            return AS_SENT;
        }
        completed.put("apiVersion", resource.apiVersion());
        completed.put("kind", resource.kind());
        return new RequestTypeMeta(Optional.of(completed), null);
    }

    /** Reads {@code metadata} up to its end, for the name a refusal names. */
    private static String nameIn(JsonParser parser, String otherwise) throws IOException {
        String name = otherwise;
        while (parser.nextToken() == JsonToken.FIELD_NAME) {
            String field = parser.currentName();
            if (parser.nextToken() == JsonToken.VALUE_STRING && field.equals("name")) {
                name = parser.getText();
            } else {
                parser.skipChildren();
            }
        }
        return name;
    }

    private static RequestTypeMeta refused(MockResponse answer) {
        return new RequestTypeMeta(Optional.empty(), answer);
    }
}
