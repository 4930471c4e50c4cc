package dev.muster.local.server;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.muster.local.protocol.StatusResponses;
import dev.muster.local.store.StoredObjects;
import io.fabric8.mockwebserver.http.MockResponse;

import java.net.HttpURLConnection;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The Binding API schedulers use to assign a pod to a node, which the stock CRUD dispatcher lacks:
 * {@code POST /api/v1/namespaces/{ns}/pods/{name}/binding} and the older
 * {@code POST /api/v1/namespaces/{ns}/bindings} (pod named by the Binding's {@code metadata.name}). As in the
 * API server, a pod is bound once: binding a bound pod, or with a {@code metadata.uid} that is not the pod's,
 * answers 409, and a missing pod 404.
 */
final class BindingSubresource {
    private static final Pattern POD_BINDING = Pattern.compile("/api/v1/namespaces/([^/]+)/pods/([^/]+)/binding");
    private static final Pattern BINDINGS = Pattern.compile("/api/v1/namespaces/([^/]+)/bindings");
    private static final String SUBRESOURCE = "pods/binding";

    private final StoredObjects store;

    BindingSubresource(StoredObjects store) {
        this.store = store;
    }

    /** Whether a POST to {@code path} (without query) creates a binding. */
    static boolean isBinding(String path) {
        return POD_BINDING.matcher(path).matches() || BINDINGS.matcher(path).matches();
    }

    /**
     * Binds the pod. The caller must keep other writes out until this returns, since the check for an
     * existing binding and the write are one step.
     */
    MockResponse bind(String path, JsonNode binding) {
        String bindingName = binding.path("metadata").path("name").asText("");
        String namespace;
        String podName;
        Matcher subresource = POD_BINDING.matcher(path);
        if (subresource.matches()) {
            namespace = subresource.group(1);
            podName = subresource.group(2);
            if (!bindingName.isEmpty() && !bindingName.equals(podName)) {
                return StatusResponses.badRequest("name in URL does not match name in Binding object");
            }
        } else {
            Matcher legacy = BINDINGS.matcher(path);
            if (!legacy.matches()) {
                throw new IllegalArgumentException("not a binding path: " + path);
            }
            namespace = legacy.group(1);
            podName = bindingName;
            if (podName.isEmpty()) {
                return StatusResponses.invalid(SUBRESOURCE, podName, "Binding is invalid: metadata.name: Required value");
            }
        }
        String nodeName = binding.path("target").path("name").asText("");
        if (nodeName.isEmpty()) {
            return StatusResponses.invalid(SUBRESOURCE, podName,
                    "Binding \"" + podName + "\" is invalid: target.name: Required value");
        }

        String podPath = "/api/v1/namespaces/" + namespace + "/pods/" + podName;
        Optional<ObjectNode> found = store.get(podPath);
        if (found.isEmpty()) {
            return StatusResponses.notFound("pods", podName);
        }
        ObjectNode pod = found.get();
        String expectedUid = binding.path("metadata").path("uid").asText("");
        String uid = pod.path("metadata").path("uid").asText();
        if (!expectedUid.isEmpty() && !expectedUid.equals(uid)) {
            // A binding names the pod it was computed for; a pod recreated under the same name is another pod.
            return StatusResponses.conflict(SUBRESOURCE, podName, "Precondition failed: UID in precondition: "
                    + expectedUid + ", UID in object meta: " + uid);
        }
        if (!pod.path("metadata").path("deletionTimestamp").isMissingNode()) {
            return StatusResponses.conflict(SUBRESOURCE, podName,
                    "pod " + podName + " is being deleted, cannot be assigned to a host");
        }
        String boundTo = pod.path("spec").path("nodeName").asText("");
        if (!boundTo.isEmpty()) {
            return StatusResponses.conflict(SUBRESOURCE, podName,
                    "pod " + podName + " is already assigned to node \"" + boundTo + "\"");
        }

        pod.withObjectProperty("spec").put("nodeName", nodeName);
        JsonNode annotations = binding.path("metadata").path("annotations");
        if (annotations.isObject() && !annotations.isEmpty()) {
            pod.withObjectProperty("metadata").withObjectProperty("annotations").setAll((ObjectNode) annotations);
        }
        setScheduledCondition(pod.withObjectProperty("status").withArrayProperty("conditions"));
        MockResponse written = store.replaceSpecAndStatus(podPath, pod);
        return written.code() == HttpURLConnection.HTTP_OK ? StatusResponses.created() : written;
    }

    private static void setScheduledCondition(ArrayNode conditions) {
        for (int i = conditions.size() - 1; i >= 0; i--) {
            if ("PodScheduled".equals(conditions.get(i).path("type").asText())) {
                conditions.remove(i);
            }
        }
        conditions.addObject()
                .put("type", "PodScheduled")
                .put("status", "True")
                .put("lastTransitionTime", Instant.now().truncatedTo(ChronoUnit.SECONDS).toString());
    }
}
