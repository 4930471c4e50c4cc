package dev.muster.cli.local;

import dev.muster.local.server.ApiRequests;
import dev.muster.manager.config.MusterProperties;
import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.MeterRegistry;

import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * What the submitted work cost the local cluster's API server: a metric per kind of request, and the lines
 * {@code ./muster local} prints when it ends, per client with the cost per submitted Job.
 */
final class ApiRequestSummary {
    /** Meter of the requests the emulator answered, tagged by client, verb and resource. */
    static final String METRIC = "muster.local.api.requests";

    private ApiRequestSummary() {
    }

    /** Follows every kind of request with a counter in {@code registry}. */
    static void registerMetrics(ApiRequests requests, MeterRegistry registry) {
        requests.onNewKind(kind -> FunctionCounter.builder(METRIC, requests, r -> r.count(kind))
                .description("API requests answered by the local cluster")
                .tag("client", kind.client()).tag("verb", kind.verb()).tag("resource", kind.resource())
                .register(registry));
    }

    /**
     * One line per client: its requests in all, per Job, and by kind, most frequent first; the manager's with the
     * client-side rate limit it ran under, which bounds its requests a second.
     */
    static List<String> of(ApiRequests requests, int jobs, MusterProperties.Kubernetes managerClient) {
        Map<ApiRequests.Kind, Long> counts = requests.snapshot();
        List<String> lines = new ArrayList<>();
        for (String client : List.of(ApiRequests.COMPONENTS, ApiRequests.LOCAL_CLUSTER)) {
            long total = requests.total(client);
            StringBuilder line = new StringBuilder("API requests by ")
                    .append(client.equals(ApiRequests.COMPONENTS) ? "the manager (" + limit(managerClient) + ")"
                            : "the simulated kubelet and this command")
                    .append(": ").append(total);
            if (jobs > 0) {
                line.append(String.format(" (%.1f per job)", (double) total / jobs));
            }
            String separator = ": ";
            for (Map.Entry<ApiRequests.Kind, Long> e : counts.entrySet()) {
                if (e.getKey().client().equals(client)) {
                    line.append(separator).append(e.getKey()).append(' ').append(e.getValue());
                    separator = ", ";
                }
            }
            lines.add(line.toString());
        }
        return lines;
    }

    private static String limit(MusterProperties.Kubernetes client) {
        return client.qps() == 0 ? "no client-side rate limit"
                : String.format("client-side rate limit %s a second, burst %d", BigDecimal.valueOf(client.qps())
                        .stripTrailingZeros().toPlainString(), client.burst());
    }
}
