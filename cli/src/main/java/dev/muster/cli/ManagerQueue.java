package dev.muster.cli;

import dev.muster.manager.endpoint.SchedulerQueue;
import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import org.jspecify.annotations.Nullable;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;

/** The scheduler's queue as a manager's {@code /actuator/queue} endpoint shows it. */
final class ManagerQueue {
    /** A describe should not hang on a manager that does not answer; the PodGroup's status still says much. */
    private static final Duration TIMEOUT = Duration.ofSeconds(3);

    private ManagerQueue() {
    }

    /**
     * The queue of the manager at {@code base} (its HTTP address, e.g. {@code http://localhost:8080}), asked with
     * {@code token}: the manager shows the waiting gangs of the namespaces its user may list Jobs in.
     *
     * @param token the bearer token; none when null (then a manager with authentication on answers 401)
     * @throws IOException if it cannot be reached or does not answer 200
     */
    static SchedulerQueue fetch(URI base, @Nullable String token, KubernetesSerialization serialization)
            throws IOException, InterruptedException {
        URI uri = URI.create(base.toString().replaceAll("/+$", "") + "/actuator/queue");
        HttpClient http = HttpClient.newBuilder().connectTimeout(TIMEOUT).build();
        HttpRequest.Builder request = HttpRequest.newBuilder(uri).timeout(TIMEOUT);
        if (token != null) {
            request.header("Authorization", "Bearer " + token);
        }
        HttpResponse<String> response = http.send(request.build(), HttpResponse.BodyHandlers.ofString());
        if (response.statusCode() != 200) {
            throw new IOException(uri + " answered " + response.statusCode());
        }
        return serialization.unmarshal(response.body(), SchedulerQueue.class);
    }

    /** The bearer token the kubeconfig gives its user, as the client sends it to the API server; null if none. */
    static @Nullable String bearerToken(Config config) {
        String token = config.getOauthTokenProvider() != null ? config.getOauthTokenProvider().getToken()
                : config.getOauthToken() != null ? config.getOauthToken() : config.getAutoOAuthToken();
        return token == null || token.isBlank() ? null : token;
    }
}
