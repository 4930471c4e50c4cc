package dev.muster.local.admission;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

import java.util.regex.Pattern;

/**
 * The API server's DefaultStorageClass admission for the local cluster's one class: a claim created
 * without {@code spec.storageClassName} gets {@value #DEFAULT_CLASS}, which binds
 * {@code WaitForFirstConsumer}, so that a scheduler places its pod rather than wait for a volume controller
 * the local cluster does not have. An empty class name (no class) is kept, as the API server keeps it.
 */
public final class ClaimDefaults {
    /** The local cluster's default StorageClass, created with the cluster. */
    public static final String DEFAULT_CLASS = "standard";
    private static final Pattern CLAIM_COLLECTION = Pattern.compile("/api/v1/namespaces/[^/]+/persistentvolumeclaims");

    private ClaimDefaults() {
    }

    /** Whether objects created at this collection path (without query) are claims. */
    public static boolean appliesTo(String collectionPath) {
        return CLAIM_COLLECTION.matcher(collectionPath).matches();
    }

    /** A copy of {@code claim} with the default class if it names none. */
    public static JsonNode apply(JsonNode claim) {
        ObjectNode defaulted = claim.deepCopy();
        ObjectNode spec = defaulted.withObjectProperty("spec");
        if (!spec.has("storageClassName") || spec.get("storageClassName").isNull()) {
            spec.put("storageClassName", DEFAULT_CLASS);
        }
        return defaulted;
    }
}
