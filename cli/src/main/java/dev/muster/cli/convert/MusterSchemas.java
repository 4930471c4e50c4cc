package dev.muster.cli.convert;

import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.dataformat.yaml.YAMLMapper;
import dev.muster.api.batch.v1alpha1.Job;
import dev.muster.api.scheduling.v1alpha1.PodGroup;
import dev.muster.api.scheduling.v1alpha1.Queue;
import dev.muster.local.admission.StructuralSchema;
import dev.muster.local.protocol.FieldError;
import io.fabric8.kubernetes.api.model.HasMetadata;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The schemas of Muster's kinds, as the generated CRDs in the {@code crd} jar declare them, applied by the API
 * server's own rules (the local cluster's admission): what a schema does not declare is what a Muster API server
 * would drop, so it is what the conversion could not carry; what a schema refuses is what a cluster would refuse,
 * in the API server's words. Reading the generated CRDs rather than a list of fields keeps this in step with the
 * API as it grows.
 */
public final class MusterSchemas {
    private static final YAMLMapper YAML = new YAMLMapper();
    private static final List<Class<? extends HasMetadata>> KINDS = List.of(Job.class, Queue.class, PodGroup.class);
    /** Compiling a schema's CEL rules is the costly part, and a file may hold many objects of a kind. */
    private static final Map<Class<? extends HasMetadata>, StructuralSchema> COMPILED = new ConcurrentHashMap<>();

    private MusterSchemas() {
    }

    /** Removes from {@code object} every field the kind's schema lacks; returns their paths. */
    static List<String> prune(ObjectNode object, Class<? extends HasMetadata> kind) {
        return schema(kind).pruneObject(object);
    }

    /**
     * Why a Muster API server would refuse to create {@code object}, one line per field as kube-apiserver words
     * it ({@code spec.policies[0].events: Invalid value: "string": spec.policies[0].events in body must be of type
     * array: "string"}); empty when it would accept it, or when the object is of no Muster kind.
     */
    public static List<String> refusals(ObjectNode object) {
        for (Class<? extends HasMetadata> kind : KINDS) {
            if (object.path("apiVersion").asText().equals(HasMetadata.getApiVersion(kind))
                    && object.path("kind").asText().equals(HasMetadata.getKind(kind))) {
                ObjectNode created = object.deepCopy();
                // Every Muster kind has the status subresource, so a create ignores the status it is sent.
                created.remove("status");
                StructuralSchema schema = schema(kind);
                schema.pruneObject(created);
                return schema.validateObject(created, null).stream().map(FieldError::toString).toList();
            }
        }
        return List.of();
    }

    private static StructuralSchema schema(Class<? extends HasMetadata> kind) {
        return COMPILED.computeIfAbsent(kind, MusterSchemas::compile);
    }

    private static StructuralSchema compile(Class<? extends HasMetadata> kind) {
        String resource = "/META-INF/fabric8/" + HasMetadata.getFullResourceName(kind) + "-v1.yml";
        try (InputStream in = kind.getResourceAsStream(resource)) {
            if (in == null) {
                throw new IllegalStateException(resource + " is not on the classpath: the crd module generates it at build time");
            }
            return new StructuralSchema(YAML.readTree(in).path("spec").path("versions").path(0).path("schema").path("openAPIV3Schema"));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
