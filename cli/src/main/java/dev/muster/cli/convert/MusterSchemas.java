package dev.muster.cli.convert;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.dataformat.yaml.YAMLMapper;
import dev.muster.local.admission.SchemaPruner;
import io.fabric8.kubernetes.api.model.HasMetadata;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.List;

/**
 * Fits a converted object to the schema of its Muster kind, as the generated CRD in the {@code crd} jar
 * declares it, by the API server's own pruning rules: what the schema does not declare is what a Muster API
 * server would drop, so it is what the conversion could not carry. Reading the generated CRD rather than a
 * list of fields keeps this in step with the API as it grows.
 */
final class MusterSchemas {
    private static final YAMLMapper YAML = new YAMLMapper();

    private MusterSchemas() {
    }

    /** Removes from {@code object} every field the kind's schema lacks; returns their paths. */
    static List<String> prune(ObjectNode object, Class<? extends HasMetadata> kind) {
        return SchemaPruner.pruneObject(object, schema(kind));
    }

    private static JsonNode schema(Class<? extends HasMetadata> kind) {
        String resource = "/META-INF/fabric8/" + HasMetadata.getFullResourceName(kind) + "-v1.yml";
        try (InputStream in = kind.getResourceAsStream(resource)) {
            if (in == null) {
                throw new IllegalStateException(resource + " is not on the classpath: the crd module generates it at build time");
            }
            return YAML.readTree(in).path("spec").path("versions").path(0).path("schema").path("openAPIV3Schema");
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
