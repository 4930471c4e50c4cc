package dev.muster.manager.security;

import java.util.Optional;

/**
 * The API server's answers to the two questions behind every protected request: who holds this bearer
 * token (TokenReview), and may they do this (SubjectAccessReview). Implementations throw
 * {@link ReviewUnavailableException} when they cannot get an answer: that is neither yes nor no.
 */
public interface Reviews {
    /** The user {@code token} belongs to; empty when the API server does not accept it. */
    Optional<Identity> authenticate(String token);

    /** Whether {@code identity} may do {@code access}. */
    boolean allowed(Identity identity, Access access);

    /** No answer from the API server, e.g. it cannot be reached; the request is refused with 503, not 401 or 403. */
    class ReviewUnavailableException extends RuntimeException {
        public ReviewUnavailableException(String message, Throwable cause) {
            super(message, cause);
        }
    }
}
