package dev.muster.local.protocol;

import com.google.protobuf.DescriptorProtos.DescriptorProto;
import com.google.protobuf.DescriptorProtos.FieldDescriptorProto;
import com.google.protobuf.DescriptorProtos.FileDescriptorProto;
import com.google.protobuf.Descriptors.DescriptorValidationException;
import com.google.protobuf.Descriptors.FileDescriptor;
import io.kubernetes.client.proto.Meta;
import io.kubernetes.client.proto.V1;

/**
 * The protobuf messages of {@code coordination.k8s.io/v1} Leases and {@code events.k8s.io/v1} Events, which the
 * official Java client's {@code client-java-proto} does not ship, while client-go's components that speak protobuf
 * (kube-scheduler and the schedulers built on it) write both: leader election and their Events. Declared here with
 * the field names and numbers of Kubernetes'
 * <a href="https://github.com/kubernetes/api/blob/master/coordination/v1/generated.proto">coordination/v1</a> and
 * <a href="https://github.com/kubernetes/api/blob/master/events/v1/generated.proto">events/v1</a> generated.proto,
 * on the shipped meta and core messages.
 */
final class LeaseAndEventMessages {
    private static final String META = ".k8s.io.apimachinery.pkg.apis.meta.v1.";
    private static final String CORE = ".k8s.io.api.core.v1.";

    private LeaseAndEventMessages() {
    }

    /** {@code k8s.io.api.coordination.v1}: Lease and LeaseSpec. */
    static FileDescriptor coordinationV1() {
        return file("k8s.io/api/coordination/v1/generated.proto", "k8s.io.api.coordination.v1",
                message("Lease", message(META + "ObjectMeta", "metadata", 1), message(".k8s.io.api.coordination.v1.LeaseSpec", "spec", 2)),
                message("LeaseSpec", string("holderIdentity", 1), int32("leaseDurationSeconds", 2),
                        message(META + "MicroTime", "acquireTime", 3), message(META + "MicroTime", "renewTime", 4),
                        int32("leaseTransitions", 5), string("strategy", 6), string("preferredHolder", 7)));
    }

    /** {@code k8s.io.api.events.v1}: Event and EventSeries. */
    static FileDescriptor eventsV1() {
        return file("k8s.io/api/events/v1/generated.proto", "k8s.io.api.events.v1",
                message("Event", message(META + "ObjectMeta", "metadata", 1), message(META + "MicroTime", "eventTime", 2),
                        message(".k8s.io.api.events.v1.EventSeries", "series", 3), string("reportingController", 4),
                        string("reportingInstance", 5), string("action", 6), string("reason", 7),
                        message(CORE + "ObjectReference", "regarding", 8), message(CORE + "ObjectReference", "related", 9),
                        string("note", 10), string("type", 11), message(CORE + "EventSource", "deprecatedSource", 12),
                        message(META + "Time", "deprecatedFirstTimestamp", 13),
                        message(META + "Time", "deprecatedLastTimestamp", 14), int32("deprecatedCount", 15)),
                message("EventSeries", int32("count", 1), message(META + "MicroTime", "lastObservedTime", 2)));
    }

    private static FileDescriptor file(String name, String protoPackage, DescriptorProto... messages) {
        FileDescriptorProto.Builder file = FileDescriptorProto.newBuilder().setName(name).setPackage(protoPackage)
                .setSyntax("proto2").addDependency(Meta.getDescriptor().getName()).addDependency(V1.getDescriptor().getName());
        for (DescriptorProto message : messages) {
            file.addMessageType(message);
        }
        try {
            return FileDescriptor.buildFrom(file.build(), new FileDescriptor[]{Meta.getDescriptor(), V1.getDescriptor()});
        } catch (DescriptorValidationException e) {
            throw new IllegalStateException("the " + protoPackage + " messages do not build", e);
        }
    }

    private static DescriptorProto message(String name, FieldDescriptorProto... fields) {
        DescriptorProto.Builder message = DescriptorProto.newBuilder().setName(name);
        for (FieldDescriptorProto field : fields) {
            message.addField(field);
        }
        return message.build();
    }

    private static FieldDescriptorProto string(String name, int number) {
        return field(name, number, FieldDescriptorProto.Type.TYPE_STRING).build();
    }

    private static FieldDescriptorProto int32(String name, int number) {
        return field(name, number, FieldDescriptorProto.Type.TYPE_INT32).build();
    }

    private static FieldDescriptorProto message(String type, String name, int number) {
        return field(name, number, FieldDescriptorProto.Type.TYPE_MESSAGE).setTypeName(type).build();
    }

    private static FieldDescriptorProto.Builder field(String name, int number, FieldDescriptorProto.Type type) {
        return FieldDescriptorProto.newBuilder().setName(name).setJsonName(name).setNumber(number).setType(type)
                .setLabel(FieldDescriptorProto.Label.LABEL_OPTIONAL);
    }
}
