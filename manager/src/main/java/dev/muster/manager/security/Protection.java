package dev.muster.manager.security;

import org.jspecify.annotations.Nullable;

import java.util.List;

/**
 * What a request path needs, by the path's segments as Spring matches them (decoded, without matrix
 * parameters), so that no spelling of a path reaches an endpoint past a rule meant for it:
 * <ul>
 *   <li>{@link Open}: health probes ({@code /actuator/health/**}), the dashboard's static page and anything
 *       that is neither Actuator nor dashboard data;</li>
 *   <li>{@link Tenant}: Muster objects by namespace, {@code /actuator/jobs|podgroups|queue/**} and
 *       {@code /dashboard/api/**}: a reviewed token, and the viewer sees the namespaces where they may list
 *       Jobs;</li>
 *   <li>{@link NonResource}: every other Actuator path ({@code prometheus}, {@code metrics}, {@code info}, the
 *       index): a reviewed token allowed to {@code get} that non-resource URL, as kube-rbac-proxy protects
 *       {@code /metrics}.</li>
 * </ul>
 */
public sealed interface Protection {
    /** No token needed. */
    record Open() implements Protection {
    }

    /** Muster objects, filtered by namespace; {@code namespace} when the request names one. */
    record Tenant(@Nullable String namespace) implements Protection {
    }

    /** A non-resource URL, checked as {@code get} on {@code path}. */
    record NonResource(String path) implements Protection {
    }

    /** The endpoints that show Muster objects by namespace. */
    List<String> TENANT_ENDPOINTS = List.of("jobs", "podgroups", "queue");

    /**
     * The protection of the path made of {@code segments}, with {@code namespaceParameter} the request's
     * {@code namespace} query parameter, if any.
     */
    static Protection of(List<String> segments, @Nullable String namespaceParameter) {
        List<String> parts = segments.stream().filter(s -> !s.isEmpty()).toList();
        if (parts.isEmpty()) {
            return new Open();
        }
        if (parts.get(0).equals("actuator")) {
            if (parts.size() > 1 && parts.get(1).equals("health")) {
                return new Open();
            }
            if (parts.size() > 1 && TENANT_ENDPOINTS.contains(parts.get(1))) {
                return new Tenant(parts.size() > 2 ? parts.get(2) : blankToNull(namespaceParameter));
            }
            return new NonResource("/" + String.join("/", parts));
        }
        if (parts.get(0).equals("dashboard") && parts.size() > 1 && parts.get(1).equals("api")) {
            // /dashboard/api/jobs/{namespace}/{name} names a namespace; the other data pages do not.
            return new Tenant(parts.size() > 3 && parts.get(2).equals("jobs") ? parts.get(3) : null);
        }
        return new Open();
    }

    private static @Nullable String blankToNull(@Nullable String value) {
        return value == null || value.isBlank() ? null : value;
    }
}
