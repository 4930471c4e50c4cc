package dev.muster.manager.security;

import java.util.List;
import java.util.Objects;

/**
 * A user as the API server's TokenReview names them: what a SubjectAccessReview asks about.
 *
 * @param user   the user name, e.g. {@code system:serviceaccount:team-a:viewer}
 * @param uid    the user's uid; empty when the API server gives none
 * @param groups the user's groups
 */
public record Identity(String user, String uid, List<String> groups) {
    public Identity {
        Objects.requireNonNull(user, "user");
        uid = uid == null ? "" : uid;
        groups = groups == null ? List.of() : List.copyOf(groups);
    }
}
