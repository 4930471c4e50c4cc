package dev.muster.local.server;

import java.security.SecureRandom;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Who the local cluster knows and what it lets them do, as its TokenReview and (Self)SubjectAccessReview APIs
 * answer: bearer tokens mapped to users, and an authorizer. It knows no token until one is added, and authorises
 * every request by default ({@link #ALLOW_ALL}), so {@code kubectl auth can-i} says yes; tests that need a
 * tenant without rights set an authorizer of their own. Only the review APIs consult it: the emulator's other
 * requests are served whatever credentials they carry. Safe for concurrent use; changes apply to the next review.
 */
public final class ClusterAccess {
    /** Authorises every request. */
    public static final Authorizer ALLOW_ALL = request -> true;

    private static final SecureRandom RANDOM = new SecureRandom();
    private static final int TOKEN_BYTES = 32;

    private final Map<String, User> users = new ConcurrentHashMap<>();
    private volatile Authorizer authorizer = ALLOW_ALL;

    /**
     * A user as TokenReview reports it.
     *
     * @param name   the user name, e.g. {@code alice} or {@code system:serviceaccount:ns:sa}
     * @param uid    the user's uid; may be empty
     * @param groups the groups the user is in
     */
    public record User(String name, String uid, List<String> groups) {
        public User {
            Objects.requireNonNull(name, "name");
            uid = uid == null ? "" : uid;
            groups = groups == null ? List.of() : List.copyOf(groups);
        }

        /** A user with no uid. */
        public User(String name, List<String> groups) {
            this(name, "", groups);
        }
    }

    /**
     * What a SubjectAccessReview asks: may {@code user} do {@code verb} on a resource (namespace empty for all
     * namespaces or a cluster-scoped resource; name empty for any), or on a non-resource {@code path}.
     *
     * @param path the non-resource URL; null for a resource request
     */
    public record Request(User user, String verb, String group, String resource, String subresource,
                          String namespace, String name, String path) {
        /** Whether this asks about a resource, not a non-resource URL. */
        public boolean isResourceRequest() {
            return path == null;
        }
    }

    /** Decides a {@link Request}: true allows it. */
    @FunctionalInterface
    public interface Authorizer {
        boolean allows(Request request);
    }

    /** Makes {@code token} authenticate as {@code user}; a token added again is re-assigned. */
    public void addToken(String token, User user) {
        if (Objects.requireNonNull(token, "token").isBlank()) {
            throw new IllegalArgumentException("a token must not be blank");
        }
        users.put(token, Objects.requireNonNull(user, "user"));
    }

    /** A new random token that authenticates as {@code user}. */
    public String mintToken(User user) {
        byte[] bytes = new byte[TOKEN_BYTES];
        RANDOM.nextBytes(bytes);
        String token = Base64.getUrlEncoder().withoutPadding().encodeToString(bytes);
        addToken(token, user);
        return token;
    }

    /** Decides every later review with {@code authorizer}; {@link #ALLOW_ALL} restores the default. */
    public void authorizeWith(Authorizer authorizer) {
        this.authorizer = Objects.requireNonNull(authorizer, "authorizer");
    }

    /** The user {@code token} authenticates as, if it is known. */
    Optional<User> authenticate(String token) {
        return Optional.ofNullable(users.get(token));
    }

    /** Whether the authorizer allows {@code request}. */
    boolean allows(Request request) {
        return authorizer.allows(request);
    }

    /** Whether the default authorizer is in place, for the reason the reviews give. */
    boolean allowsEverything() {
        return authorizer == ALLOW_ALL;
    }
}
