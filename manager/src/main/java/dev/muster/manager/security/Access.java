package dev.muster.manager.security;

import dev.muster.api.batch.v1alpha1.Job;
import io.fabric8.kubernetes.api.model.HasMetadata;
import org.jspecify.annotations.Nullable;

/**
 * What a SubjectAccessReview asks: a verb on Muster's Jobs in a namespace, or on a non-resource URL.
 *
 * @param verb      e.g. {@code list}, {@code get}
 * @param namespace for a resource check, the namespace; empty for all namespaces at once
 * @param path      for a non-resource check, the URL path; null for a resource check
 */
public record Access(String verb, String namespace, @Nullable String path) {
    /** The API group of the resource the tenant checks are about. */
    public static final String JOBS_GROUP = HasMetadata.getGroup(Job.class);
    /** The resource the tenant checks are about. */
    public static final String JOBS_RESOURCE = HasMetadata.getPlural(Job.class);

    /** May list Muster Jobs in {@code namespace}; empty for every namespace. */
    public static Access listJobs(String namespace) {
        return new Access("list", namespace, null);
    }

    /** May {@code get} the non-resource URL {@code path}, as kube-rbac-proxy asks for a metrics path. */
    public static Access getPath(String path) {
        return new Access("get", "", path);
    }

    /** Whether this asks about a non-resource URL. */
    public boolean nonResource() {
        return path != null;
    }

    @Override
    public String toString() {
        return nonResource() ? verb + " " + path
                : verb + " " + JOBS_RESOURCE + "." + JOBS_GROUP + (namespace.isEmpty() ? " in all namespaces"
                : " in namespace " + namespace);
    }
}
