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

    /** {@code Kind namespace/name}, for messages; {@code name} reads {@code prefix-(generated)} for a generateName. */
    public String describe() {
        String ns = object.getMetadata().getNamespace();
        return object.getKind() + " " + (ns == null ? "" : ns + "/")
                + name(object.getMetadata().getName(), object.getMetadata().getGenerateName());
    }

    /** The name for messages: {@code name}, else {@code generateName} with {@code (generated)} where the API server adds it. */
    static String name(String name, String generateName) {
        return name != null && !name.isEmpty() ? name : generateName + "(generated)";
    }
}
