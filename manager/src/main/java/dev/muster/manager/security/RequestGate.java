package dev.muster.manager.security;

import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.Collection;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.Supplier;

/**
 * Decides a request from its {@link Protection} and its {@code Authorization} header: no bearer token or one
 * the API server does not accept is 401; a token whose user may not see what they ask for is 403; otherwise
 * the request goes on with a {@link Viewer} that says which namespaces it may show. A user who may list Jobs
 * cluster-wide sees every namespace (one review); otherwise each namespace is reviewed, or only the one the
 * request names.
 */
public final class RequestGate {
    private static final Logger log = LoggerFactory.getLogger(RequestGate.class);
    private static final String BEARER = "bearer ";

    private final Reviews reviews;
    private final Supplier<Collection<String>> namespaces;

    /**
     * @param reviews    the API server's reviews (cached)
     * @param namespaces the cluster's namespaces, for a user who may not list Jobs cluster-wide
     */
    public RequestGate(Reviews reviews, Supplier<Collection<String>> namespaces) {
        this.reviews = reviews;
        this.namespaces = namespaces;
    }

    /**
     * What to answer.
     *
     * @param status  200 to serve the request, else the status to refuse it with
     * @param message why it is refused; empty when served
     * @param viewer  who it is served to; null for an open path or a refusal
     */
    public record Decision(int status, String message, @Nullable Viewer viewer) {
        static final Decision OPEN = new Decision(200, "", null);

        /** Whether the request is served. */
        public boolean served() {
            return status == 200;
        }
    }

    /** The decision for a request needing {@code protection} that carries the header {@code authorization}. */
    public Decision decide(Protection protection, @Nullable String authorization) {
        if (protection instanceof Protection.Open) {
            return Decision.OPEN;
        }
        String token = bearerToken(authorization);
        if (token == null) {
            return new Decision(401, "a bearer token is required (Authorization: Bearer TOKEN), e.g. from"
                    + " kubectl create token", null);
        }
        try {
            Identity identity = reviews.authenticate(token).orElse(null);
            if (identity == null) {
                return new Decision(401, "the API server does not accept this token", null);
            }
            if (protection instanceof Protection.NonResource nonResource) {
                return decide(identity, Access.getPath(nonResource.path()), NamespaceScope.NONE);
            }
            return tenant(identity, ((Protection.Tenant) protection).namespace());
        } catch (Reviews.ReviewUnavailableException e) {
            log.warn("cannot review a request's token or rights: {}", e.getMessage());
            return new Decision(503, "the API server could not review this request; try again", null);
        }
    }

    private Decision tenant(Identity identity, @Nullable String namespace) {
        if (reviews.allowed(identity, Access.listJobs(""))) {
            return new Decision(200, "", new Viewer(identity, NamespaceScope.ALL));
        }
        if (namespace != null) {
            return decide(identity, Access.listJobs(namespace), NamespaceScope.of(Set.of(namespace)));
        }
        Set<String> allowed = new TreeSet<>();
        for (String candidate : namespaces.get()) {
            if (reviews.allowed(identity, Access.listJobs(candidate))) {
                allowed.add(candidate);
            }
        }
        if (allowed.isEmpty()) {
            return forbidden(identity, "list " + Access.JOBS_RESOURCE + "." + Access.JOBS_GROUP + " in any namespace");
        }
        return new Decision(200, "", new Viewer(identity, NamespaceScope.of(allowed)));
    }

    private Decision decide(Identity identity, Access access, NamespaceScope scope) {
        return reviews.allowed(identity, access) ? new Decision(200, "", new Viewer(identity, scope))
                : forbidden(identity, access.toString());
    }

    private static Decision forbidden(Identity identity, String what) {
        log.debug("refused user {}: may not {}", identity.user(), what);
        return new Decision(403, "user \"" + identity.user() + "\" may not " + what, null);
    }

    private static @Nullable String bearerToken(@Nullable String authorization) {
        if (authorization == null || !authorization.regionMatches(true, 0, BEARER, 0, BEARER.length())) {
            return null;
        }
        String token = authorization.substring(BEARER.length()).trim();
        return token.isEmpty() ? null : token;
    }
}
