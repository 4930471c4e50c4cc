package dev.muster.local.server;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

import java.util.regex.Pattern;

/**
 * kube-apiserver's create strategy for DRA's ResourceClaims: a claim starts without status, since allocation and
 * reservations are written only through the status subresource (by the scheduler), never by the claim's author.
 */
final class ResourceClaimCreation {
    private static final Pattern CLAIM_COLLECTION =
            Pattern.compile("/apis/" + Pattern.quote(ServedResources.DRA_GROUP) + "/v1/namespaces/[^/]+/resourceclaims");

    private ResourceClaimCreation() {
    }

    /** Whether objects created at this collection path (without query) are ResourceClaims. */
    static boolean appliesTo(String collectionPath) {
        return CLAIM_COLLECTION.matcher(collectionPath).matches();
    }

    /** A copy of {@code claim} without status. */
    static JsonNode apply(JsonNode claim) {
        ObjectNode created = claim.deepCopy();
        created.remove("status");
        return created;
    }
}
