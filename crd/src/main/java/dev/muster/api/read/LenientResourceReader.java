package dev.muster.api.read;

import com.fasterxml.jackson.core.JacksonException;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.databind.DeserializationContext;
import com.fasterxml.jackson.databind.JsonMappingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.deser.std.StdDeserializer;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.fabric8.kubernetes.api.model.ObjectMeta;
import io.fabric8.kubernetes.client.CustomResource;

import java.io.IOException;
import java.util.function.Supplier;

/**
 * Reads a custom resource part by part (metadata, spec, status) so that a part that does not fit the Java
 * types leaves that part {@code null} and a {@link ReadFailure} on the object, instead of an exception.
 *
 * <p>Why: fabric8's informers read every object of a list or watch event with one mapper call; one object
 * whose {@code spec.tasks[0].replicas} is {@code "three"}, or {@code 3000000000} (valid for a real API
 * server's {@code type: integer}, too large for a Java {@code int}), makes the list fail or the watch stop,
 * and with it every controller reading that kind. Reading leniently at the type keeps every reader (informers,
 * plain gets, clones) on one path, and no informer ever sees an exception for a malformed object of ours.
 *
 * @param <T> the custom resource
 */
public abstract class LenientResourceReader<T extends CustomResource<S, U> & LenientlyRead, S, U>
        extends StdDeserializer<T> {
    private final transient Supplier<T> create;
    private final Class<S> specType;
    private final Class<U> statusType;

    protected LenientResourceReader(Class<T> type, Supplier<T> create, Class<S> specType, Class<U> statusType) {
        super(type);
        this.create = create;
        this.specType = specType;
        this.statusType = statusType;
    }

    @Override
    public T deserialize(JsonParser parser, DeserializationContext context) throws IOException {
        JsonNode tree = parser.readValueAsTree();
        T resource = create.get();
        resource.setSpec(null);
        resource.setStatus(null);
        if (!(tree instanceof ObjectNode node)) {
            resource.readFailure(new ReadFailure("<root>", "expected an object, found " + tree.getNodeType()));
            return resource;
        }
        if (node.hasNonNull("apiVersion")) {
            resource.setApiVersion(node.get("apiVersion").asText());
        }
        if (node.hasNonNull("kind")) {
            resource.setKind(node.get("kind").asText());
        }
        resource.setMetadata(readMetadata(parser, context, resource, node.get("metadata")));
        resource.setSpec(readPart(parser, context, resource, node.get("spec"), "spec", specType));
        resource.setStatus(readPart(parser, context, resource, node.get("status"), "status", statusType));
        return resource;
    }

    private ObjectMeta readMetadata(JsonParser parser, DeserializationContext context, T resource, JsonNode node) {
        ObjectMeta meta = readPart(parser, context, resource, node, "metadata", ObjectMeta.class);
        if (meta != null || node == null || !node.isObject()) {
            return meta == null ? new ObjectMeta() : meta;
        }
        // Keep what addresses the object, so that it can still be reported.
        ObjectMeta bare = new ObjectMeta();
        bare.setName(text(node, "name"));
        bare.setNamespace(text(node, "namespace"));
        bare.setUid(text(node, "uid"));
        bare.setResourceVersion(text(node, "resourceVersion"));
        return bare;
    }

    private static String text(JsonNode node, String field) {
        JsonNode value = node.get(field);
        return value == null || !value.isValueNode() ? null : value.asText();
    }

    private <P> P readPart(JsonParser parser, DeserializationContext context, T resource, JsonNode node, String name,
                           Class<P> type) {
        if (node == null || node.isNull()) {
            return null;
        }
        try (JsonParser part = node.traverse(parser.getCodec())) {
            part.nextToken();
            return context.readValue(part, type);
        } catch (JacksonException e) {
            if (resource.readFailure().isEmpty()) {
                resource.readFailure(failure(name, e));
            }
            return null;
        } catch (IOException e) {
            throw new IllegalStateException("reading a tree already in memory cannot fail with I/O", e);
        }
    }

    private static ReadFailure failure(String root, JacksonException e) {
        StringBuilder path = new StringBuilder(root);
        if (e instanceof JsonMappingException mapping) {
            for (JsonMappingException.Reference ref : mapping.getPath()) {
                if (ref.getIndex() >= 0) {
                    path.append('[').append(ref.getIndex()).append(']');
                } else if (ref.getFieldName() != null) {
                    path.append('.').append(ref.getFieldName());
                }
            }
        }
        String message = e.getOriginalMessage();
        int newline = message.indexOf('\n');
        return new ReadFailure(path.toString(), newline < 0 ? message : message.substring(0, newline));
    }
}
