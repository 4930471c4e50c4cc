package dev.muster.local.admission;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

import java.util.regex.Pattern;

/**
 * The defaults the API server gives a pod on creation and that code written against a real cluster reads:
 * phase {@code Pending}, restart policy {@code Always} and scheduler {@code default-scheduler}. Unlike the API
 * server, a status given at creation is kept, so that tests can create a pod in any phase in one call.
 */
public final class PodDefaults {
    private static final Pattern POD_COLLECTION = Pattern.compile("/api/v1/namespaces/[^/]+/pods");

    private PodDefaults() {
    }

    /** Whether objects created at this collection path (without query) are pods. */
    public static boolean appliesTo(String collectionPath) {
        return POD_COLLECTION.matcher(collectionPath).matches();
    }

    /** A copy of {@code pod} with the missing defaults filled in. */
    public static JsonNode apply(JsonNode pod) {
        ObjectNode defaulted = pod.deepCopy();
        ObjectNode spec = defaulted.withObjectProperty("spec");
        ObjectNode status = defaulted.withObjectProperty("status");
        if (!spec.hasNonNull("restartPolicy")) {
            spec.put("restartPolicy", "Always");
        }
        if (!spec.hasNonNull("schedulerName")) {
            spec.put("schedulerName", "default-scheduler");
        }
        if (!status.hasNonNull("phase")) {
            status.put("phase", "Pending");
        }
        return defaulted;
    }
}
