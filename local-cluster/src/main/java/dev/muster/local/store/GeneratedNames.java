package dev.muster.local.store;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

import java.security.SecureRandom;
import java.util.Random;

/**
 * kube-apiserver's names for objects created with {@code metadata.generateName} and no name: the prefix and five
 * random characters of an alphabet without vowels and look-alike digits, so that generated names stay within
 * 63 characters when the prefix is at most 58, as controllers (the resourceclaim controller) count on. The stock
 * dispatcher would append a 36-character uuid.
 */
public final class GeneratedNames {
    private static final String ALPHABET = "bcdfghjklmnpqrstvwxz2456789";
    private static final int RANDOM_LENGTH = 5;
    private static final Random RANDOM = new SecureRandom();

    private GeneratedNames() {
    }

    /** The object with a generated name if it asks for one (a {@code generateName} and no {@code name}), else itself. */
    public static JsonNode named(JsonNode object) {
        JsonNode metadata = object.path("metadata");
        String prefix = metadata.path("generateName").asText("");
        if (prefix.isEmpty() || !metadata.path("name").asText("").isEmpty() || !metadata.isObject()) {
            return object;
        }
        ObjectNode named = object.deepCopy();
        ((ObjectNode) named.get("metadata")).put("name", prefix + randomSuffix());
        return named;
    }

    private static String randomSuffix() {
        StringBuilder suffix = new StringBuilder(RANDOM_LENGTH);
        for (int i = 0; i < RANDOM_LENGTH; i++) {
            suffix.append(ALPHABET.charAt(RANDOM.nextInt(ALPHABET.length())));
        }
        return suffix.toString();
    }
}
