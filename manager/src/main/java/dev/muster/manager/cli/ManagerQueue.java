package dev.muster.manager.cli;

import dev.muster.manager.endpoint.SchedulerQueue;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;

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
     * The queue of the manager at {@code base} (its HTTP address, e.g. {@code http://localhost:8080}).
     *
     * @throws IOException if it cannot be reached or does not answer 200
     */
    static SchedulerQueue fetch(URI base, KubernetesSerialization serialization) throws IOException, InterruptedException {
        URI uri = URI.create(base.toString().replaceAll("/+$", "") + "/actuator/queue");
        HttpClient http = HttpClient.newBuilder().connectTimeout(TIMEOUT).build();
        HttpResponse<String> response = http.send(HttpRequest.newBuilder(uri).timeout(TIMEOUT).build(),
                HttpResponse.BodyHandlers.ofString());
        if (response.statusCode() != 200) {
            throw new IOException(uri + " answered " + response.statusCode());
        }
        return serialization.unmarshal(response.body(), SchedulerQueue.class);
    }
}
