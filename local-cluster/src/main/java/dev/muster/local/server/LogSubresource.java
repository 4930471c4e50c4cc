package dev.muster.local.server;

import dev.muster.local.protocol.FieldError;
import dev.muster.local.protocol.StatusResponses;
import dev.muster.local.store.StoredObjects;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.client.utils.Serialization;
import io.fabric8.mockwebserver.http.MockResponse;

import java.net.HttpURLConnection;
import java.time.Clock;
import java.util.List;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * {@code GET /api/v1/namespaces/{ns}/pods/{name}/log}, which kube-apiserver serves by asking the pod's kubelet:
 * here {@link PodLogs} answers from the stored pod, as {@code text/plain}, what the simulated kubelet did to the
 * container. Refusals are {@code Status} bodies like the API server's.
 */
final class LogSubresource {
    private static final Pattern POD_LOG = Pattern.compile("/api/v1/namespaces/([^/]+)/pods/([^/]+)/log");

    private final StoredObjects store;
    private final Clock clock;

    LogSubresource(StoredObjects store, Clock clock) {
        this.store = store;
        this.clock = clock;
    }

    /** Whether {@code path} (without query) is a pod's log. */
    static boolean isLog(String path) {
        return POD_LOG.matcher(path).matches();
    }

    /** The log a GET of {@code pathWithQuery} asks for, or the API server's refusal. */
    MockResponse get(String path, String pathWithQuery) {
        Matcher matcher = POD_LOG.matcher(path);
        if (!matcher.matches()) {
            throw new IllegalArgumentException("not a pod log path: " + path);
        }
        String podName = matcher.group(2);
        PodLogs.Options options;
        try {
            options = PodLogs.options(pathWithQuery);
        } catch (IllegalArgumentException e) {
            return StatusResponses.badRequest(e.getMessage());
        }
        List<FieldError> invalid = PodLogs.invalid(options);
        if (!invalid.isEmpty()) {
            return StatusResponses.invalid("", "PodLogOptions", podName, invalid);
        }
        Optional<Pod> pod = store.get("/api/v1/namespaces/" + matcher.group(1) + "/pods/" + podName)
                .map(stored -> Serialization.jsonMapper().convertValue(stored, Pod.class));
        if (pod.isEmpty()) {
            return StatusResponses.notFound("pods", podName);
        }
        PodLogs.Answer answer = PodLogs.log(pod.get(), options, clock.instant());
        if (answer instanceof PodLogs.Refused refused) {
            return StatusResponses.badRequest(refused.message());
        }
        return new MockResponse().setResponseCode(HttpURLConnection.HTTP_OK).setHeader("Content-Type", "text/plain")
                .setBody(((PodLogs.Log) answer).text());
    }
}
