package dev.muster.local.protocol;

import com.google.protobuf.ByteString;
import io.kubernetes.client.proto.Runtime;

/** Request bodies as client-go's protobuf serializer writes them: {@code k8s\0}, then a {@code runtime.Unknown}. */
public final class ProtobufBodies {
    private ProtobufBodies() {
    }

    /** The body of an object of this kind whose message is {@code raw}. */
    public static byte[] wire(String apiVersion, String kind, ByteString raw) {
        byte[] unknown = Runtime.Unknown.newBuilder()
                .setTypeMeta(Runtime.TypeMeta.newBuilder().setApiVersion(apiVersion).setKind(kind))
                .setRaw(raw).build().toByteArray();
        byte[] wire = new byte[unknown.length + 4];
        System.arraycopy(new byte[]{'k', '8', 's', 0}, 0, wire, 0, 4);
        System.arraycopy(unknown, 0, wire, 4, unknown.length);
        return wire;
    }
}
