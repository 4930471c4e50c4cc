package dev.muster.local.protocol;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.google.protobuf.ByteString;
import com.google.protobuf.Descriptors.Descriptor;
import com.google.protobuf.Descriptors.FieldDescriptor;
import com.google.protobuf.Descriptors.FileDescriptor;
import com.google.protobuf.DynamicMessage;
import com.google.protobuf.InvalidProtocolBufferException;
import com.google.protobuf.Message;
import io.kubernetes.client.proto.Meta;
import io.kubernetes.client.proto.V1;
import io.kubernetes.client.proto.V1Admissionregistration;
import io.kubernetes.client.proto.V1Apps;
import io.kubernetes.client.proto.V1Authentication;
import io.kubernetes.client.proto.V1Authorization;
import io.kubernetes.client.proto.V1Autoscaling;
import io.kubernetes.client.proto.V1Batch;
import io.kubernetes.client.proto.V1Certificates;
import io.kubernetes.client.proto.V1Networking;
import io.kubernetes.client.proto.V1Policy;
import io.kubernetes.client.proto.V1Rbac;
import io.kubernetes.client.proto.V1Scheduling;
import io.kubernetes.client.proto.V1Storage;
import io.kubernetes.client.proto.V2Autoscaling;

import java.io.IOException;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.time.temporal.ChronoUnit;
import java.util.Arrays;
import java.util.Base64;
import java.util.HashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * Request bodies in Kubernetes protobuf ({@code application/vnd.kubernetes.protobuf}), which client-go's typed
 * clients post for built-in kinds (kubectl's {@code create namespace}, {@code create configmap}, {@code auth can-i},
 * {@code drain}'s evictions; kube-scheduler's bindings), read into the JSON the emulator stores.
 *
 * <p>The wire format is the magic {@code k8s\0}, then a {@code runtime.Unknown} whose {@code typeMeta} names the
 * kind and whose {@code raw} is the object in that kind's message of Kubernetes' {@code generated.proto}. The
 * messages are the official Java client's {@code client-java-proto} (and {@link LeaseAndEventMessages} for the two
 * kinds it lacks); their fields have the JSON names. The JSON is
 * what Go's encoding would write, with the types whose JSON is not their message's written as Go writes them
 * ({@code Time}, {@code MicroTime}, {@code Duration}, {@code Quantity}, {@code IntOrString}, {@code RawExtension},
 * {@code FieldsV1}). Go's protobuf encoding writes every non-pointer field, zero or not, where its JSON omits
 * empty ones: empty strings and zero times are left out here, since an empty {@code resourceVersion} or
 * {@code namespace} read as given would be a value; zero numbers and false flags are kept (Go reads them the same
 * either way, and a pointer set to zero, as {@code replicas: 0}, must stay).
 */
public final class KubernetesProtobuf {
    /** The content type of a Kubernetes protobuf body. */
    public static final String CONTENT_TYPE = "application/vnd.kubernetes.protobuf";
    private static final byte[] MAGIC = {'k', '8', 's', 0};
    private static final long ZERO_TIME_SECONDS = -62135596800L;
    private static final Descriptor UNKNOWN = io.kubernetes.client.proto.Runtime.Unknown.getDescriptor();
    private static final DateTimeFormatter MICRO = DateTimeFormatter.ofPattern("yyyy-MM-dd'T'HH:mm:ss.SSSSSSX")
            .withZone(ZoneOffset.UTC);
    /** Every message of the stable groups the emulator serves, by {@code apiVersion/Kind}: {@code v1/Pod}, {@code apps/v1/Deployment}. */
    private static final Map<String, Descriptor> KINDS = kinds(Map.ofEntries(
            Map.entry("v1", V1.getDescriptor()),
            Map.entry("apps/v1", V1Apps.getDescriptor()),
            Map.entry("batch/v1", V1Batch.getDescriptor()),
            Map.entry("autoscaling/v1", V1Autoscaling.getDescriptor()),
            Map.entry("autoscaling/v2", V2Autoscaling.getDescriptor()),
            Map.entry("policy/v1", V1Policy.getDescriptor()),
            Map.entry("rbac.authorization.k8s.io/v1", V1Rbac.getDescriptor()),
            Map.entry("scheduling.k8s.io/v1", V1Scheduling.getDescriptor()),
            Map.entry("storage.k8s.io/v1", V1Storage.getDescriptor()),
            Map.entry("networking.k8s.io/v1", V1Networking.getDescriptor()),
            Map.entry("authorization.k8s.io/v1", V1Authorization.getDescriptor()),
            Map.entry("authentication.k8s.io/v1", V1Authentication.getDescriptor()),
            Map.entry("admissionregistration.k8s.io/v1", V1Admissionregistration.getDescriptor()),
            Map.entry("certificates.k8s.io/v1", V1Certificates.getDescriptor()),
            Map.entry("coordination.k8s.io/v1", LeaseAndEventMessages.coordinationV1()),
            Map.entry("events.k8s.io/v1", LeaseAndEventMessages.eventsV1())));
    /**
     * The fields of embedded Go structs, which Go's JSON writes inline (their fields in the enclosing object) while
     * protobuf has them as a field of their own: every anonymous struct field of the served groups' types.go
     * (found by the struct fields with a type and no name).
     */
    static final Set<String> INLINE = Set.of(
            "k8s.io.api.core.v1.Volume.volumeSource",
            "k8s.io.api.core.v1.PersistentVolumeSpec.persistentVolumeSource",
            "k8s.io.api.core.v1.SecretProjection.localObjectReference",
            "k8s.io.api.core.v1.ConfigMapVolumeSource.localObjectReference",
            "k8s.io.api.core.v1.ConfigMapProjection.localObjectReference",
            "k8s.io.api.core.v1.ConfigMapKeySelector.localObjectReference",
            "k8s.io.api.core.v1.SecretKeySelector.localObjectReference",
            "k8s.io.api.core.v1.ConfigMapEnvSource.localObjectReference",
            "k8s.io.api.core.v1.SecretEnvSource.localObjectReference",
            "k8s.io.api.core.v1.Probe.handler",
            "k8s.io.api.core.v1.EphemeralContainer.ephemeralContainerCommon",
            "k8s.io.api.networking.v1.IngressRule.ingressRuleValue",
            "k8s.io.api.admissionregistration.v1.NamedRuleWithOperations.ruleWithOperations",
            "k8s.io.api.admissionregistration.v1.RuleWithOperations.rule");
    /** meta/v1's kinds, which every group version serves (a delete's {@code DeleteOptions}). */
    private static final String META = "meta/v1/";

    /**
     * A body read: the JSON object, or why it cannot be read.
     *
     * @param json    the object as JSON; null when refused
     * @param problem what is wrong with the body, for a 415 (a kind this reader has no message for) or a 400
     * @param unsupportedKind whether the problem is a kind without a message (415) rather than a malformed body
     */
    public record Decoded(ObjectNode json, String problem, boolean unsupportedKind) {
    }

    private KubernetesProtobuf() {
    }

    /** Whether a request's content type is Kubernetes protobuf. */
    public static boolean isProtobuf(String contentType) {
        return contentType != null && contentType.toLowerCase(Locale.ROOT).startsWith(CONTENT_TYPE);
    }

    /** Reads a Kubernetes protobuf body as the JSON object it stands for. */
    public static Decoded read(byte[] body) {
        if (body == null || body.length < MAGIC.length || !Arrays.equals(body, 0, MAGIC.length, MAGIC, 0, MAGIC.length)) {
            return refused("the body is not Kubernetes protobuf: it does not start with k8s\\0", false);
        }
        // Read through descriptors, as the object is: the artefact's generated classes predate protobuf 22, and
        // the runtime warns about (or, configured so, refuses) parsing with them.
        DynamicMessage unknown;
        try {
            unknown = DynamicMessage.parseFrom(UNKNOWN, Arrays.copyOfRange(body, MAGIC.length, body.length));
        } catch (InvalidProtocolBufferException e) {
            return refused("the body is not a Kubernetes protobuf runtime.Unknown: " + e.getMessage(), false);
        }
        Message typeMeta = (Message) unknown.getField(UNKNOWN.findFieldByName("typeMeta"));
        String apiVersion = stringField(typeMeta, "apiVersion");
        String kind = stringField(typeMeta, "kind");
        ByteString raw = (ByteString) unknown.getField(UNKNOWN.findFieldByName("raw"));
        Optional<Descriptor> message = messageOf(apiVersion, kind);
        if (message.isEmpty()) {
            return refused("the local cluster reads no protobuf for " + (kind.isEmpty() ? "an object without a kind" : kind)
                    + (apiVersion.isEmpty() ? "" : " in " + apiVersion) + "; send it as application/json", true);
        }
        DynamicMessage object;
        try {
            object = DynamicMessage.parseFrom(message.get(), raw);
        } catch (InvalidProtocolBufferException e) {
            return refused("the body is not a valid " + kind + " message: " + e.getMessage(), false);
        }
        ObjectNode json = JsonNodeFactory.instance.objectNode();
        json.put("apiVersion", apiVersion);
        json.put("kind", kind);
        json.setAll(object(object));
        return new Decoded(json, null, false);
    }

    private static Decoded refused(String problem, boolean unsupportedKind) {
        return new Decoded(null, problem, unsupportedKind);
    }

    private static Optional<Descriptor> messageOf(String apiVersion, String kind) {
        Descriptor found = KINDS.get(apiVersion + "/" + kind);
        return Optional.ofNullable(found != null ? found : KINDS.get(META + kind));
    }

    private static Map<String, Descriptor> kinds(Map<String, FileDescriptor> files) {
        Map<String, Descriptor> kinds = new HashMap<>();
        files.forEach((apiVersion, file) -> file.getMessageTypes()
                .forEach(message -> kinds.put(apiVersion + "/" + message.getName(), message)));
        Meta.getDescriptor().getMessageTypes().forEach(message -> kinds.put(META + message.getName(), message));
        return Map.copyOf(kinds);
    }

    private static ObjectNode object(Message message) {
        ObjectNode json = JsonNodeFactory.instance.objectNode();
        for (FieldDescriptor field : message.getDescriptorForType().getFields()) {
            if (field.isMapField()) {
                putMap(json, field, message);
            } else if (field.isRepeated()) {
                if (message.getRepeatedFieldCount(field) > 0) {
                    ArrayNode items = json.putArray(field.getJsonName());
                    for (int i = 0; i < message.getRepeatedFieldCount(field); i++) {
                        JsonNode item = value(field, message.getRepeatedField(field, i));
                        // A list's empty string is an element (apiGroups: [""]), unlike an empty field.
                        items.add(item != null ? item : field.getJavaType() == FieldDescriptor.JavaType.STRING
                                ? JsonNodeFactory.instance.textNode("") : JsonNodeFactory.instance.nullNode());
                    }
                }
            } else if (message.hasField(field)) {
                JsonNode value = value(field, message.getField(field));
                if (value instanceof ObjectNode embedded && INLINE.contains(field.getFullName())) {
                    json.setAll(embedded);
                } else if (value != null) {
                    json.set(field.getJsonName(), value);
                }
            }
        }
        return json;
    }

    private static void putMap(ObjectNode json, FieldDescriptor field, Message message) {
        int count = message.getRepeatedFieldCount(field);
        if (count == 0) {
            return;
        }
        FieldDescriptor keyField = field.getMessageType().findFieldByName("key");
        FieldDescriptor valueField = field.getMessageType().findFieldByName("value");
        ObjectNode map = json.putObject(field.getJsonName());
        for (int i = 0; i < count; i++) {
            Message entry = (Message) message.getRepeatedField(field, i);
            JsonNode value = value(valueField, entry.getField(valueField));
            // A map's empty string is a value ("a": ""), unlike an empty field.
            map.set(String.valueOf(entry.getField(keyField)),
                    value != null ? value : valueField.getJavaType() == FieldDescriptor.JavaType.STRING
                            ? JsonNodeFactory.instance.textNode("") : JsonNodeFactory.instance.nullNode());
        }
    }

    /** A field's value as Go writes it in JSON; null for one Go's JSON would leave out (an empty string, a zero time). */
    private static JsonNode value(FieldDescriptor field, Object value) {
        JsonNodeFactory nodes = JsonNodeFactory.instance;
        return switch (field.getJavaType()) {
            case STRING -> ((String) value).isEmpty() ? null : nodes.textNode((String) value);
            case INT -> nodes.numberNode((Integer) value);
            case LONG -> nodes.numberNode((Long) value);
            case BOOLEAN -> nodes.booleanNode((Boolean) value);
            case DOUBLE -> nodes.numberNode((Double) value);
            case FLOAT -> nodes.numberNode((Float) value);
            case BYTE_STRING -> nodes.textNode(Base64.getEncoder().encodeToString(((ByteString) value).toByteArray()));
            case ENUM -> nodes.textNode(value.toString());
            case MESSAGE -> message((Message) value);
        };
    }

    private static JsonNode message(Message message) {
        JsonNodeFactory nodes = JsonNodeFactory.instance;
        Descriptor type = message.getDescriptorForType();
        return switch (type.getFullName()) {
            case "k8s.io.apimachinery.pkg.apis.meta.v1.Time" -> time(message, false);
            case "k8s.io.apimachinery.pkg.apis.meta.v1.MicroTime" -> time(message, true);
            case "k8s.io.apimachinery.pkg.apis.meta.v1.Duration" ->
                    nodes.textNode(goDuration(longField(message, "duration")));
            case "k8s.io.apimachinery.pkg.api.resource.Quantity" -> nodes.textNode(stringField(message, "string"));
            case "k8s.io.apimachinery.pkg.util.intstr.IntOrString" -> longField(message, "type") == 0
                    ? nodes.numberNode(longField(message, "intVal")) : nodes.textNode(stringField(message, "strVal"));
            case "k8s.io.apimachinery.pkg.runtime.RawExtension" -> rawJson(message, "raw");
            case "k8s.io.apimachinery.pkg.apis.meta.v1.FieldsV1" -> rawJson(message, "Raw");
            default -> SLICES.contains(type.getFullName()) ? items(message) : object(message);
        };
    }

    /**
     * The messages that stand for a named Go slice type: protobuf wraps its elements in a message of one repeated
     * field, {@code items}; JSON writes the array. Named, since a struct of one {@code items} list
     * (DownwardAPIProjection) has the same shape.
     */
    private static final Set<String> SLICES = Set.of("k8s.io.api.authentication.v1.ExtraValue",
            "k8s.io.api.authorization.v1.ExtraValue", "k8s.io.api.certificates.v1.ExtraValue",
            "k8s.io.apimachinery.pkg.apis.meta.v1.Verbs");

    private static JsonNode items(Message message) {
        FieldDescriptor field = message.getDescriptorForType().getFields().get(0);
        ArrayNode items = JsonNodeFactory.instance.arrayNode();
        for (int i = 0; i < message.getRepeatedFieldCount(field); i++) {
            JsonNode item = value(field, message.getRepeatedField(field, i));
            items.add(item == null ? JsonNodeFactory.instance.textNode("") : item);
        }
        return items;
    }

    /** A Time (RFC 3339 in seconds) or MicroTime (six digits of fraction); null for Go's zero time. */
    private static JsonNode time(Message message, boolean micro) {
        long seconds = longField(message, "seconds");
        long nanos = longField(message, "nanos");
        // Go writes its zero time as an empty message (its seconds before the epoch only where spelled out).
        boolean empty = message.getAllFields().isEmpty();
        if (empty || seconds == ZERO_TIME_SECONDS && nanos == 0) {
            return null;
        }
        Instant instant = Instant.ofEpochSecond(seconds, nanos);
        return JsonNodeFactory.instance.textNode(micro ? MICRO.format(instant) : instant.truncatedTo(ChronoUnit.SECONDS).toString());
    }

    private static JsonNode rawJson(Message message, String field) {
        ByteString raw = (ByteString) message.getField(message.getDescriptorForType().findFieldByName(field));
        if (raw.isEmpty()) {
            return null;
        }
        try {
            return Json.parse(raw.toByteArray());
        } catch (IOException e) {
            return JsonNodeFactory.instance.textNode(raw.toStringUtf8());
        }
    }

    /** A duration in nanoseconds as Go's {@code time.Duration.String} writes it: {@code 1h2m3.5s}, {@code 1.5ms}, {@code 0s}. */
    static String goDuration(long nanos) {
        if (nanos == 0) {
            return "0s";
        }
        String sign = nanos < 0 ? "-" : "";
        long n = Math.abs(nanos);
        if (n < 1_000_000_000L) {
            long unit = n < 1_000L ? 1L : n < 1_000_000L ? 1_000L : 1_000_000L;
            String name = unit == 1L ? "ns" : unit == 1_000L ? "µs" : "ms";
            return sign + fraction(n, unit) + name;
        }
        long hours = n / 3_600_000_000_000L;
        long minutes = n / 60_000_000_000L % 60;
        String seconds = fraction(n % 60_000_000_000L, 1_000_000_000L) + "s";
        return sign + (hours > 0 ? hours + "h" + minutes + "m" : minutes > 0 ? minutes + "m" : "") + seconds;
    }

    /** {@code value / unit} with the fraction's trailing zeros dropped, as Go writes it. */
    private static String fraction(long value, long unit) {
        long whole = value / unit;
        long rest = value % unit;
        if (rest == 0) {
            return String.valueOf(whole);
        }
        String digits = String.valueOf(unit + rest).substring(1).replaceAll("0+$", "");
        return whole + "." + digits;
    }

    private static long longField(Message message, String name) {
        Object value = message.getField(message.getDescriptorForType().findFieldByName(name));
        return ((Number) value).longValue();
    }

    private static String stringField(Message message, String name) {
        return (String) message.getField(message.getDescriptorForType().findFieldByName(name));
    }
}
