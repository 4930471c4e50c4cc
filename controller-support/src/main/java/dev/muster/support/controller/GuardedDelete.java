package dev.muster.support.controller;

import io.fabric8.kubernetes.api.model.DeleteOptionsBuilder;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;

import java.net.HttpURLConnection;

/**
 * A DELETE that can only remove the object a decision saw: it carries {@code DeleteOptions.preconditions} with
 * the object's uid, and optionally its resourceVersion, so the API server answers 409 instead of deleting an
 * object re-created under the same name (or, with the resourceVersion, one changed since it was read), as
 * kube's TTL-after-finished controller and the garbage collector delete.
 *
 * <p>Written by hand because fabric8's delete can send a resourceVersion precondition only, never a uid one.
 */
public final class GuardedDelete {
    private GuardedDelete() {
    }

    /**
     * Deletes {@code object} if it still has its uid.
     *
     * @return false if there was no object of that name (404)
     * @throws KubernetesClientException with code 409 if the object under that name is another one
     */
    public static boolean ofUid(KubernetesClient client, HasMetadata object) {
        return delete(client, object, false);
    }

    /**
     * Deletes {@code object} if it still has its uid and is unchanged since it was read (its resourceVersion).
     *
     * @return false if there was no object of that name (404)
     * @throws KubernetesClientException with code 409 if the object is another one or has changed
     */
    public static boolean ofVersion(KubernetesClient client, HasMetadata object) {
        return delete(client, object, true);
    }

    private static boolean delete(KubernetesClient client, HasMetadata object, boolean version) {
        var metadata = object.getMetadata();
        var options = new DeleteOptionsBuilder().withNewPreconditions().withUid(metadata.getUid())
                .withResourceVersion(version ? metadata.getResourceVersion() : null).endPreconditions().build();
        try {
            client.raw(path(object), "DELETE", options);
            return true;
        } catch (KubernetesClientException e) {
            if (e.getCode() == HttpURLConnection.HTTP_NOT_FOUND) {
                return false;
            }
            throw e;
        }
    }

    /** The object's URL path: {@code /api/v1/...} for the core group, {@code /apis/<group>/<version>/...} else. */
    static String path(HasMetadata object) {
        String apiVersion = object.getApiVersion() != null ? object.getApiVersion() : HasMetadata.getApiVersion(object.getClass());
        String root = apiVersion.contains("/") ? "/apis/" + apiVersion : "/api/" + apiVersion;
        String namespace = object.getMetadata().getNamespace();
        return root + (namespace == null ? "" : "/namespaces/" + namespace) + "/" + HasMetadata.getPlural(object.getClass())
                + "/" + object.getMetadata().getName();
    }
}
