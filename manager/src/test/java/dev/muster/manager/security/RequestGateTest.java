package dev.muster.manager.security;

import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.BiPredicate;

import static org.assertj.core.api.Assertions.assertThat;

class RequestGateTest {
    private static final Identity ALICE = new Identity("alice", "", List.of("team-a"));
    private static final Identity ADMIN = new Identity("admin", "", List.of("system:masters"));
    private static final Map<String, Identity> TOKENS = Map.of("alice-token", ALICE, "admin-token", ADMIN);
    private static final List<String> NAMESPACES = List.of("default", "team-a", "team-b", "team-c");

    private final List<Access> asked = new ArrayList<>();

    private RequestGate gate(BiPredicate<Identity, Access> rules) {
        return new RequestGate(new Reviews() {
            @Override
            public Optional<Identity> authenticate(String token) {
                return Optional.ofNullable(TOKENS.get(token));
            }

            @Override
            public boolean allowed(Identity identity, Access access) {
                asked.add(access);
                return rules.test(identity, access);
            }
        }, () -> NAMESPACES);
    }

    /** Admin everything; alice lists Jobs in team-a and team-c. */
    private final RequestGate gate = gate((identity, access) -> identity == ADMIN
            || !access.nonResource() && Set.of("team-a", "team-c").contains(access.namespace()));

    @Test
    void openPathsNeedNoToken() {
        RequestGate.Decision decision = gate.decide(new Protection.Open(), null);
        assertThat(decision.served()).isTrue();
        assertThat(decision.viewer()).isNull();
    }

    @Test
    void aMissingMalformedOrUnknownTokenIs401() {
        for (String header : new String[]{null, "", "Basic YWxpY2U6cHc=", "Bearer", "Bearer   ", "Bearer nobody"}) {
            RequestGate.Decision decision = gate.decide(new Protection.Tenant(null), header);
            assertThat(decision.status()).as(header).isEqualTo(401);
        }
        assertThat(asked).isEmpty();
        assertThat(gate.decide(new Protection.Tenant(null), "bearer alice-token").served()).as("scheme case").isTrue();
    }

    @Test
    void aClusterWideListerSeesEveryNamespaceAfterOneReview() {
        RequestGate.Decision decision = gate.decide(new Protection.Tenant(null), "Bearer admin-token");
        assertThat(decision.viewer().scope()).isEqualTo(NamespaceScope.ALL);
        assertThat(asked).containsExactly(Access.listJobs(""));
    }

    @Test
    void anyOtherUserSeesTheNamespacesWhereTheyMayListJobs() {
        RequestGate.Decision decision = gate.decide(new Protection.Tenant(null), "Bearer alice-token");
        assertThat(decision.viewer().identity()).isEqualTo(ALICE);
        assertThat(decision.viewer().scope().namespaces()).containsExactly("team-a", "team-c");
        assertThat(decision.viewer().scope().allows("team-b")).isFalse();
        assertThat(asked).containsExactly(Access.listJobs(""), Access.listJobs("default"), Access.listJobs("team-a"),
                Access.listJobs("team-b"), Access.listJobs("team-c"));
    }

    @Test
    void aRequestNamingANamespaceIsReviewedForThatNamespaceAlone() {
        RequestGate.Decision allowed = gate.decide(new Protection.Tenant("team-c"), "Bearer alice-token");
        assertThat(allowed.viewer().scope().namespaces()).containsExactly("team-c");
        RequestGate.Decision refused = gate.decide(new Protection.Tenant("team-b"), "Bearer alice-token");
        assertThat(refused.status()).isEqualTo(403);
        assertThat(refused.message()).isEqualTo("user \"alice\" may not list jobs.batch.muster.dev in namespace team-b");
        assertThat(asked).hasSize(4);
    }

    @Test
    void aUserWhoMayListJobsNowhereIs403() {
        RequestGate nobody = gate((identity, access) -> false);
        RequestGate.Decision decision = nobody.decide(new Protection.Tenant(null), "Bearer alice-token");
        assertThat(decision.status()).isEqualTo(403);
        assertThat(decision.message()).isEqualTo("user \"alice\" may not list jobs.batch.muster.dev in any namespace");
    }

    @Test
    void aNonResourcePathNeedsGetOnItsPath() {
        assertThat(gate.decide(new Protection.NonResource("/actuator/prometheus"), "Bearer admin-token").served()).isTrue();
        RequestGate.Decision refused = gate.decide(new Protection.NonResource("/actuator/prometheus"), "Bearer alice-token");
        assertThat(refused.status()).isEqualTo(403);
        assertThat(refused.message()).isEqualTo("user \"alice\" may not get /actuator/prometheus");
        assertThat(asked).containsExactly(Access.getPath("/actuator/prometheus"), Access.getPath("/actuator/prometheus"));
    }

    @Test
    void noAnswerFromTheApiServerIs503() {
        RequestGate down = new RequestGate(new Reviews() {
            @Override
            public Optional<Identity> authenticate(String token) {
                throw new ReviewUnavailableException("TokenReview failed: 500", null);
            }

            @Override
            public boolean allowed(Identity identity, Access access) {
                throw new AssertionError("not reached");
            }
        }, List::of);
        assertThat(down.decide(new Protection.Tenant(null), "Bearer alice-token").status()).isEqualTo(503);
    }
}
