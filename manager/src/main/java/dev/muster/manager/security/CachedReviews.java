package dev.muster.manager.security;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import com.github.benmanes.caffeine.cache.Ticker;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Duration;
import java.util.HexFormat;
import java.util.Optional;

/**
 * {@link Reviews} remembered for a while, as kube-rbac-proxy and controller-runtime's filter cache theirs: a
 * dashboard polls every two seconds and a page load asks several questions, which must not each cost the API
 * server a review. Yes and no are both remembered for the same time (a right granted or revoked shows after at
 * most that long); a failure to get an answer is not remembered. Tokens are kept only as SHA-256 digests.
 */
public final class CachedReviews implements Reviews {
    /** Enough for every user of a large cluster's dashboard at once; beyond it the least used answers go first. */
    private static final long MAX_ENTRIES = 10_000;

    private record Question(Identity identity, Access access) {
    }

    private final Reviews reviews;
    private final Cache<String, Optional<Identity>> identities;
    private final Cache<Question, Boolean> decisions;

    /** Remembers the answers of {@code reviews} for {@code ttl}. */
    public CachedReviews(Reviews reviews, Duration ttl) {
        this(reviews, ttl, Ticker.systemTicker());
    }

    CachedReviews(Reviews reviews, Duration ttl, Ticker ticker) {
        this.reviews = reviews;
        this.identities = Caffeine.newBuilder().expireAfterWrite(ttl).maximumSize(MAX_ENTRIES).ticker(ticker).build();
        this.decisions = Caffeine.newBuilder().expireAfterWrite(ttl).maximumSize(MAX_ENTRIES).ticker(ticker).build();
    }

    @Override
    public Optional<Identity> authenticate(String token) {
        return identities.get(digest(token), key -> reviews.authenticate(token));
    }

    @Override
    public boolean allowed(Identity identity, Access access) {
        return decisions.get(new Question(identity, access), q -> reviews.allowed(identity, access));
    }

    private static String digest(String token) {
        try {
            return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256")
                    .digest(token.getBytes(StandardCharsets.UTF_8)));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every Java platform has SHA-256", e);
        }
    }
}
