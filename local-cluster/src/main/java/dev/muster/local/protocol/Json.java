package dev.muster.local.protocol;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;

import java.io.IOException;
import java.nio.charset.StandardCharsets;

/**
 * Jackson trees of request bodies and stored objects, which the emulator edits as documents: typed models
 * would drop fields they do not know. (fabric8's static mappers are deprecated.)
 */
public final class Json {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final ObjectMapper YAML = new ObjectMapper(new YAMLFactory());

    private Json() {
    }

    /** Parses a request body. */
    public static JsonNode parse(byte[] json) throws IOException {
        return JSON.readTree(json);
    }

    /** Parses a request body in YAML, of which JSON is a subset. */
    public static JsonNode parseYaml(String yaml) throws IOException {
        return YAML.readTree(yaml);
    }

    /** Parses a document the emulator produced itself, which is JSON unless something is badly wrong. */
    public static ObjectNode stored(byte[] json) {
        try {
            return (ObjectNode) JSON.readTree(json);
        } catch (IOException | ClassCastException e) {
            throw new IllegalStateException("the emulator produced a document that is not a JSON object", e);
        }
    }

    /** Parses a document the emulator produced itself, given as a string. */
    public static ObjectNode stored(String json) {
        return stored(json.getBytes(StandardCharsets.UTF_8));
    }
}
