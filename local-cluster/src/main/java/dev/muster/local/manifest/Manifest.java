package dev.muster.local.manifest;

import io.fabric8.kubernetes.api.model.HasMetadata;

import java.nio.file.Path;

/**
 * One object read from a file given to {@code ./muster local}.
 *
 * @param file     the file it came from
 * @param document 1-based position of its YAML document in the file
 * @param object   the object, with its namespace defaulted
 */
public record Manifest(Path file, int document, HasMetadata object) {

    /** {@code Kind namespace/name}, for messages. */
    public String describe() {
        String ns = object.getMetadata().getNamespace();
        return object.getKind() + " " + (ns == null ? "" : ns + "/") + object.getMetadata().getName();
    }
}
