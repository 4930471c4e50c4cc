package dev.muster.manager.security;

import org.junit.jupiter.api.Test;

import java.util.Arrays;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

class ProtectionTest {
    private static Protection of(String path, String namespaceParameter) {
        return Protection.of(Arrays.asList(path.split("/")), namespaceParameter);
    }

    @Test
    void healthTheDashboardPageAndOtherPathsAreOpen() {
        for (String path : List.of("/actuator/health", "/actuator/health/readiness", "/actuator/health/liveness",
                "/dashboard/", "/dashboard/dashboard.js", "/", "/error", "/dashboard")) {
            assertThat(of(path, null)).as(path).isInstanceOf(Protection.Open.class);
        }
    }

    @Test
    void theDataEndpointsAreTenantDataWithTheNamespaceTheyName() {
        assertThat(of("/actuator/jobs", null)).isEqualTo(new Protection.Tenant(null));
        assertThat(of("/actuator/jobs", "team-a")).isEqualTo(new Protection.Tenant("team-a"));
        assertThat(of("/actuator/jobs", " ")).isEqualTo(new Protection.Tenant(null));
        assertThat(of("/actuator/jobs/team-a/train", "team-b")).isEqualTo(new Protection.Tenant("team-a"));
        assertThat(of("/actuator/podgroups/team-a/train", null)).isEqualTo(new Protection.Tenant("team-a"));
        assertThat(of("/actuator/queue", null)).isEqualTo(new Protection.Tenant(null));
        assertThat(of("/dashboard/api/jobs", null)).isEqualTo(new Protection.Tenant(null));
        assertThat(of("/dashboard/api/queues", null)).isEqualTo(new Protection.Tenant(null));
        assertThat(of("/dashboard/api/jobs/team-a/train", null)).isEqualTo(new Protection.Tenant("team-a"));
        assertThat(of("/dashboard/api/anything/else", null)).isEqualTo(new Protection.Tenant(null));
    }

    @Test
    void everyOtherActuatorPathIsItsNonResourceUrlWithEmptySegmentsDropped() {
        assertThat(of("/actuator/prometheus", null)).isEqualTo(new Protection.NonResource("/actuator/prometheus"));
        assertThat(of("//actuator//metrics/jvm.memory.used", null))
                .isEqualTo(new Protection.NonResource("/actuator/metrics/jvm.memory.used"));
        assertThat(of("/actuator", null)).isEqualTo(new Protection.NonResource("/actuator"));
        assertThat(of("//actuator//jobs", null)).isEqualTo(new Protection.Tenant(null));
    }
}
