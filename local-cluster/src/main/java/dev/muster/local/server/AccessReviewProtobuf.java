package dev.muster.local.server;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.google.protobuf.CodedInputStream;
import com.google.protobuf.WireFormat;

import java.io.IOException;
import java.util.Arrays;
import java.util.Map;

/**
 * Reads the review requests kubectl sends as Kubernetes protobuf ({@code application/vnd.kubernetes.protobuf}:
 * the magic {@code k8s\0}, then a {@code runtime.Unknown} whose {@code raw} is the object) into the JSON the
 * review APIs answer from. Built-in typed clients of client-go post protobuf; kube-apiserver's answer may be
 * JSON, which they accept. Only the fields the reviews read are decoded, by their numbers in the Kubernetes
 * {@code generated.proto} files; the others (metadata, extra) are skipped. Hand-written since the generated
 * Kubernetes protobuf classes are not on Maven Central; the wire format is protobuf-java's.
 */
final class AccessReviewProtobuf {
    /** The content type of a Kubernetes protobuf body. */
    static final String CONTENT_TYPE = "application/vnd.kubernetes.protobuf";
    private static final byte[] MAGIC = {'k', '8', 's', 0};
    private static final int UNKNOWN_TYPE_META = 1;
    private static final int UNKNOWN_RAW = 2;
    private static final int TYPE_META_API_VERSION = 1;
    private static final int TYPE_META_KIND = 2;

    /** A message's fields this reader keeps: number → JSON name and how to read it. */
    private record Field(String name, Kind kind, Map<Integer, Field> fields) {
        static Field string(String name) {
            return new Field(name, Kind.STRING, Map.of());
        }

        static Field strings(String name) {
            return new Field(name, Kind.STRINGS, Map.of());
        }

        static Field message(String name, Map<Integer, Field> fields) {
            return new Field(name, Kind.MESSAGE, fields);
        }
    }

    private enum Kind { STRING, STRINGS, MESSAGE }

    private static final Map<Integer, Field> RESOURCE_ATTRIBUTES = Map.of(1, Field.string("namespace"),
            2, Field.string("verb"), 3, Field.string("group"), 4, Field.string("version"),
            5, Field.string("resource"), 6, Field.string("subresource"), 7, Field.string("name"));
    private static final Map<Integer, Field> NON_RESOURCE_ATTRIBUTES = Map.of(1, Field.string("path"),
            2, Field.string("verb"));
    /** SubjectAccessReviewSpec; a SelfSubjectAccessReviewSpec has only its first two fields. */
    private static final Map<Integer, Field> ACCESS_SPEC = Map.of(
            1, Field.message("resourceAttributes", RESOURCE_ATTRIBUTES),
            2, Field.message("nonResourceAttributes", NON_RESOURCE_ATTRIBUTES),
            3, Field.string("user"), 4, Field.strings("groups"), 6, Field.string("uid"));
    private static final Map<Integer, Field> TOKEN_SPEC = Map.of(1, Field.string("token"), 2, Field.strings("audiences"));

    private AccessReviewProtobuf() {
    }

    /** Whether a body of {@code contentType} is Kubernetes protobuf. */
    static boolean isProtobuf(String contentType) {
        return contentType != null && contentType.startsWith(CONTENT_TYPE);
    }

    /**
     * The review in {@code body} as JSON ({@code apiVersion}, {@code kind}, {@code spec}).
     *
     * @throws IOException if it is not a Kubernetes protobuf object
     */
    static JsonNode read(byte[] body) throws IOException {
        if (body.length < MAGIC.length || !Arrays.equals(Arrays.copyOf(body, MAGIC.length), MAGIC)) {
            throw new IOException("not a Kubernetes protobuf body (no k8s\\0 prefix)");
        }
        CodedInputStream unknown = CodedInputStream.newInstance(body, MAGIC.length, body.length - MAGIC.length);
        ObjectNode review = JsonNodeFactory.instance.objectNode();
        byte[] raw = null;
        for (int tag = unknown.readTag(); tag != 0; tag = unknown.readTag()) {
            switch (WireFormat.getTagFieldNumber(tag)) {
                case UNKNOWN_TYPE_META -> {
                    CodedInputStream typeMeta = unknown.readBytes().newCodedInput();
                    for (int t = typeMeta.readTag(); t != 0; t = typeMeta.readTag()) {
                        switch (WireFormat.getTagFieldNumber(t)) {
                            case TYPE_META_API_VERSION -> review.put("apiVersion", typeMeta.readStringRequireUtf8());
                            case TYPE_META_KIND -> review.put("kind", typeMeta.readStringRequireUtf8());
                            default -> typeMeta.skipField(t);
                        }
                    }
                }
                case UNKNOWN_RAW -> raw = unknown.readByteArray();
                default -> unknown.skipField(tag);
            }
        }
        if (raw == null) {
            throw new IOException("the protobuf body holds no object");
        }
        // Every review has metadata as field 1 and spec as field 2, but for SelfSubjectReview, which has no spec.
        Map<Integer, Field> spec = "TokenReview".equals(review.path("kind").asText()) ? TOKEN_SPEC : ACCESS_SPEC;
        ObjectNode object = read(CodedInputStream.newInstance(raw),
                "SelfSubjectReview".equals(review.path("kind").asText()) ? Map.of() : Map.of(2, Field.message("spec", spec)));
        object.fields().forEachRemaining(field -> review.set(field.getKey(), field.getValue()));
        return review;
    }

    private static ObjectNode read(CodedInputStream in, Map<Integer, Field> fields) throws IOException {
        ObjectNode node = JsonNodeFactory.instance.objectNode();
        for (int tag = in.readTag(); tag != 0; tag = in.readTag()) {
            Field field = fields.get(WireFormat.getTagFieldNumber(tag));
            if (field == null || WireFormat.getTagWireType(tag) != WireFormat.WIRETYPE_LENGTH_DELIMITED) {
                in.skipField(tag);
                continue;
            }
            switch (field.kind()) {
                case STRING -> node.put(field.name(), in.readStringRequireUtf8());
                case STRINGS -> node.withArrayProperty(field.name()).add(in.readStringRequireUtf8());
                case MESSAGE -> node.set(field.name(), read(in.readBytes().newCodedInput(), field.fields()));
            }
        }
        return node;
    }
}
