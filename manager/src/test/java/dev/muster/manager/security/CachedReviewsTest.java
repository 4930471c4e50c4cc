package dev.muster.manager.security;

import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicLong;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class CachedReviewsTest {
    private static final Identity ALICE = new Identity("alice", "", List.of("team-a"));

    /** Answers from a list and records every question, as the API server would be asked. */
    private static final class Recording implements Reviews {
        final List<String> asked = new ArrayList<>();
        boolean fail;

        @Override
        public Optional<Identity> authenticate(String token) {
            asked.add("token " + token);
            if (fail) {
                throw new ReviewUnavailableException("down", null);
            }
            return token.equals("good") ? Optional.of(ALICE) : Optional.empty();
        }

        @Override
        public boolean allowed(Identity identity, Access access) {
            asked.add(identity.user() + " " + access);
            return access.namespace().equals("team-a");
        }
    }

    private final Recording api = new Recording();
    private final AtomicLong nanos = new AtomicLong();
    private final CachedReviews cached = new CachedReviews(api, Duration.ofSeconds(30), nanos::get);

    @Test
    void answersBothYesAndNoFromMemoryUntilTheyExpire() {
        for (int i = 0; i < 3; i++) {
            assertThat(cached.authenticate("good")).contains(ALICE);
            assertThat(cached.authenticate("bad")).isEmpty();
            assertThat(cached.allowed(ALICE, Access.listJobs("team-a"))).isTrue();
            assertThat(cached.allowed(ALICE, Access.listJobs("team-b"))).isFalse();
        }
        assertThat(api.asked).hasSize(4);

        nanos.addAndGet(Duration.ofSeconds(31).toNanos());
        assertThat(cached.authenticate("good")).contains(ALICE);
        assertThat(cached.allowed(ALICE, Access.listJobs("team-b"))).isFalse();
        assertThat(api.asked).hasSize(6);
    }

    @Test
    void keepsDifferentQuestionsApart() {
        cached.allowed(ALICE, Access.listJobs("team-a"));
        cached.allowed(new Identity("alice", "", List.of("team-a", "admins")), Access.listJobs("team-a"));
        cached.allowed(ALICE, Access.getPath("/actuator/prometheus"));
        assertThat(api.asked).hasSize(3);
    }

    @Test
    void doesNotRememberAFailureToGetAnAnswer() {
        api.fail = true;
        assertThatThrownBy(() -> cached.authenticate("good")).isInstanceOf(Reviews.ReviewUnavailableException.class);
        api.fail = false;
        assertThat(cached.authenticate("good")).contains(ALICE);
    }
}
