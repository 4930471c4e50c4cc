package dev.muster.local;

import com.google.protobuf.ByteString;
import com.google.protobuf.CodedOutputStream;
import dev.muster.local.protocol.ProtobufBodies;
import io.fabric8.kubernetes.api.model.Event;
import io.fabric8.kubernetes.api.model.NamespaceBuilder;
import io.kubernetes.client.proto.Meta;
import io.kubernetes.client.proto.V1;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Writes in Kubernetes protobuf over HTTP, as kube-scheduler's client sends them: its leader election's Lease, its
 * events.k8s.io Event (which {@code kubectl describe} then lists as a core one), a binding; and a kind the local
 * cluster reads no protobuf for.
 */
@Tag("emulator")
class ProtobufRequestsTest extends ApiOnlyClusterTests {
    private static final String NS = "proto";
    private static final HttpClient HTTP = HttpClient.newHttpClient();

    @BeforeAll
    static void namespace() {
        client.namespaces().resource(new NamespaceBuilder().withNewMetadata().withName(NS).endMetadata().build()).create();
    }

    @Test
    void aSchedulersLeaseEventAndBinding() throws Exception {
        ByteString.Output spec = ByteString.newOutput();
        CodedOutputStream out = CodedOutputStream.newInstance(spec);
        out.writeString(1, "scheduler-0");
        out.writeInt32(2, 15);
        out.writeMessage(4, Meta.MicroTime.newBuilder().setSeconds(1_795_000_000L).setNanos(5_000).build());
        out.flush();
        ByteString.Output lease = ByteString.newOutput();
        out = CodedOutputStream.newInstance(lease);
        out.writeMessage(1, Meta.ObjectMeta.newBuilder().setName("kube-scheduler").build());
        out.writeBytes(2, spec.toByteString());
        out.flush();

        HttpResponse<String> leaseCreated = post("/apis/coordination.k8s.io/v1/namespaces/" + NS + "/leases",
                ProtobufBodies.wire("coordination.k8s.io/v1", "Lease", lease.toByteString()));

        assertThat(leaseCreated.statusCode()).as(leaseCreated.body()).isEqualTo(201);
        var stored = client.leases().inNamespace(NS).withName("kube-scheduler").get();
        assertThat(stored.getSpec().getHolderIdentity()).isEqualTo("scheduler-0");
        assertThat(stored.getSpec().getRenewTime().toInstant()).isEqualTo(java.time.Instant.parse("2026-11-18T11:06:40.000005Z"));

        client.pods().inNamespace(NS).resource(Fixtures.pod("p")).create();
        V1.Binding binding = V1.Binding.newBuilder().setMetadata(Meta.ObjectMeta.newBuilder().setName("p").setNamespace(NS))
                .setTarget(V1.ObjectReference.newBuilder().setKind("Node").setName("node-0")).build();
        HttpResponse<String> bound = post("/api/v1/namespaces/" + NS + "/pods/p/binding",
                ProtobufBodies.wire("v1", "Binding", binding.toByteString()));
        assertThat(bound.statusCode()).as(bound.body()).isEqualTo(201);
        assertThat(client.pods().inNamespace(NS).withName("p").get().getSpec().getNodeName()).isEqualTo("node-0");

        ByteString.Output event = ByteString.newOutput();
        out = CodedOutputStream.newInstance(event);
        out.writeMessage(1, Meta.ObjectMeta.newBuilder().setName("p.scheduled").build());
        out.writeMessage(2, Meta.MicroTime.newBuilder().setSeconds(1_795_000_000L).build());
        out.writeString(4, "default-scheduler");
        out.writeString(5, "default-scheduler-node-0");
        out.writeString(6, "Binding");
        out.writeString(7, "Scheduled");
        out.writeMessage(8, V1.ObjectReference.newBuilder().setKind("Pod").setName("p").setNamespace(NS).build());
        out.writeString(10, "Successfully assigned proto/p to node-0");
        out.writeString(11, "Normal");
        // What Go writes for the fields it always writes: an empty source, zero times (empty messages), count 0.
        out.writeMessage(12, V1.EventSource.getDefaultInstance());
        out.writeMessage(13, Meta.Time.getDefaultInstance());
        out.writeMessage(14, Meta.Time.getDefaultInstance());
        out.writeInt32(15, 0);
        out.flush();

        HttpResponse<String> recorded = post("/apis/events.k8s.io/v1/namespaces/" + NS + "/events",
                ProtobufBodies.wire("events.k8s.io/v1", "Event", event.toByteString()));

        assertThat(recorded.statusCode()).as(recorded.body()).isEqualTo(201);
        List<Event> described = client.v1().events().inNamespace(NS).withField("involvedObject.name", "p").list().getItems();
        assertThat(described).singleElement().satisfies(e -> {
            assertThat(e.getReason()).isEqualTo("Scheduled");
            assertThat(e.getMessage()).isEqualTo("Successfully assigned proto/p to node-0");
            assertThat(e.getFirstTimestamp()).as("Go's zero time is no time").isNull();
            assertThat(e.getLastTimestamp()).isNull();
        });
    }

    @Test
    void aKindWithoutMessagesIsRefusedWith415() throws Exception {
        HttpResponse<String> refused = post("/apis/batch.muster.dev/v1alpha1/namespaces/" + NS + "/jobs",
                ProtobufBodies.wire("batch.muster.dev/v1alpha1", "Job", ByteString.EMPTY));

        assertThat(refused.statusCode()).isEqualTo(415);
        assertThat(refused.body()).contains("the local cluster reads no protobuf for Job in batch.muster.dev/v1alpha1");
    }

    private static HttpResponse<String> post(String path, byte[] body) throws IOException, InterruptedException {
        HttpRequest request = HttpRequest.newBuilder(URI.create(client.getMasterUrl().toString().replaceAll("/$", "") + path))
                .header("Content-Type", "application/vnd.kubernetes.protobuf")
                .header("Accept", "application/vnd.kubernetes.protobuf, */*")
                .POST(HttpRequest.BodyPublishers.ofByteArray(body)).build();
        return HTTP.send(request, HttpResponse.BodyHandlers.ofString());
    }
}
