package dev.muster.local.protocol;

import com.fasterxml.jackson.databind.node.ObjectNode;
import com.google.protobuf.ByteString;
import com.google.protobuf.CodedOutputStream;
import com.google.protobuf.Descriptors.FieldDescriptor;
import com.google.protobuf.Descriptors.FileDescriptor;
import com.google.protobuf.Message;
import io.kubernetes.client.proto.IntStr;
import io.kubernetes.client.proto.Meta;
import io.kubernetes.client.proto.Resource;
import io.kubernetes.client.proto.V1;
import io.kubernetes.client.proto.V1Admissionregistration;
import io.kubernetes.client.proto.V1Apps;
import io.kubernetes.client.proto.V1Authorization;
import io.kubernetes.client.proto.V1Networking;
import io.kubernetes.client.proto.V1Rbac;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Objects;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Kubernetes protobuf bodies, built with the same generated messages client-go's are generated from, read into the
 * JSON Go would write for them.
 */
class KubernetesProtobufTest {
    /** What Go writes for its zero time.Time: an empty message (metav1.Time's Marshal), present as a field. */
    private static final Meta.Time ZERO_TIME = Meta.Time.getDefaultInstance();

    @Test
    void aNamespaceAsKubectlCreateSendsIt() {
        // Go writes every non-pointer field: the empty strings and the zero time too.
        Meta.ObjectMeta metadata = Meta.ObjectMeta.newBuilder().setName("team-a").setGenerateName("")
                .setNamespace("").setResourceVersion("").setGeneration(0).setCreationTimestamp(ZERO_TIME)
                .putLabels("owner", "ml").putLabels("empty", "").build();
        V1.Namespace namespace = V1.Namespace.newBuilder().setMetadata(metadata)
                .setSpec(V1.NamespaceSpec.newBuilder()).setStatus(V1.NamespaceStatus.newBuilder().setPhase("")).build();

        ObjectNode json = read("v1", "Namespace", namespace);

        assertThat(json.toString()).isEqualTo("{\"apiVersion\":\"v1\",\"kind\":\"Namespace\",\"metadata\":{\"name\":"
                + "\"team-a\",\"generation\":0,\"labels\":{\"owner\":\"ml\",\"empty\":\"\"}},\"spec\":{},\"status\":{}}");
    }

    @Test
    void zeroTimesSpelledOutAreLeftOutToo() {
        V1.Event event = V1.Event.newBuilder().setMetadata(Meta.ObjectMeta.newBuilder().setName("e"))
                .setFirstTimestamp(Meta.Time.newBuilder().setSeconds(-62135596800L).setNanos(0))
                .setEventTime(Meta.MicroTime.getDefaultInstance()).build();
        ObjectNode json = read("v1", "Event", event);
        assertThat(json.has("firstTimestamp")).isFalse();
        assertThat(json.has("eventTime")).isFalse();
    }

    @Test
    void aListsEmptyStringsStayAndAOneListStructStaysAnObject() {
        V1Rbac.Role role = V1Rbac.Role.newBuilder().setMetadata(Meta.ObjectMeta.newBuilder().setName("r"))
                .addRules(V1Rbac.PolicyRule.newBuilder().addApiGroups("").addResources("pods").addVerbs("get")).build();
        assertThat(read("rbac.authorization.k8s.io/v1", "Role", role).at("/rules/0/apiGroups").toString())
                .isEqualTo("[\"\"]");

        V1.Volume volume = V1.Volume.newBuilder().setName("info").setVolumeSource(V1.VolumeSource.newBuilder()
                .setProjected(V1.ProjectedVolumeSource.newBuilder().addSources(V1.VolumeProjection.newBuilder()
                        .setDownwardAPI(V1.DownwardAPIProjection.newBuilder().addItems(V1.DownwardAPIVolumeFile
                                .newBuilder().setPath("labels").setFieldRef(V1.ObjectFieldSelector.newBuilder()
                                        .setFieldPath("metadata.labels"))))))).build();
        V1.Pod pod = V1.Pod.newBuilder().setMetadata(Meta.ObjectMeta.newBuilder().setName("p"))
                .setSpec(V1.PodSpec.newBuilder().addVolumes(volume)).build();
        assertThat(read("v1", "Pod", pod).at("/spec/volumes/0/projected/sources/0/downwardAPI/items/0/path").asText())
                .isEqualTo("labels");
    }

    @Test
    void typesWhoseJsonIsNotTheirMessage() {
        Meta.Time created = Meta.Time.newBuilder().setSeconds(1_795_000_000L).setNanos(0).build();
        V1.Container container = V1.Container.newBuilder().setName("main").setImage("busybox")
                .setResources(V1.ResourceRequirements.newBuilder()
                        .putRequests("cpu", Resource.Quantity.newBuilder().setString("500m").build()))
                .setReadinessProbe(V1.Probe.newBuilder().setHandler(V1.ProbeHandler.newBuilder().setHttpGet(
                        V1.HTTPGetAction.newBuilder().setPort(IntStr.IntOrString.newBuilder().setType(1).setStrVal("http")))))
                .setLivenessProbe(V1.Probe.newBuilder().setHandler(V1.ProbeHandler.newBuilder().setTcpSocket(
                        V1.TCPSocketAction.newBuilder().setPort(IntStr.IntOrString.newBuilder().setType(0).setIntVal(8080)))))
                .build();
        V1Apps.Deployment deployment = V1Apps.Deployment.newBuilder()
                .setMetadata(Meta.ObjectMeta.newBuilder().setName("web").setCreationTimestamp(created))
                .setSpec(V1Apps.DeploymentSpec.newBuilder().setReplicas(0).setTemplate(V1.PodTemplateSpec.newBuilder()
                        .setSpec(V1.PodSpec.newBuilder().addContainers(container)))).build();

        ObjectNode json = read("apps/v1", "Deployment", deployment);

        assertThat(json.at("/metadata/creationTimestamp").asText()).isEqualTo("2026-11-18T11:06:40Z");
        assertThat(json.at("/spec/replicas").isInt()).as("a pointer set to zero stays").isTrue();
        assertThat(json.at("/spec/replicas").asInt()).isZero();
        ObjectNode main = (ObjectNode) json.at("/spec/template/spec/containers/0");
        assertThat(main.at("/resources/requests/cpu").asText()).isEqualTo("500m");
        assertThat(main.at("/readinessProbe/httpGet/port").asText()).as("a probe's handler is inline").isEqualTo("http");
        assertThat(main.at("/livenessProbe/tcpSocket/port").isNumber()).isTrue();
        assertThat(main.at("/livenessProbe/tcpSocket/port").asInt()).isEqualTo(8080);
    }

    @Test
    void embeddedStructsAreInlineAndNamedSlicesAreArrays() {
        V1.Container container = V1.Container.newBuilder().setName("main").addEnv(V1.EnvVar.newBuilder().setName("T")
                .setValueFrom(V1.EnvVarSource.newBuilder().setSecretKeyRef(V1.SecretKeySelector.newBuilder()
                        .setLocalObjectReference(V1.LocalObjectReference.newBuilder().setName("creds")).setKey("token"))))
                .build();
        V1.Volume volume = V1.Volume.newBuilder().setName("data").setVolumeSource(V1.VolumeSource.newBuilder()
                .setEmptyDir(V1.EmptyDirVolumeSource.newBuilder().setMedium("Memory"))).build();
        V1.Pod pod = V1.Pod.newBuilder().setMetadata(Meta.ObjectMeta.newBuilder().setName("p"))
                .setSpec(V1.PodSpec.newBuilder().addContainers(container).addVolumes(volume)
                        .addEphemeralContainers(V1.EphemeralContainer.newBuilder().setEphemeralContainerCommon(
                                V1.EphemeralContainerCommon.newBuilder().setName("debug").setImage("busybox"))))
                .build();

        ObjectNode json = read("v1", "Pod", pod);

        assertThat(json.at("/spec/containers/0/env/0/valueFrom/secretKeyRef").toString())
                .isEqualTo("{\"name\":\"creds\",\"key\":\"token\"}");
        assertThat(json.at("/spec/volumes/0").toString()).isEqualTo("{\"name\":\"data\",\"emptyDir\":{\"medium\":\"Memory\"}}");
        assertThat(json.at("/spec/ephemeralContainers/0/name").asText()).isEqualTo("debug");

        V1Authorization.SubjectAccessReview review = V1Authorization.SubjectAccessReview.newBuilder()
                .setSpec(V1Authorization.SubjectAccessReviewSpec.newBuilder().setUser("alice")
                        .putExtra("scopes", V1Authorization.ExtraValue.newBuilder().addItems("a").addItems("b").build()))
                .build();
        assertThat(read("authorization.k8s.io/v1", "SubjectAccessReview", review).at("/spec/extra").toString())
                .isEqualTo("{\"scopes\":[\"a\",\"b\"]}");
    }

    @Test
    void bytesMicroTimesAndRawJson() {
        V1.Secret secret = V1.Secret.newBuilder().setMetadata(Meta.ObjectMeta.newBuilder().setName("s"))
                .putData("token", ByteString.copyFrom("hunter2", StandardCharsets.UTF_8)).build();
        assertThat(read("v1", "Secret", secret).at("/data/token").asText()).isEqualTo("aHVudGVyMg==");

        V1.Event event = V1.Event.newBuilder().setMetadata(Meta.ObjectMeta.newBuilder().setName("e"))
                .setEventTime(Meta.MicroTime.newBuilder().setSeconds(1_795_000_000L).setNanos(123_456_000))
                .setFirstTimestamp(ZERO_TIME).build();
        ObjectNode json = read("v1", "Event", event);
        assertThat(json.at("/eventTime").asText()).isEqualTo("2026-11-18T11:06:40.123456Z");
        assertThat(json.has("firstTimestamp")).isFalse();

        Meta.DeleteOptions options = Meta.DeleteOptions.newBuilder().setPropagationPolicy("Foreground")
                .setGracePeriodSeconds(0).build();
        assertThat(read("v1", "DeleteOptions", options).toString()).isEqualTo(
                "{\"apiVersion\":\"v1\",\"kind\":\"DeleteOptions\",\"gracePeriodSeconds\":0,\"propagationPolicy\":\"Foreground\"}");

        V1Apps.ControllerRevision revision = V1Apps.ControllerRevision.newBuilder()
                .setMetadata(Meta.ObjectMeta.newBuilder().setName("r"))
                .setData(io.kubernetes.client.proto.Runtime.RawExtension.newBuilder().setRaw(ByteString.copyFromUtf8("{\"spec\":{\"a\":1}}"))).build();
        assertThat(read("apps/v1", "ControllerRevision", revision).at("/data/spec/a").asInt()).isEqualTo(1);
    }

    /**
     * Leases and events.k8s.io Events, which kube-scheduler writes in protobuf: encoded here by field number as
     * their generated.proto numbers them (the messages the reader declares itself would prove nothing).
     */
    @Test
    void leasesAndEventsV1ByTheirFieldNumbers() throws Exception {
        Meta.MicroTime renewed = Meta.MicroTime.newBuilder().setSeconds(1_795_000_000L).setNanos(5_000).build();
        ByteString.Output spec = ByteString.newOutput();
        CodedOutputStream out = CodedOutputStream.newInstance(spec);
        out.writeString(1, "scheduler-0");
        out.writeInt32(2, 15);
        out.writeMessage(4, renewed);
        out.writeInt32(5, 3);
        out.flush();
        ByteString.Output lease = ByteString.newOutput();
        out = CodedOutputStream.newInstance(lease);
        out.writeMessage(1, Meta.ObjectMeta.newBuilder().setName("kube-scheduler").setNamespace("kube-system").build());
        out.writeBytes(2, spec.toByteString());
        out.flush();

        ObjectNode json = readRaw("coordination.k8s.io/v1", "Lease", lease.toByteString());

        assertThat(json.toString()).isEqualTo("{\"apiVersion\":\"coordination.k8s.io/v1\",\"kind\":\"Lease\","
                + "\"metadata\":{\"name\":\"kube-scheduler\",\"namespace\":\"kube-system\"},\"spec\":{\"holderIdentity\":"
                + "\"scheduler-0\",\"leaseDurationSeconds\":15,\"renewTime\":\"2026-11-18T11:06:40.000005Z\","
                + "\"leaseTransitions\":3}}");

        ByteString.Output event = ByteString.newOutput();
        out = CodedOutputStream.newInstance(event);
        out.writeMessage(1, Meta.ObjectMeta.newBuilder().setName("p.1").build());
        out.writeMessage(2, renewed);
        out.writeString(4, "default-scheduler");
        out.writeString(6, "Binding");
        out.writeString(7, "Scheduled");
        out.writeMessage(8, V1.ObjectReference.newBuilder().setKind("Pod").setName("p").build());
        out.writeString(10, "Successfully assigned default/p to node-0");
        out.writeString(11, "Normal");
        out.flush();

        ObjectNode events = readRaw("events.k8s.io/v1", "Event", event.toByteString());

        assertThat(events.path("regarding").path("name").asText()).isEqualTo("p");
        assertThat(events.path("note").asText()).isEqualTo("Successfully assigned default/p to node-0");
        assertThat(events.path("reportingController").asText()).isEqualTo("default-scheduler");
        assertThat(events.path("eventTime").asText()).isEqualTo("2026-11-18T11:06:40.000005Z");
    }

    @Test
    void aKindWithoutAMessageIsUnsupportedAndAnotherBodyIsBad() {
        KubernetesProtobuf.Decoded custom = KubernetesProtobuf.read(wire("batch.muster.dev/v1alpha1", "Job",
                V1.Namespace.getDefaultInstance()));
        assertThat(custom.json()).isNull();
        assertThat(custom.unsupportedKind()).isTrue();
        assertThat(custom.problem()).isEqualTo("the local cluster reads no protobuf for Job in batch.muster.dev/v1alpha1;"
                + " send it as application/json");

        KubernetesProtobuf.Decoded json = KubernetesProtobuf.read("{\"kind\":\"Pod\"}".getBytes(StandardCharsets.UTF_8));
        assertThat(json.unsupportedKind()).isFalse();
        assertThat(json.problem()).startsWith("the body is not Kubernetes protobuf");
    }

    @Test
    void everyInlineFieldIsAFieldOfItsMessage() {
        List<FileDescriptor> files = List.of(V1.getDescriptor(), V1Networking.getDescriptor(),
                V1Admissionregistration.getDescriptor());
        for (String inline : KubernetesProtobuf.INLINE) {
            String message = inline.substring(0, inline.lastIndexOf('.'));
            String field = inline.substring(inline.lastIndexOf('.') + 1);
            FieldDescriptor found = files.stream().filter(file -> message.startsWith(file.getPackage() + "."))
                    .map(file -> file.findMessageTypeByName(message.substring(file.getPackage().length() + 1)))
                    .filter(Objects::nonNull).map(type -> type.findFieldByName(field)).filter(Objects::nonNull)
                    .findFirst().orElse(null);
            assertThat(found).as(inline).isNotNull();
            assertThat(found.getJavaType()).as(inline).isEqualTo(FieldDescriptor.JavaType.MESSAGE);
        }
    }

    @ParameterizedTest
    @CsvSource({"0, 0s", "1500000, 1.5ms", "999, 999ns", "2000, 2µs", "1000000000, 1s", "90000000000, 1m30s",
            "3723500000000, 1h2m3.5s", "3600000000000, 1h0m0s", "-1500000000, -1.5s"})
    void durationsAsGoWritesThem(long nanos, String written) {
        assertThat(KubernetesProtobuf.goDuration(nanos)).isEqualTo(written);
    }

    private static ObjectNode read(String apiVersion, String kind, Message object) {
        KubernetesProtobuf.Decoded decoded = KubernetesProtobuf.read(wire(apiVersion, kind, object));
        assertThat(decoded.problem()).isNull();
        return decoded.json();
    }

    private static ObjectNode readRaw(String apiVersion, String kind, ByteString raw) {
        KubernetesProtobuf.Decoded decoded = KubernetesProtobuf.read(wire(apiVersion, kind, raw));
        assertThat(decoded.problem()).isNull();
        return decoded.json();
    }

    private static byte[] wire(String apiVersion, String kind, Message object) {
        return ProtobufBodies.wire(apiVersion, kind, object.toByteString());
    }

    private static byte[] wire(String apiVersion, String kind, ByteString raw) {
        return ProtobufBodies.wire(apiVersion, kind, raw);
    }
}
